import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/preact';
import { Markdown, MarkdownWhole } from './Markdown';
import { wholeHTML } from './testing';
import { blockTexts, openFenceBlock, splitBlocks, type Split } from './blocks';

// Property: for random Markdown cut into random deltas, the block-by-block
// render of every prefix (as a streaming answer renders) is the same DOM as
// rendering that prefix whole, and so is the finished text.

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const INLINE = ['word', '`code`', '*em*', '**strong**', '$x^2$', '\\(a+b\\)', '[link](https://e.x/a)', '<b>', '~~del~~', 'https://e.x', '$5 and $10', '_u_', '\\$', '&amp;', '|', '#', '>', '-', '1.', '```', '~~~', '$$'];

function inline(r: () => number): string {
  const n = 1 + Math.floor(r() * 6);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(INLINE[Math.floor(r() * INLINE.length)]!);
  return out.join(' ');
}

// Blocks (and block fragments) that stress where blocks end: loose and
// nested lists, fences of both kinds and lengths (closed, unclosed,
// indented inside list items), quotes with lazy lines, tables, setext
// underlines, indented code, HTML blocks, display math across lines.
const PIECES: ((r: () => number) => string)[] = [
  (r) => `${inline(r)}\n`,
  (r) => `# ${inline(r)}\n`,
  (r) => `### ${inline(r)}\n`,
  () => '\n',
  () => '\n\n',
  (r) => `- ${inline(r)}\n`,
  (r) => `* ${inline(r)}\n`,
  (r) => `1. ${inline(r)}\n`,
  (r) => `2) ${inline(r)}\n`,
  (r) => `  - ${inline(r)}\n`,
  (r) => `   ${inline(r)}\n`,
  (r) => `    code ${inline(r)}\n`,
  (r) => `> ${inline(r)}\n`,
  () => `>\n`,
  () => '```go\nfunc f() {\n\n\treturn\n}\n```\n',
  () => '```\nopen fence\n\n',
  () => '~~~~\na\n```\nb\n~~~~\n',
  () => '   ```ts\n   const x = 1;\n\n   ```\n',
  () => '```\n',
  () => '---\n',
  () => '===\n',
  () => '***\n',
  (r) => `| a | b |\n| --- | --- |\n| ${inline(r)} | c |\n`,
  () => '<div>\n\nhtml\n</div>\n',
  () => '<!--\n\ncomment\n-->\n',
  () => '$$\nx = 1\n$$\n',
  () => '\\[\n\\frac{1}{2}\n\n\\]\n',
  (r) => `- [ ] ${inline(r)}\n`,
  () => '\t- tab\n',
];

function markdownDoc(r: () => number, defs: boolean): string {
  const n = 3 + Math.floor(r() * 25);
  let s = '';
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(r() * PIECES.length)]!(r);
  if (defs) s += '\n[link]: https://e.x/def\n';
  return s;
}

function cuts(r: () => number, text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const n = 1 + Math.floor(r() * 12);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

const whole = wholeHTML;

describe('block-by-block Markdown rendering', () => {
  it('renders every streamed prefix as the whole render of it (random Markdown, random cuts)', () => {
    // BLOCKS_SEEDS=2000 for a longer search; the default keeps CI lean.
    const seeds = Number(process.env.BLOCKS_SEEDS ?? 25);
    for (let seed = 1; seed <= seeds; seed++) {
      const r = rng(seed);
      const text = markdownDoc(r, seed % 10 === 0);
      const deltas = cuts(r, text);
      let have = '';
      const view = render(<Markdown text="" highlight={false} />);
      for (let i = 0; i < deltas.length; i++) {
        have += deltas[i];
        view.rerender(<Markdown text={have} highlight={false} />);
        // every prefix in short texts, a sample (and the end) in long ones
        if (deltas.length < 20 || i % 9 === 0 || i === deltas.length - 1) {
          expect(view.container.innerHTML, `seed ${seed}, prefix ${JSON.stringify(have)}`).toBe(whole(have));
        }
      }
      view.unmount();
    }
  }, 180_000);

  it('keeps the finished blocks and re-parses only from the open one', () => {
    let s: Split | undefined;
    s = splitBlocks('# Title\n\nfirst para');
    expect(blockTexts(s)).toEqual(['# Title\n\nfirst para']); // a line still being written is not cut
    s = splitBlocks('# Title\n\nfirst para\n\n```go\nx', s);
    expect(blockTexts(s)).toEqual(['# Title\n\n', 'first para\n\n', '```go\nx']);
    s = splitBlocks('# Title\n\nfirst para\n\n```go\nx\n', s);
    expect(blockTexts(s)).toEqual(['# Title\n\n', 'first para\n\n', '```go\nx\n']);
    // a blank line inside an open fence does not end the block
    s = splitBlocks('# Title\n\nfirst para\n\n```go\nx\n\ny\n', s);
    expect(blockTexts(s).at(-1)).toBe('```go\nx\n\ny\n');
    // a definition anywhere: not cut
    expect(splitBlocks('[a]\n\n[a]: https://e.x\n').starts).toEqual([0]);
  });

  // Streamed one character at a time, each of these renders
  // as the whole render of the same prefix: code fences split mid-fence
  // (the open fence is shown without parsing: openFenceBlock), tables,
  // lists and math.
  const STREAMED: Record<string, string> = {
    'code fences split mid-fence':
      'Text before.\n\n```go\nfunc f() {\n\n\treturn 1\n}\n``\n```\n\nAfter.\n\n~~~~ts\nconst a = `x`;\n```\n~~~\n~~~~~\n\n```\nno language\n\n\n```\n\n```go extra words\nx\n```\n\n```mermaid\ngraph TD\n```\n',
    tables: '| a | b |\n| --- | :-: |\n| 1 | `x` |\n| 2 | **y** |\n\nafter\n\n| c |\n| - |\n',
    lists: '- one\n- two\n  - nested\n\n  more of two\n- three\n\n1. first\n2. second\n   ```go\n   x\n   ```\n3) other\n\n- [ ] task\n- [x] done\n',
    math: 'Inline $x^2$ and \\(a+b\\).\n\n$$\n\\frac{1}{2}\n\n$$\n\n\\[\nx = 1\n\\]\n\nprice $5 and $10\n',
  };
  for (const [name, text] of Object.entries(STREAMED)) {
    it(`renders ${name} streamed one character at a time as the whole render`, () => {
      const view = render(<Markdown text="" highlight={false} />);
      for (let i = 1; i <= text.length; i++) {
        const have = text.slice(0, i);
        view.rerender(<Markdown text={have} highlight={false} />);
        // compared at every line's end and start, every fence and table
        // character, and every third character between (CI stays lean)
        if (i % 3 !== 0 && i !== text.length && !/[\n`~|$]/.test(text[i - 1]! + (text[i] ?? ''))) continue;
        expect(view.container.innerHTML, `prefix ${JSON.stringify(have)}`).toBe(whole(have));
      }
      // the run ends: highlighting on, still the whole render
      view.rerender(<Markdown text={text} highlight />);
      const { container, unmount } = render(<MarkdownWhole text={text} highlight />);
      expect(view.container.innerHTML).toBe(container.innerHTML);
      unmount();
      view.unmount();
    }, 60_000);
  }

  it('shows an open fence without the parser, and leaves everything else to it', () => {
    expect(openFenceBlock('```go\nx\n\ny')).toEqual({ lang: 'go', code: 'x\n\ny\n' });
    expect(openFenceBlock('```go\n\n')).toEqual({ lang: 'go', code: '' });
    expect(openFenceBlock('~~~~\na\n~~~\n')).toEqual({ lang: '', code: 'a\n~~~\n' });
    expect(openFenceBlock('```go\nx\n```')).toBeNull(); // closed
    expect(openFenceBlock('````go\nx\n  ````  \n')).toBeNull(); // closed (indented, trailing spaces)
    expect(openFenceBlock('```go')).toBeNull(); // the fence line is not complete
    expect(openFenceBlock('```mermaid\ngraph\n')).toBeNull(); // drawn, not shown as code
    expect(openFenceBlock('```go x\ny\n')).toBeNull(); // an info string beyond the name
    expect(openFenceBlock('   ```go\nx\n')).toBeNull(); // indented
    expect(openFenceBlock('```go\r\nx\n')).toBeNull();
    // while it stays open, a new line does not make the splitter parse again
    let s = splitBlocks('# T\n\n```go\nx\n');
    expect(blockTexts(s)).toEqual(['# T\n\n', '```go\nx\n']);
    s = splitBlocks('# T\n\n```go\nx\n\n# not a heading\n', s);
    expect(blockTexts(s)).toEqual(['# T\n\n', '```go\nx\n\n# not a heading\n']);
    s = splitBlocks('# T\n\n```go\nx\n\n# not a heading\n```\n\nafter\n', s);
    expect(blockTexts(s)).toEqual(['# T\n\n', '```go\nx\n\n# not a heading\n```\n\n', 'after\n']);
  });
});

import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'preact-render-to-string';
import remarkGfm from 'remark-gfm';
import { remarkMath } from '../../../lib/mathSyntax';
import { remarkFenceState } from '../../../lib/mermaid';
import { safeUrl } from '../../../lib/safeUrl';
import { tokenText } from '../../../../../bench/mdfake.mjs';
import { renderMarkdown } from './render';
import { blockTexts, splitBlocks, type Split } from './blocks';
import { mayUseExtensions } from './syntax';

// A block in which no extension's syntax can start renders the same
// without the extensions (what Markdown.tsx and blocks.ts then do), and
// every extension's own syntax is seen.

const full = [remarkGfm, remarkMath, remarkFenceState];
const plain = [remarkFenceState];
const render = (text: string, remarkPlugins: typeof full) =>
  renderToStaticMarkup(<>{renderMarkdown(text, { remarkPlugins, urlTransform: (u) => safeUrl(u), components: {}, skipHtml: false })}</>);

// A small seeded generator (the same texts on every run).
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES = [
  '# Heading', '## Sub *em*', 'plain words', 'more text with **strong** and _em_', '`code span`', '``a ` b``',
  '- item', '* star item', '+ plus item', '  - nested', '1. one', '2) two', '10. ten', '> quote', '> > deep',
  '```js', '```', '~~', '    indented code', '\tTab code', '<div>', '</div>', '<b>bold</b>', '<!-- c -->',
  '[link](/a "t")', '[ref][r]', '![img](/i.png)', '<http:x>', '&amp; &#123; &copy;', '***', '---', '===', '___',
  'x * y * z', '_a_b_', 'a\u00a0b', 'trailing  ', '[x', 'x]', '[ x ]', '()', '[]', '(<a>)', 'h t t p', 'www', 'w.w',
  'ftp:/x', '1.', '-', '>', '#', '`', '*', '_', '[', ']', '!', '<', '&',
];

function randomText(next: () => number): string {
  const lines: string[] = [];
  const n = 1 + Math.floor(next() * 12);
  for (let i = 0; i < n; i++) {
    const k = 1 + Math.floor(next() * 3);
    const parts: string[] = [];
    for (let j = 0; j < k; j++) parts.push(PIECES[Math.floor(next() * PIECES.length)]!);
    lines.push(next() < 0.2 ? '' : parts.join(next() < 0.5 ? ' ' : ''));
  }
  return lines.join(next() < 0.1 ? '\r\n' : '\n') + (next() < 0.5 ? '\n' : '');
}

describe('mayUseExtensions', () => {
  it('sees every extension’s syntax', () => {
    for (const s of [
      '| a | b |\n| - | - |', 'a | b\n--- | ---', '~~gone~~', '~one~', 'note[^1]', '[^1]: the note', '- [ ] task', '- [x] done', '- [X] done', '- [\t] tab',
      'see https://e.x', 'http://e.x', 'www.e.x', 'WWW.E.X', 'me@e.x', 'mailto:me@e.x', 'xmpp:me@e.x', '$x^2$', '$$\nx\n$$', '\\(a\\)', '\\[a\\]', 'a \\* b',
    ]) {
      expect(mayUseExtensions(s), s).toBe(true);
    }
    for (const s of ['# Title', 'plain *prose* with `code`', '- a\n- b', '> quote', '```go\nx\n```', '[link](/a)']) expect(mayUseExtensions(s), s).toBe(false);
  });

  it('sees an autolink literal spelled with character references (GFM links the decoded text)', () => {
    // mdast-util-gfm-autolink-literal finds links in the text nodes, after
    // &#46; &colon; &commat; … are decoded: the source has no www. nor @.
    for (const s of [
      'www&#46;example.com', 'see www&#x2e;a.org now', 'WWW&period;example&period;com', 'https&#58;//example.com',
      'http&colon;&sol;&sol;a.b', 'me&#64;example.com', 'me&commat;example.com', '&#119;ww.example.com',
    ]) {
      expect(mayUseExtensions(s), s).toBe(true);
      expect(render(s, full), s).toContain('<a href=');
    }
    for (const s of ['Tom & Jerry', 'a && b', '& then']) expect(mayUseExtensions(s), s).toBe(false);
  });

  it('sees a table without pipes: one column, its delimiter row aligned (`:-`, `-:`)', () => {
    // GFM reads "a\n:-" as a table (a bare "---" would be a setext heading).
    for (const s of ['a\n:-', 'Name\n:--', 'a\n-:', 'a\n:-:\nb', ' é1  \n-:', '> a\n> :-', '- a\n  ---:']) {
      expect(mayUseExtensions(s), s).toBe(true);
      expect(render(s, full), s).toContain('<table>');
    }
  });

  it('renders random texts without them the same with and without the extensions', () => {
    const next = rng(26);
    let compared = 0;
    for (let i = 0; i < 3000 && compared < 1200; i++) {
      const t = randomText(next);
      if (mayUseExtensions(t)) continue;
      compared++;
      expect(render(t, plain), JSON.stringify(t)).toBe(render(t, full));
    }
    expect(compared).toBeGreaterThan(1000);
  }, 120_000);

  // Character by character from a wider alphabet (entities, the pieces of
  // URLs and emails, unicode white space, containers, table cells): found
  // the character-reference autolinks and the one-column tables without
  // pipes that the line pieces above never make.
  const CHARS = [
    'a', 'b', 'w', 'W', 'x', 'X', 'h', 't', 'p', 's', 'm', ':', '/', '.', '-', '_', '+', '*', '#', '>', '<', '!', '[', ']', '(', ')', '^',
    '`', '"', '=', '%', ';', ',', ' ', ' ', '\t', '\n', '\n', '\r', '\r\n', '\u00a0', '\u3000', '1', '&', '&amp;', '&#46;', '&#x40;',
    '&nbsp;', 'www', 'http', 'mailto', 'xmpp', '    ', '```', '~~~', '  \n', '1.', '- ', '> ', '# ', '<div>', '</a>', '[x]: /u', '[x]',
    '<http://a.b>', 'é', 'ß', 'İ', 'K', 'ﬀ', '\u200b', '\ufeff', '\f',
  ];
  it('renders random characters without them the same with and without the extensions, whole and cut into blocks', () => {
    const next = rng(7);
    let compared = 0;
    for (let i = 0; i < 40_000 && compared < 6000; i++) {
      let t = '';
      for (let n = 1 + Math.floor(next() * 40); n > 0; n--) t += CHARS[Math.floor(next() * CHARS.length)]!;
      if (mayUseExtensions(t)) continue;
      compared++;
      expect(render(t, plain), JSON.stringify(t)).toBe(render(t, full));
      if (compared % 10) continue;
      let split: Split | undefined;
      for (let k = 1; k <= t.length; k++) split = splitBlocks(t.slice(0, k), split);
      for (const b of blockTexts(split!)) expect(render(b, plain), JSON.stringify(b)).toBe(render(b, full));
    }
    expect(compared).toBe(6000);
  }, 120_000);

  it('renders the bench stream’s blocks without extensions the same, at every prefix cut into blocks', () => {
    let text = '';
    let split: Split | undefined;
    let compared = 0;
    for (let i = 0; i < 1500; i++) {
      text += tokenText(i);
      split = splitBlocks(text, split);
      if (i % 7 !== 0) continue;
      for (const b of blockTexts(split)) {
        if (mayUseExtensions(b)) continue;
        compared++;
        expect(render(b, plain), JSON.stringify(b)).toBe(render(b, full));
      }
    }
    expect(compared).toBeGreaterThan(500);
  }, 120_000);
});

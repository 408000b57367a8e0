import { describe, expect, it, vi } from 'vitest';
import { render, waitFor } from '@testing-library/preact';
import { Markdown } from './Markdown';
import { safeUrl } from '../../../lib/safeUrl';
import { fenceClosed, inertSvg, mermaidRequested } from '../../../lib/mermaid';

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '[x](javascript:alert(1))',
  '[y](JaVaScRiPt:alert(1))',
  '[z](<java\tscript:alert(1)>)',
  '[d](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[v](vbscript:msgbox(1))',
  '<javascript:alert(1)>',
  '![pic](javascript:alert(1))',
  '![track](https://evil.example/pixel.gif)',
  '<script>alert(1)</script>',
  '<svg onload=alert(1)><circle r="5"/></svg>',
  '<iframe src="https://evil.example"></iframe>',
  '<a href="javascript:alert(1)" onclick="alert(1)">html link</a>',
  '<div onmouseover="alert(1)">hover</div>',
  '<object data="x.swf"></object><embed src="x.swf">',
  '<style>body{display:none}</style>',
  '[ref]: javascript:alert(1)\n\n[ref link][ref]',
  '```html\n<script>alert(1)</script>\n```',
  '| a | b |\n|---|---|\n| <img src=x onerror=alert(1)> | [q](javascript:alert(2)) |',
  // TeX: links, HTML extensions and images need `trust`, which is off.
  '$\\href{javascript:alert(1)}{x}$',
  '$\\url{javascript:alert(1)}$',
  '$$\\htmlClass{x}{y}$$',
  '$\\htmlStyle{position:fixed;inset:0}{z}$',
  '$\\htmlId{pwn}{i}$ $\\htmlData{foo=bar}{d}$',
  '$\\includegraphics{https://evil.example/pixel.gif}$',
  '\\(<img src=x onerror=alert(1)>\\)',
].join('\n\n');

function allElements(root: Element): Element[] {
  return [root, ...root.querySelectorAll('*')];
}

describe('Markdown renderer with hostile payloads', () => {
  it('renders no on* attribute, no script/iframe/svg/object/embed/style/img element and no unsafe href', () => {
    const { container } = render(<Markdown text={HOSTILE} />);
    for (const el of allElements(container)) {
      for (const attr of el.getAttributeNames()) {
        expect(attr.toLowerCase().startsWith('on'), `${el.tagName} has ${attr}`).toBe(false);
      }
      expect(['SCRIPT', 'IFRAME', 'SVG', 'OBJECT', 'EMBED', 'STYLE', 'IMG', 'FORM']).not.toContain(
        el.tagName.toUpperCase(),
      );
    }
    expect(container.querySelector('svg')).toBeNull();
    for (const a of container.querySelectorAll('a')) {
      const href = a.getAttribute('href') ?? '';
      expect(href).toMatch(/^(https?:|mailto:|#)/i);
    }
    for (const el of container.querySelectorAll('[src],[srcset],[action],[formaction],[xlink\\:href]')) {
      throw new Error(`unexpected url attribute on ${el.tagName}`);
    }
    // The raw HTML is shown as text, so the person sees what the model wrote.
    expect(container.textContent).toContain('<script>alert(1)</script>');
    expect(container.textContent).toContain('<svg onload=alert(1)>');
    // The untrusted TeX commands show as (error-coloured) source, none applied.
    expect(container.querySelectorAll('.katex').length).toBeGreaterThanOrEqual(6);
    expect(container.querySelector('.x, #pwn, [data-foo]')).toBeNull();
    for (const el of container.querySelectorAll('[style]')) {
      expect(el.getAttribute('style')).not.toMatch(/position|inset/);
    }
    expect(container.textContent).toContain('\\href{javascript:alert(1)}{x}');
  });

  it('keeps ordinary Markdown: emphasis, lists, safe links, GFM tables and highlighted code', async () => {
    const { container } = render(
      <Markdown
        text={
          '**bold** and _it_\n\n- one\n- two\n\n[site](https://example.org)\n\n| h |\n|---|\n| c |\n\n```js\nconst a = 1;\n```'
        }
      />,
    );
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelectorAll('li')).toHaveLength(2);
    const a = container.querySelector('a');
    expect(a?.getAttribute('href')).toBe('https://example.org');
    expect(a?.getAttribute('rel')).toContain('noopener');
    expect(container.querySelector('table')).not.toBeNull();
    // highlight.js is loaded on demand: the code is highlighted once its grammar arrives.
    await waitFor(() => expect(container.querySelector('code.hljs .hljs-keyword')?.textContent).toBe('const'));
  });

  it('does not highlight while streaming (plain code)', () => {
    const { container } = render(<Markdown text={'```js\nconst a = 1;\n```'} highlight={false} />);
    expect(container.querySelector('.hljs-keyword')).toBeNull();
    expect(container.querySelector('pre')?.textContent).toContain('const a = 1;');
  });
});

const tex = (root: Element) =>
  [...root.querySelectorAll('.katex')].map((k) => [
    k.querySelector('annotation')?.textContent?.trim(),
    k.closest('.katex-display') ? 'display' : 'inline',
  ]);

describe('math', () => {
  it('typesets $…$ and \\(…\\) inline, $$…$$ and \\[…\\] as display', () => {
    const { container } = render(
      <Markdown text={'Area $A = \\pi r^2$ and \\(e^{i\\pi}\\).\n\n$$\n\\int_0^1 x\\,dx\n$$\n\n\\[\n\\sum_n a_n\n\\]\n\nAlso $$x$$ in a line.'} />,
    );
    expect(tex(container)).toEqual([
      ['A = \\pi r^2', 'inline'],
      ['e^{i\\pi}', 'inline'],
      ['\\int_0^1 x\\,dx', 'display'],
      ['\\sum_n a_n', 'display'],
      ['x', 'display'],
    ]);
    expect(container.querySelector('.katex-error')).toBeNull();
  });

  it('reads the TeX before Markdown does: * _ and \\\\ inside math are TeX, \\$ outside is a dollar', () => {
    const { container } = render(<Markdown text={'$a*b$ and $c*d$, $x_1 + y_1$, $$\\begin{matrix}a \\\\ b\\end{matrix}$$ cost \\$3'} />);
    expect(container.querySelector('em, strong')).toBeNull();
    expect(tex(container).map(([t]) => t)).toEqual(['a*b', 'c*d', 'x_1 + y_1', '\\begin{matrix}a \\\\ b\\end{matrix}']);
    expect(container.textContent).toContain('cost $3');
  });

  it.each([
    '$5 and $10',
    'from $5-$10 a month',
    'It costs $5, or $6 with tax.',
    'a lone $ sign',
    '$ x $ with spaces inside',
    'empty $$$$ and \\(\\)',
  ])('leaves %j as text', (text) => {
    const { container } = render(<Markdown text={text} />);
    expect(container.querySelector('.katex')).toBeNull();
    expect(container.textContent).toBe(text.replace(/\\([()])/g, '$1'));
  });

  it('keeps math in code spans and code blocks as code', () => {
    const { container } = render(<Markdown text={'`$x^2$` and `\\(y\\)`\n\n```\n$$\\int$$\n```'} highlight={false} />);
    expect(container.querySelector('.katex')).toBeNull();
    expect([...container.querySelectorAll('code')].map((c) => c.textContent)).toEqual(['$x^2$', '\\(y\\)', '$$\\int$$\n']);
  });

  it('shows an unclosed formula as text while it streams, and typesets it once closed', () => {
    const { container, rerender } = render(<Markdown text={'Sum: $$\n\\sum_{i=1}^n'} highlight={false} />);
    expect(container.querySelector('.katex')).toBeNull();
    expect(container.textContent).toContain('$$');
    rerender(<Markdown text={'Sum: $$\n\\sum_{i=1}^n i\n$$ and \\(x'} highlight={false} />);
    expect(tex(container)).toEqual([['\\sum_{i=1}^n i', 'display']]);
    expect(container.textContent).toContain('and (x'); // an unclosed \( is an escaped parenthesis
  });

  it('stops macro-expansion bombs with an error instead of hanging', () => {
    const { container } = render(
      <Markdown
        text={[
          '$\\def\\a{\\a\\a}\\a$',
          '$$\\def\\b{xxxxxxxx}\\def\\c{\\b\\b\\b\\b\\b\\b\\b\\b}\\def\\d{\\c\\c\\c\\c\\c\\c\\c\\c}\\d\\d\\d\\d\\d\\d\\d\\d$$',
        ].join('\n\n')}
      />,
    );
    const errors = container.querySelectorAll('.katex-error');
    expect(errors).toHaveLength(2);
    expect(errors[0]?.getAttribute('title')).toMatch(/Too many expansions/);
  });
});

describe('mermaid', () => {
  it('is not loaded for a chat without diagrams, nor for a diagram still streaming', () => {
    const { container } = render(<Markdown text={'```mermaid\nflowchart LR\n  A --> B'} highlight={false} />);
    expect(container.querySelector('pre code.language-mermaid')?.textContent).toBe('flowchart LR\n  A --> B');
    expect(container.querySelector('.md-mermaid, .md-mermaid-error')).toBeNull();
    // This test runs first: nothing rendered so far asked for mermaid.
    expect(mermaidRequested()).toBe(false);
  });

  it('shows the source and the reason when a diagram does not parse', async () => {
    const { container } = render(<Markdown text={'```mermaid\ngraph TD; A-->\n```'} />);
    const note = await waitFor(() => {
      const n = container.querySelector('.md-mermaid-error');
      expect(n).not.toBeNull();
      return n!;
    });
    expect(mermaidRequested()).toBe(true);
    expect(note.textContent).toMatch(/^Diagram could not be rendered: Parse error on line \d+: unexpected end of the diagram$/);
    expect(container.querySelector('pre code.language-mermaid')?.textContent).toBe('graph TD; A-->');
  });

  it('keeps a hostile diagram inert (jsdom cannot lay it out: mermaid gives up and the source shows)', async () => {
    const src = [
      '%%{init: {"securityLevel": "loose"}}%%',
      'flowchart TD',
      '  A["<img src=x onerror=alert(1)>"] --> B["<script>alert(2)</script>"]',
      '  click A call alert()',
      '  click B href "javascript:alert(3)"',
    ].join('\n');
    const { container } = render(<Markdown text={'```mermaid\n' + src + '\n```'} />);
    await waitFor(() => expect(container.querySelector('.md-mermaid-error, .md-mermaid')).not.toBeNull());
    expect(container.querySelector('pre code.language-mermaid')?.textContent).toBe(src);
    // Nothing active anywhere in the page, and mermaid's scratch element is gone.
    for (const el of document.body.querySelectorAll('*')) {
      expect(['SCRIPT', 'IMG', 'IFRAME']).not.toContain(el.tagName.toUpperCase());
      for (const attr of el.getAttributeNames()) expect(attr.startsWith('on'), `${el.tagName}[${attr}]`).toBe(false);
    }
    expect(document.body.querySelector('[id^="djuncture-mermaid"], [id^="juncture-mermaid"]')).toBeNull();
  });

  it('strips what could act from an SVG before it is shown', () => {
    const svg = inertSvg(
      '<svg onload="alert(1)"><script>alert(2)</script><style>#m{fill:red}</style>' +
        '<a href="javascript:alert(3)"><text>link</text></a>' +
        '<set attributeName="href" to="javascript:alert(4)"/><use href="https://evil.example/x.svg#a"/>' +
        '<use href="#m"/><foreignObject><div><img src=x onerror="alert(5)">label</div></foreignObject></svg>',
    )!;
    const all = [svg, ...svg.querySelectorAll('*')];
    expect(all.map((el) => el.localName)).toEqual(['svg', 'style', 'text', 'use', 'use', 'foreignObject', 'div']);
    expect(all.flatMap((el) => el.getAttributeNames().filter((a) => a.startsWith('on')))).toEqual([]);
    expect([...svg.querySelectorAll('use')].map((u) => u.getAttribute('href'))).toEqual([null, '#m']);
    expect(svg.textContent).toBe('#m{fill:red}linklabel');
  });

  it.each([
    ['```mermaid\nA-->B\n```', true],
    ['```mermaid\nA-->B\n', false],
    ['```mermaid\nA-->B', false],
    ['````mermaid\nA-->B\n```', false],
    ['~~~mermaid\nA-->B\n~~~~', true],
    ['> ```mermaid\n> A-->B\n> ```', true],
  ])('fenceClosed(%j) is %s', (block, closed) => {
    expect(fenceClosed(block)).toBe(closed);
  });
});

describe('safeUrl', () => {
  it.each([
    ['https://example.org/a?b#c', 'https://example.org/a?b#c'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['mailto:ada@example.org', 'mailto:ada@example.org'],
    ['#user-content-fn-1', '#user-content-fn-1'],
    ['javascript:alert(1)', ''],
    [' JAVASCRIPT:alert(1)', ''],
    ['java\nscript:alert(1)', ''],
    ['\u0001javascript:alert(1)', ''],
    ['data:text/html,<b>x</b>', ''],
    ['vbscript:x', ''],
    ['file:///etc/passwd', ''],
    ['/api/call/DeleteThread', ''],
    ['relative/path', ''],
  ])('%j → %j', (input, out) => {
    expect(safeUrl(input)).toBe(out);
  });
});

describe('Markdown links', () => {
  it("follows a footnote within its own answer and leaves the page's address alone", () => {
    const text = 'See[^1].\n\n[^1]: the note';
    const { container } = render(
      <div>
        <Markdown text={text} highlight={false} />
        <Markdown text={text} highlight={false} />
      </div>,
    );
    const answers = container.querySelectorAll('.md');
    const ref = answers[1]!.querySelector<HTMLAnchorElement>('a[href^="#"]')!;
    const scrolled: Element[] = [];
    const spy = vi.fn(function (this: Element) {
      scrolled.push(this);
    });
    const had = Element.prototype.scrollIntoView; // jsdom has none
    Element.prototype.scrollIntoView = spy;
    const before = window.location.href;
    try {
      ref.click();
    } finally {
      Element.prototype.scrollIntoView = had;
    }
    expect(window.location.href).toBe(before);
    expect(scrolled).toHaveLength(1);
    expect(answers[1]!.contains(scrolled[0]!)).toBe(true);
    expect(scrolled[0]!.id).toBe(ref.getAttribute('href')!.slice(1));
  });
});

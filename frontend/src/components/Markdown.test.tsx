import { describe, expect, it } from 'vitest';
import { render, waitFor } from '@testing-library/react';
import { Markdown } from './Markdown';
import { safeUrl } from '../lib/safeUrl';

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
].join('\n\n');

function allElements(root: HTMLElement): Element[] {
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

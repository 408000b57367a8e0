import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/preact';
import { Markdown } from './Markdown';
import { streamAsWhole, wholeHTML } from './testing';

// Markdown keeps the elements of the finished blocks of a streaming answer
// (the ones whose start and end did not move). Text that could change an
// earlier block once more of it arrives — a setext underline, a lazy
// continuation, a list turning loose, a definition, raw HTML that spans
// blank lines, a fence or formula left open — streamed a character at a
// time, renders at every prefix as the whole text does.
const TRICKY: Record<string, string> = {
  'setext underline and lazy continuation': 'Title\n\npara\n===\n\n> quote\nlazy line\n\nnext\n---\n\nafter\n',
  'a list that turns loose': '- a\n- b\n\n- c\n\npara\n\n1. x\n\n   continued\n2. y\n',
  'a definition at the end': '[ref][r] and [^1]\n\nmiddle\n\n[r]: https://e.x/r\n[^1]: note\n',
  'raw HTML over blank lines': '<pre>\n\n*not em*\n\n</pre>\n\n<div>\n\n*em*\n\n</div>\n\n<script>alert(1)</script>\n\nend\n',
  'fences and formulas left open, then closed': 'a\n\n```js\nx\n\n\ny\n```\n\n$$\n\\frac12\n\n$$\n\n~~~\nopen',
  'javascript: links and deep quotes': '[x](javascript:alert(1))\n\n' + '>'.repeat(40) + ' deep\n\n<a href="javascript:alert(2)">y</a>\n',
};

describe('Markdown reusing finished blocks', () => {
  for (const [name, text] of Object.entries(TRICKY)) {
    it(`renders ${name} as the whole render at every prefix`, () => {
      const view = streamAsWhole(text);
      expect(view.container.querySelector('script,a[href^="javascript"]')).toBeNull();
      view.unmount();
    });
  }

  it('renders an edited answer (not an extension of the last) afresh', () => {
    const view = render(<Markdown text={'one\n\ntwo\n\nthree'} highlight={false} />);
    for (const t of ['one\n\nTWO\n\nthree', 'one\n\n', 'other\n\ntwo\n\nthree\n\nfour']) {
      view.rerender(<Markdown text={t} highlight={false} />);
      expect(view.container.innerHTML, t).toBe(wholeHTML(t));
    }
    view.unmount();
  });
});

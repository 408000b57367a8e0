import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'preact-render-to-string';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { ComponentPropsWithoutRef } from 'react';
import { remarkMath } from '../../../lib/mathSyntax';
import { remarkFenceState } from '../../../lib/mermaid';
import { safeUrl } from '../../../lib/safeUrl';
import { rehypeLazyHighlight } from '../../../lib/highlight';
import { tokenText } from '../../../../../bench/mdfake.mjs';
import { renderMarkdown } from './render';

// renderMarkdown (a processor built once) gives the elements react-markdown
// gives, with the same plugins, components and options: on the bench's
// stream at many prefixes, on HTML, URLs, math, tables and fences.

const remarkPlugins = [remarkGfm, remarkMath, remarkFenceState];
const urlTransform = (u: string) => safeUrl(u);
const components: Components = {
  a: ({ node, ...p }) => <a data-node={node?.tagName} {...p} />,
  pre: ({ node: _node, ...p }: ComponentPropsWithoutRef<'pre'> & { node?: unknown }) => <pre className="x" {...p} />,
  span: ({ node, ...p }) => <span data-math={String(node?.properties.dataMath ?? '')} {...p} />,
};

function viaReactMarkdown(text: string, highlight: boolean): string {
  return renderToStaticMarkup(
    <ReactMarkdown
      remarkPlugins={remarkPlugins}
      rehypePlugins={highlight ? [[rehypeLazyHighlight, { missing: new Set<string>() }]] : []}
      urlTransform={urlTransform}
      components={components}
      skipHtml={false}
    >
      {text}
    </ReactMarkdown>,
  );
}

function viaRender(text: string, highlight: boolean): string {
  return renderToStaticMarkup(
    <>
      {renderMarkdown(text, {
        remarkPlugins,
        rehypePlugins: highlight ? [[rehypeLazyHighlight, { missing: new Set<string>() }]] : undefined,
        urlTransform,
        components,
        skipHtml: false,
      })}
    </>,
  );
}

const SAMPLES = [
  '',
  'plain words',
  '<b>raw</b> and <script>alert(1)</script>\n\n<div>\n\nblock html\n</div>\n',
  '[ok](https://e.x/a) [bad](javascript:alert(1)) ![img](http://e.x/i.png) <https://e.x/auto>\n',
  '[ref][r]\n\n[r]: https://e.x/r "t"\n',
  'Inline $x^2$ and \\(a+b\\).\n\n$$\n\\frac{1}{2}\n$$\n',
  '| a | b |\n| --- | :-: |\n| 1 | `x` |\n',
  '```go\nfunc f() {}\n```\n\n```mermaid\ngraph TD\n```\n\n```\nopen',
  '- [ ] task\n- [x] done\n\n1. one\n2. two\n\n> quote\n\n---\n\n~~del~~ www.e.x footnote[^1]\n\n[^1]: note\n',
];

describe('renderMarkdown', () => {
  it('gives react-markdown’s elements on the bench stream, at many prefixes', () => {
    let text = '';
    for (let i = 0; i < 1500; i++) {
      text += tokenText(i);
      if (i % 37 === 0 || i === 1499) expect(viaRender(text, false), `prefix ${JSON.stringify(text.slice(-40))}`).toBe(viaReactMarkdown(text, false));
    }
    expect(viaRender(text, true)).toBe(viaReactMarkdown(text, true));
  }, 120_000);

  it('gives react-markdown’s elements on HTML, URLs, definitions, math, tables and fences', () => {
    for (const s of SAMPLES) {
      expect(viaRender(s, false), s).toBe(viaReactMarkdown(s, false));
      expect(viaRender(s, true), s).toBe(viaReactMarkdown(s, true));
    }
  });

  it('renders the same text twice the same (the shared processor keeps no state between parses)', () => {
    for (const s of SAMPLES) expect(viaRender(s, false)).toBe(viaRender(s, false));
  });
});

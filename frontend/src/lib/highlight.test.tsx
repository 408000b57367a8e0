import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'preact-render-to-string';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import rehypeHighlight from 'rehype-highlight';
import { common } from 'lowlight';
import hljs from 'highlight.js/lib/core';
import { LANGUAGES } from './highlightLanguages';
import { ensureLanguages, highlighterLoaded, rehypeLazyHighlight } from './highlight';

// The reference: what Markdown.tsx rendered before highlighting was lazy.
function eager(md: string): string {
  return renderToStaticMarkup(
    <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[[rehypeHighlight, { detect: false }]]}>
      {md}
    </ReactMarkdown>,
  );
}

function lazy(md: string, missing = new Set<string>()): string {
  return renderToStaticMarkup(
    <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[[rehypeLazyHighlight, { missing }]]}>
      {md}
    </ReactMarkdown>,
  );
}

const SNIPPET = [
  '<!doctype html><div class="a" id=\'b\'>&amp; text</div>',
  '<script>const a = `x${1}`; function f(b) { return b ?? null; }</script>',
  '<style>a:hover { color: #f00; margin: 0 auto !important; }</style>',
  'def f(x: int) -> str:  # comment',
  '    return "s" if x else None',
  'SELECT * FROM t WHERE id = 1;',
  '$ ls -la | grep "x" && echo $HOME',
  '>>> print(1)',
  'key: value',
  '  - item: <%= ruby %>',
  'fn main() { let v: Vec<u8> = vec![1, 2]; println!("{}", v.len()); }',
  '@media (max-width: 1px) { .x { y: z } }',
  '+ added',
  '- removed',
  '/* block */ int main(void) { return 0; }',
].join('\n');

const allNames = Object.entries(LANGUAGES).flatMap(([n, e]) => [n, ...e.aliases]);

function subLanguages(def: unknown): Set<string> {
  const out = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (v: unknown) => {
    if (!v || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      v.forEach(walk);
      return;
    }
    for (const [k, x] of Object.entries(v)) {
      if (k === 'subLanguage') for (const s of [x].flat()) if (typeof s === 'string' && s in common) out.add(s);
      walk(x);
    }
  };
  walk(def);
  return out;
}

describe('lazy highlighting', () => {
  it('renders plain and reports the missing grammar before anything is loaded', () => {
    expect(highlighterLoaded()).toBe(false);
    const missing = new Set<string>();
    const html = lazy('```js\nconst a = 1;\n```\n\n```\nno language\n```', missing);
    expect([...missing]).toEqual(['js']);
    expect(html).not.toContain('hljs');
    expect(html).toContain('const a = 1;');
  });

  it('lists exactly lowlight\'s common grammars, with their aliases and embedded grammars', () => {
    expect(Object.keys(LANGUAGES).sort()).toEqual(Object.keys(common).sort());
    for (const [name, fn] of Object.entries(common)) {
      const def = fn(hljs);
      expect([...(LANGUAGES[name]?.aliases ?? [])], name).toEqual(def.aliases ?? []);
      const uses = [...subLanguages(def)].filter((s) => s !== name).sort();
      expect([...(LANGUAGES[name]?.uses ?? [])].sort(), name).toEqual(uses);
    }
  });

  it('highlights every grammar and alias exactly as rehype-highlight with the common grammars', async () => {
    for (const name of allNames) {
      // Each name alone, so a grammar that needs another one loaded with it is caught.
      await ensureLanguages([name]);
      const md = '```' + name + '\n' + SNIPPET + '\n```';
      const missing = new Set<string>();
      expect(lazy(md, missing), name).toBe(eager(md));
      expect([...missing], name).toEqual([]);
    }
    const mixed = [
      '```JS\nconst a = 1\n```',
      '```foo-unknown\nx = 1\n```',
      '```html\n' + SNIPPET + '\n```',
      '```md\n# t\n\n<b>x</b>\n```',
      '- list\n\n  ```python\n  def f(): pass\n  ```',
      '> ```ts\n> let x: number = 1\n> ```',
      '```\nplain\n```',
      'inline `code` here',
    ].join('\n\n');
    await ensureLanguages(['foo-unknown']);
    expect(lazy(mixed)).toBe(eager(mixed));
  });
});

import type { ReactNode } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import type { Components } from 'react-markdown';
import { unified, type PluggableList, type Processor } from 'unified';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import { urlAttributes } from 'html-url-attributes';
import { visit } from 'unist-util-visit';
import { VFile } from 'vfile';
import type { Nodes, Parents, Root } from 'hast';

// What react-markdown's <Markdown> does (remark-parse, the remark plugins,
// remark-rehype with raw HTML kept as nodes, the rehype plugins, then the
// hast made into React elements), with one difference: the processor
// without rehype plugins is built and frozen once. react-markdown builds a
// new unified processor on every render, and each one runs every plugin's
// attacher again (remark-gfm's makes its micromark and mdast extensions
// anew): for the streaming answer's last block that is every frame, and
// garbage the page's allocator gives back. render.test.tsx checks that the
// elements are the same as react-markdown's on random Markdown.

type AnyProcessor = Processor<any, any, any, any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const remarkRehypeOptions = { allowDangerousHtml: true };

function buildProcessor(remarkPlugins: PluggableList, rehypePlugins: PluggableList): AnyProcessor {
  return unified().use(remarkParse).use(remarkPlugins).use(remarkRehype, remarkRehypeOptions).use(rehypePlugins) as AnyProcessor;
}

const frozen = new WeakMap<PluggableList, AnyProcessor>();

/** The frozen processor for these remark plugins and no rehype plugin (the same list object: the same processor). */
function plainProcessor(remarkPlugins: PluggableList): AnyProcessor {
  let p = frozen.get(remarkPlugins);
  if (!p) {
    p = buildProcessor(remarkPlugins, []).freeze() as AnyProcessor;
    frozen.set(remarkPlugins, p);
  }
  return p;
}

export interface RenderOptions {
  remarkPlugins: PluggableList;
  /** Rehype plugins (their options may change per render): a processor of their own is built. */
  rehypePlugins?: PluggableList;
  components: Components;
  urlTransform: (url: string, key: string, node: unknown) => string;
  skipHtml?: boolean;
}

/** `text` as React elements, as react-markdown's <Markdown> gives them (with no allowed/disallowed elements). */
export function renderMarkdown(text: string, o: RenderOptions): ReactNode {
  const processor = o.rehypePlugins?.length ? buildProcessor(o.remarkPlugins, o.rehypePlugins) : plainProcessor(o.remarkPlugins);
  const file = new VFile();
  file.value = text;
  const tree = processor.runSync(processor.parse(file), file) as Root;
  return post(tree, o);
}

/** react-markdown's post(): raw HTML as text (or dropped), URLs through urlTransform, then JSX. */
function post(tree: Root, o: RenderOptions): ReactNode {
  visit(tree, (node: Nodes, index: number | undefined, parent: Parents | undefined) => {
    if (node.type === 'raw' && parent && typeof index === 'number') {
      if (o.skipHtml) parent.children.splice(index, 1);
      else parent.children[index] = { type: 'text', value: node.value };
      return index;
    }
    if (node.type === 'element') {
      for (const key in urlAttributes) {
        if (Object.hasOwn(urlAttributes, key) && Object.hasOwn(node.properties, key)) {
          const test = urlAttributes[key];
          if (test === null || test === undefined || test.includes(node.tagName)) {
            node.properties[key] = o.urlTransform(String(node.properties[key] || ''), key, node);
          }
        }
      }
    }
    return undefined;
  });
  return toJsxRuntime(tree, {
    Fragment,
    components: o.components,
    ignoreInvalidStyle: true,
    jsx,
    jsxs,
    passKeys: true,
    passNode: true,
  });
}

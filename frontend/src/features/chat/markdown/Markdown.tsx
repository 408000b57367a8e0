import { memo, useContext, useEffect, useReducer, useRef, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { useDeferredValue } from '../../../lib/useDeferredValue';
import type { Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { Element, ElementContent } from 'hast';
import { ensureLanguages, rehypeLazyHighlight, type LazyHighlightOptions } from '../../../lib/highlight';
import { remarkMath } from '../../../lib/mathSyntax';
import { remarkFenceState } from '../../../lib/mermaid';
import { safeUrl } from '../../../lib/safeUrl';
import { TransportContext } from '../../../transport';
import { webOpenExternal } from '../../../transport/platform';
import { CodeBlock } from './CodeBlock';
import { MathText } from './MathText';
import { MermaidBlock } from './MermaidBlock';
import { blockText, openFenceBlock, splitBlocks, type Split } from './blocks';
import { renderMarkdown } from './render';
import { mayUseExtensions } from './syntax';
import './Markdown.css';

// Model output is rendered through mdast → hast → React elements. There is
// no rehype-raw: raw HTML in the text is shown as text, never parsed, and
// nothing here uses innerHTML. Highlighting (lowlight) produces hast nodes.
// highlight.js is loaded on demand (lib/highlight.ts): a code block whose
// grammar is not loaded yet renders plain, as while streaming, and is
// highlighted on the render after its grammar arrives.
//
// Math ($…$, \(…\), $$…$$, \[…\]; lib/mathSyntax.ts) is typeset by KaTeX
// (MathText); ```mermaid blocks are drawn by mermaid, loaded on first use
// (MermaidBlock, lib/mermaid.ts). Both build DOM through refs, never from
// the model's text as HTML.

const remarkPlugins = [remarkGfm, remarkMath, remarkFenceState];
// A block in which no extension's syntax can start is parsed without them (syntax.ts).
const plainRemarkPlugins = [remarkFenceState];

function urlTransform(url: string): string {
  return safeUrl(url);
}

/**
 * An in-page link the model wrote (a GFM footnote and its way back) scrolls
 * to its target in the same answer and leaves the address alone. Followed,
 * it set the page's #fragment to whatever the model wrote: `#token=…`
 * made the page load again with that token (TokenGate takes a new link
 * pasted into the address bar), be refused, and forget the person's own.
 * Every answer numbers its footnotes from 1: the target is looked up in
 * the link's own answer, not the first in the page.
 */
function jumpInAnswer(e: { preventDefault(): void; currentTarget: EventTarget | null }) {
  e.preventDefault();
  const a = e.currentTarget as HTMLAnchorElement | null;
  const raw = a?.getAttribute('href')?.slice(1) ?? '';
  let id = raw;
  try {
    id = decodeURIComponent(raw);
  } catch {
    // a malformed escape: look the text up as written
  }
  if (!a || !id) return;
  const scope = a.closest('.md') ?? a.ownerDocument;
  const target = [...scope.querySelectorAll('[id]')].find((el) => el.id === id);
  target?.scrollIntoView?.({ block: 'nearest' });
}

function Link({ href, children }: { href?: string; children?: ReactNode }) {
  const transport = useContext(TransportContext);
  if (!href) return <span className="md-deadlink">{children}</span>;
  if (href.startsWith('#')) return <a href={href} onClick={jumpInAnswer}>{children}</a>;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      title={href}
      onClick={(e) => {
        // Never navigate the app window itself (the desktop webview would leave Juncture).
        e.preventDefault();
        if (transport) transport.openExternal(href);
        else webOpenExternal(href);
      }}
    >
      {children}
    </a>
  );
}

/** Images from the model are not loaded (offline app; no tracking pixels): shown as a link. */
function Image({ src, alt }: ComponentPropsWithoutRef<'img'>) {
  const label = `Image: ${alt || 'untitled'}`;
  const url = typeof src === 'string' ? src : '';
  return url ? (
    <Link href={url}>
      <span className="md-image">{label}</span>
    </Link>
  ) : (
    <span className="md-image">{label}</span>
  );
}

function Table({ children }: ComponentPropsWithoutRef<'table'>) {
  return (
    <div className="md-table">
      <table>{children}</table>
    </div>
  );
}

function textOf(node: Element | ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

/** The <code> of a ```mermaid block (marked by remarkFenceState), if this <pre> is one. */
function mermaidCode(pre: Element | undefined): Element | undefined {
  const code = pre?.children[0];
  return code?.type === 'element' && typeof code.properties.dataFence === 'string' ? code : undefined;
}

const components: Components = {
  a: ({ href, children }) => <Link href={typeof href === 'string' ? href : undefined}>{children}</Link>,
  img: ({ node: _node, ...p }) => <Image {...p} />,
  pre: ({ node, ...p }) => {
    const mermaid = mermaidCode(node);
    if (mermaid) return <MermaidBlock source={textOf(mermaid).replace(/\n$/, '')} closed={mermaid.properties.dataFence === 'closed'} />;
    return <CodeBlock {...p} />;
  },
  span: ({ node, ...p }) => {
    const kind = node?.properties.dataMath;
    if (node && (kind === 'inline' || kind === 'display')) return <MathText tex={textOf(node)} display={kind === 'display'} />;
    return <span {...p} />;
  },
  table: ({ node: _node, ...p }) => <Table {...p} />,
};

export interface MarkdownProps {
  text: string;
  /** Syntax highlighting is skipped while a message streams (it re-renders every frame). */
  highlight?: boolean;
}

/**
 * One block of Markdown (or a whole text). Memoized: while an answer
 * streams, the blocks before the last keep their text and are not parsed
 * or rendered again.
 */
const Block = memo(function Block({ text, highlight = true }: MarkdownProps): ReactNode {
  // The streaming answer's open code block (most of a long answer's frames)
  // is shown without parsing it: the same elements the parser would give.
  const fence = highlight ? null : openFenceBlock(text);
  if (fence) return <OpenFenceBlock {...fence} />;
  return <ParsedBlock text={text} highlight={highlight} />;
});

function OpenFenceBlock({ lang, code }: { lang: string; code: string }): ReactNode {
  return (
    <CodeBlock>
      <code className={lang ? `language-${lang}` : undefined}>{code}</code>
    </CodeBlock>
  );
}

function ParsedBlock({ text, highlight }: { text: string; highlight: boolean }): ReactNode {
  const [, loaded] = useReducer((n: number, _: void) => n + 1, 0);
  const opts = useRef<LazyHighlightOptions>({ missing: new Set() }).current;
  opts.missing.clear(); // refilled by the plugin while ReactMarkdown renders below
  useEffect(() => {
    if (!highlight || opts.missing.size === 0) return;
    let live = true;
    ensureLanguages([...opts.missing]).then(
      () => live && loaded(),
      () => {}, // the chunk did not load: the code stays plain
    );
    return () => {
      live = false;
    };
  });
  // react-markdown's rendering with its processor built once (render.ts).
  return renderMarkdown(text, {
    remarkPlugins: mayUseExtensions(text) ? remarkPlugins : plainRemarkPlugins,
    rehypePlugins: highlight ? [[rehypeLazyHighlight, opts]] : undefined,
    urlTransform,
    components,
    skipHtml: false,
  });
}

/**
 * A message's Markdown. A text that has streamed (rendered once with
 * highlight off) is cut into its top-level blocks (blocks.ts) and each is
 * rendered on its own, so a new token re-parses only the last block; a
 * stored message, shown finished at once, is rendered whole (cutting it
 * would cost a parse more). Both give the same DOM (blocks.test.tsx).
 */
/** The whole text through one parse (the reference the block rendering is tested against). */
export function MarkdownWhole({ text, highlight = true }: MarkdownProps): ReactNode {
  return (
    <div className="md">
      <Block text={text} highlight={highlight} />
    </div>
  );
}

/** The text may hold a fenced code block (``` or ~~~, at any depth: in a list, a quote). */
function hasFence(text: string): boolean {
  return text.includes('```') || text.includes('~~~');
}

/** The elements made for a split (Markdown reuses the finished blocks' ones). */
interface Made {
  split: Split;
  highlight: boolean;
  els: ReactNode[];
}

export const Markdown = memo(function Markdown({ text, highlight: want = true }: MarkdownProps): ReactNode {
  // Highlighting a finished answer re-renders every block: it is a deferred
  // render after the frame that shows the run ended (Stop paints at once).
  const highlight = useDeferredValue(want);
  const split = useRef<Split | null>(null);
  const made = useRef<Made | null>(null);
  if (!highlight || split.current) split.current = splitBlocks(text, split.current ?? undefined);
  const s = split.current;
  const prev = made.current;
  // The finished blocks of the text this one appends to keep their
  // elements (not sliced, created and compared again every frame).
  const reuse = s !== null && prev !== null && prev.highlight === highlight && s.text.startsWith(prev.split.text);
  const blocks = s ? s.starts.length : 1;
  const out: ReactNode[] = [];
  const els: ReactNode[] = [];
  for (let i = 0; i < blocks; i++) {
    // the newline hast puts between top-level elements of a whole render
    if (i > 0) out.push('\n');
    let el: ReactNode;
    if (reuse && i + 1 < blocks && prev.split.starts[i] === s.starts[i] && prev.split.starts[i + 1] === s.starts[i + 1]) el = prev.els[i];
    else {
      const t = s ? blockText(s, i) : text;
      // Only a fence can be highlighted: a block without one renders the
      // same either way, so the end of an answer leaves it alone (no parse).
      el = <Block key={i} text={t} highlight={highlight && hasFence(t)} />;
    }
    els.push(el);
    out.push(el);
  }
  made.current = s ? { split: s, highlight, els } : null;
  return <div className="md">{out}</div>;
});

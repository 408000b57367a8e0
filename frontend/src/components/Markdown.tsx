import { memo, useContext, useEffect, useReducer, useRef, useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { ensureLanguages, rehypeLazyHighlight, type LazyHighlightOptions } from '../lib/highlight';
import { safeUrl } from '../lib/safeUrl';
import { TransportContext } from '../transport';
import { webCopyText, webOpenExternal } from '../transport/platform';
import './Markdown.css';

// Model output is rendered through mdast → hast → React elements. There is
// no rehype-raw: raw HTML in the text is shown as text, never parsed, and
// nothing here uses innerHTML. Highlighting (lowlight) produces hast nodes.
// highlight.js is loaded on demand (lib/highlight.ts): a code block whose
// grammar is not loaded yet renders plain, as while streaming, and is
// highlighted on the render after its grammar arrives.

const remarkPlugins = [remarkGfm];
const noPlugins: [] = [];

function urlTransform(url: string): string {
  return safeUrl(url);
}

function Link({ href, children }: ComponentPropsWithoutRef<'a'>) {
  const transport = useContext(TransportContext);
  if (!href) return <span className="md-deadlink">{children}</span>;
  if (href.startsWith('#')) return <a href={href}>{children}</a>;
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

function CodeBlock({ children, ...rest }: ComponentPropsWithoutRef<'pre'>) {
  const ref = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  const transport = useContext(TransportContext);
  let lang = '';
  const child = Array.isArray(children) ? children[0] : children;
  if (child && typeof child === 'object' && 'props' in child) {
    const cls = (child.props as { className?: unknown }).className;
    const m = typeof cls === 'string' ? /language-([\w+#.-]+)/.exec(cls) : null;
    if (m) lang = m[1]!;
  }
  const copy = async () => {
    const text = ref.current?.textContent ?? '';
    try {
      await (transport ? transport.copyText(text) : webCopyText(text));
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="md-code">
      <div className="md-code-bar">
        <span>{lang || 'text'}</span>
        <button type="button" className="md-code-copy" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre ref={ref} {...rest}>
        {children}
      </pre>
    </div>
  );
}

function Table({ children }: ComponentPropsWithoutRef<'table'>) {
  return (
    <div className="md-table">
      <table>{children}</table>
    </div>
  );
}

const components: Components = {
  a: ({ node: _node, ...p }) => <Link {...p} />,
  img: ({ node: _node, ...p }) => <Image {...p} />,
  pre: ({ node: _node, ...p }) => <CodeBlock {...p} />,
  table: ({ node: _node, ...p }) => <Table {...p} />,
};

export interface MarkdownProps {
  text: string;
  /** Syntax highlighting is skipped while a message streams (it re-renders every frame). */
  highlight?: boolean;
}

export const Markdown = memo(function Markdown({ text, highlight = true }: MarkdownProps): ReactNode {
  const [, loaded] = useReducer((n: number) => n + 1, 0);
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
  return (
    <div className="md">
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={highlight ? [[rehypeLazyHighlight, opts]] : noPlugins}
        urlTransform={urlTransform}
        components={components}
        skipHtml={false}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});

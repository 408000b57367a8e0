import { memo, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { cachedMermaid, isDarkTheme, renderMermaid, subscribeTheme, type MermaidResult } from '../../../lib/mermaid';
import { CodeBlock } from './CodeBlock';

// A block that has just closed is drawn after this pause: while a message
// streams the tree is rebuilt on every token, and a block that is re-keyed
// or replaced in the next frames is not drawn for nothing.
const SETTLE_MS = 150;

export interface MermaidBlockProps {
  source: string;
  /** The closing fence has arrived: the source is final. */
  closed: boolean;
}

/**
 * A ```mermaid block: the diagram once it is drawn; until then (loading,
 * streaming) the source as code; if mermaid cannot draw it, the source and
 * the reason.
 */
export const MermaidBlock = memo(function MermaidBlock({ source, closed }: MermaidBlockProps): ReactNode {
  const dark = useSyncExternalStore(subscribeTheme, isDarkTheme);
  const [drawn, setDrawn] = useState<{ source: string; dark: boolean; result: MermaidResult } | null>(null);
  const cached = closed ? cachedMermaid(source, dark) : undefined;
  useEffect(() => {
    if (!closed || cached) return;
    let live = true;
    const t = setTimeout(() => {
      void renderMermaid(source, dark).then((result) => {
        if (live) setDrawn({ source, dark, result });
      });
    }, SETTLE_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [source, dark, closed, cached]);
  const result = cached ?? (closed && drawn?.source === source && drawn.dark === dark ? drawn.result : undefined);
  if (result?.ok) return <Diagram svg={result.svg} />;
  return (
    <>
      <CodeBlock>
        <code className="language-mermaid">{source}</code>
      </CodeBlock>
      {result && (
        <p className="md-mermaid-error" role="note">
          Diagram could not be rendered: {result.error}
        </p>
      )}
    </>
  );
});

/** The sanitized SVG, copied into a shadow root (its <style> stays inside). */
function Diagram({ svg }: { svg: SVGSVGElement }): ReactNode {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const host = ref.current;
    if (!host) return;
    const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
    const copy = document.importNode(svg, true);
    // The page's CSS does not reach into the shadow root. mermaid sizes the
    // SVG to the column (width 100%, max-width its natural width): centre it.
    copy.style.display = 'block';
    copy.style.margin = '0 auto';
    root.replaceChildren(copy);
  }, [svg]);
  return <div ref={ref} className="md-mermaid" />;
}

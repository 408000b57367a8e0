import { memo, useLayoutEffect, useRef, type ReactNode } from 'react';
import katex, { type KatexOptions } from 'katex';
// Bundled by Vite with its fonts (hashed woff2 files beside the CSS: the
// page's CSP allows fonts from 'self' only, no CDN and no data: URLs).
import 'katex/dist/katex.min.css';

// Model text is not trusted: no \href, \url, \includegraphics, \htmlClass,
// \htmlStyle, \htmlId or \htmlData (trust: false renders them as error text),
// macro expansion is capped (a \def bomb stops with an error instead of
// hanging the page), and no size (\rule, \kern) may exceed a few lines.
const OPTIONS: KatexOptions = {
  throwOnError: false,
  trust: false,
  strict: 'ignore',
  maxExpand: 500,
  maxSize: 20,
  errorColor: 'var(--danger)',
  output: 'htmlAndMathml', // MathML for screen readers, HTML for the eyes
};

export interface MathTextProps {
  tex: string;
  display: boolean;
}

/**
 * One formula, typeset with KaTeX into the span by DOM calls (katex.render
 * builds elements; no HTML string is parsed). Memoized: while a message
 * streams, formulas already closed are not typeset again on every token.
 */
export const MathText = memo(function MathText({ tex, display }: MathTextProps): ReactNode {
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    try {
      katex.render(tex, el, { ...OPTIONS, displayMode: display });
    } catch {
      // Not a ParseError (those render in errorColor): show the source.
      el.textContent = tex;
    }
  }, [tex, display]);
  return <span ref={ref} className={display ? 'md-math md-math-display' : 'md-math'} />;
});

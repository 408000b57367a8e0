import { useContext, useRef, useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { TransportContext } from '../../../transport';
import { webCopyText } from '../../../transport/platform';

/** A fenced code block: its language and a Copy button above the code. */
export function CodeBlock({ children, ...rest }: ComponentPropsWithoutRef<'pre'>): ReactNode {
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

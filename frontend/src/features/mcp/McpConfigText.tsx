import { useEffect, useId, useRef, useState } from 'react';
import type { McpConfigError } from '../../transport/contract';

/** "line L, column C: message". */
export function configErrorText(e: McpConfigError): string {
  return `line ${e.line}, column ${e.column}: ${e.message}`;
}

/** The offset of a 1-based line and column in text (clamped to the text). */
export function offsetOf(text: string, line: number, column: number): number {
  let off = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', off);
    if (nl < 0) return text.length;
    off = nl + 1;
  }
  const end = text.indexOf('\n', off);
  const lineEnd = end < 0 ? text.length : end;
  return Math.min(off + Math.max(0, column - 1), lineEnd);
}

export interface McpConfigTextProps {
  /** The file as Go has it (secrets masked). */
  text: string;
  path: string;
  /** Where the file (or the last text sent) does not parse. */
  error: McpConfigError | null;
  busy: boolean;
  onSave: (text: string) => void;
  /** Undefined while the file is broken: the editor stays open until it parses. */
  onClose?: (() => void) | undefined;
}

/** The raw mcp.json editor: the way to fix a file that does not parse. */
export function McpConfigText({ text, path, error, busy, onSave, onClose }: McpConfigTextProps) {
  const id = useId();
  const [value, setValue] = useState(text);
  const ref = useRef<HTMLTextAreaElement>(null);

  // A new text from Go (after a save or a reload) replaces the draft.
  useEffect(() => setValue(text), [text]);

  // Move the caret to the error.
  useEffect(() => {
    const ta = ref.current;
    if (!ta || !error) return;
    const at = offsetOf(ta.value, error.line, error.column);
    ta.focus();
    ta.setSelectionRange(at, at);
  }, [error]);

  return (
    <div className="mcp-text">
      <label htmlFor={`${id}-ta`} className="mcp-text-label">
        {path ? <span className="mono">{path}</span> : 'mcp.json'}
      </label>
      <textarea
        id={`${id}-ta`}
        ref={ref}
        className="mono"
        rows={Math.min(24, Math.max(8, value.split('\n').length + 1))}
        spellcheck={false}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-help${error ? ` ${id}-err` : ''}`}
        onChange={(e) => setValue(e.currentTarget.value)}
      />
      {error && (
        <p className="set-error" id={`${id}-err`} role="alert">
          {configErrorText(error)}
        </p>
      )}
      <p className="set-help" id={`${id}-help`}>
        Secrets are shown as ••••; leave them as they are to keep the saved values. Nothing is written unless the text parses.
      </p>
      <div className="mcp-actions">
        <button type="button" className="btn primary" disabled={busy} onClick={() => onSave(value)}>
          {busy ? 'Saving…' : 'Save text'}
        </button>
        {onClose && (
          <button type="button" className="btn subtle" disabled={busy} onClick={onClose}>
            Close editor
          </button>
        )}
      </div>
    </div>
  );
}

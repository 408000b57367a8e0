import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import './MessageEditor.css';
import { AlertLine } from '../../ui/AlertLine';

// Editing a question in place: "Save & send" makes the edited text a new
// version of it (a sibling; EditMessage) and the model answers from there,
// reading nothing of the old version or its answer. Enter sends, Shift+Enter
// is a new line, Esc cancels.

export interface MessageEditorProps {
  initial: string;
  /** Sends the edited text; a rejection keeps the editor open with the error. */
  onSave: (text: string) => Promise<void>;
  onCancel: () => void;
}

export function MessageEditor({ initial, onSave, onCancel }: MessageEditorProps) {
  const [text, setText] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const trimmed = text.trim();
  const canSave = !busy && trimmed !== '' && trimmed !== initial.trim();

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, Math.round(window.innerHeight * 0.5))}px`;
  }, [text]);

  const save = async () => {
    if (!canSave) return;
    setBusy(true);
    setError(null);
    try {
      await onSave(trimmed);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void save();
    } else if (e.key === 'Escape') {
      // Esc closes the editor; it never reaches the window (which would stop a run).
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    }
  };

  return (
    <div className="msg-editor">
      <label className="visually-hidden" htmlFor={`${id}-text`}>
        Edit your message
      </label>
      <textarea
        id={`${id}-text`}
        ref={ref}
        rows={1}
        value={text}
        disabled={busy}
        aria-describedby={`${id}-hint`}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      <AlertLine className="msg-editor-error" text={error} />
      <div className="msg-editor-foot">
        <span className="msg-editor-hint" id={`${id}-hint`}>
          A new version: the old one and its answer stay one arrow away.
        </span>
        <button type="button" className="btn small subtle" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="button" className="btn small primary" onClick={() => void save()} disabled={!canSave}>
          Save &amp; send
        </button>
      </div>
    </div>
  );
}

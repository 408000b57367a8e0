import { useEffect, useId, useRef, useState } from 'react';
import { useAsyncAction } from '../../hooks/useAsyncAction';
import './InstructionsEditor.css';

export interface InstructionsEditorProps {
  /** The thread's instructions now. */
  initial: string;
  /** Saves (SetThreadOptions); rejects with the reason, and the text stays. */
  onSave: (text: string) => Promise<void>;
  onClose: () => void;
  /** A read-only copy of damaged data: the text is shown, never saved. */
  readOnly?: boolean | undefined;
}

/**
 * The thread's instructions: what the model reads first, after Juncture's
 * own text about its tools. Saving applies from the next answer; the
 * versions of the chat made before keep the instructions they ran with.
 */
export function InstructionsEditor({ initial, onSave, onClose, readOnly = false }: InstructionsEditorProps) {
  const id = useId();
  const [text, setText] = useState(initial);
  const save_ = useAsyncAction(async (t: string) => {
    await onSave(t);
    onClose();
  });
  const { busy: saving, error } = save_;
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const changed = text.trim() !== initial.trim();

  const save = async () => {
    if (!changed || readOnly) {
      onClose();
      return;
    }
    await save_.run(text.trim());
  };

  return (
    <div
      className="instr"
      role="dialog"
      aria-labelledby={`${id}-title`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          onClose();
        } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          void save();
        }
      }}
    >
      <label className="instr-title" id={`${id}-title`} htmlFor={`${id}-text`}>
        Instructions for this chat
      </label>
      <textarea
        id={`${id}-text`}
        ref={ref}
        rows={7}
        value={text}
        readOnly={readOnly}
        placeholder="For example: You are a patient tutor. Answer in short steps and ask before moving on."
        aria-describedby={`${id}-help`}
        onChange={(e) => setText(e.currentTarget.value)}
      />
      <p className="instr-help" id={`${id}-help`}>
        Applies from the next answer. Earlier versions of this chat (branches made before this change) keep the instructions they
        ran with. Juncture adds what the model needs to know about its tools.
      </p>
      {error && (
        <p className="instr-error" role="alert">
          Not saved: {error}
        </p>
      )}
      <div className="instr-actions">
        <button type="button" className="btn small" onClick={onClose}>
          {readOnly ? 'Close' : 'Cancel'}
        </button>
        {!readOnly && (
          <button type="button" className="btn small primary" onClick={() => void save()} disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        )}
      </div>
    </div>
  );
}

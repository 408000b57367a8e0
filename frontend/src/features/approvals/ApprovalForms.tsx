// The approval card's sub-forms: Always allow (which rule), Deny (with a
// reason) and Edit arguments. The card owns their drafts and focus.
import type { RefObject } from 'react';
import type { RememberScope } from '../../transport/contract';
import { closeOnEscape } from './cardKeys';

type FormRef = RefObject<(HTMLDivElement & HTMLFieldSetElement) | null>;

interface SubFormProps {
  /** The card's id, for its fields' ids. */
  id: string;
  formRef: FormRef;
  busy: boolean;
  onBack: () => void;
}

/** Always allow: the rule to remember, then the decision. */
export function AlwaysAllowForm({
  id,
  formRef,
  busy,
  onBack,
  rules,
  ruleIndex,
  onRule,
  label,
  mcp,
  onAllow,
}: SubFormProps & {
  rules: RememberScope[];
  ruleIndex: number;
  onRule: (i: number) => void;
  label: (r: RememberScope) => string;
  /** An MCP tool's choices all come from Go. */
  mcp: boolean;
  onAllow: () => void;
}) {
  return (
    <fieldset className="icard-sub" ref={formRef} onKeyDown={closeOnEscape(onBack)}>
      <legend>{mcp ? 'Remember this choice:' : 'Always allow without asking:'}</legend>
      {rules.map((r, i) => (
        <label key={i} className="icard-radio">
          <input type="radio" name={`${id}-rule`} checked={ruleIndex === i} onChange={() => onRule(i)} />
          {label(r)}
        </label>
      ))}
      <p className="icard-note">You can revoke this in Settings › Permissions.</p>
      <div className="icard-actions">
        <button type="button" className="btn primary" disabled={busy} onClick={onAllow}>
          Always allow
        </button>
        <button type="button" className="btn subtle" onClick={onBack}>
          Back
        </button>
      </div>
    </fieldset>
  );
}

/** Deny, with an optional reason (sent only when the request has a place for one). */
export function DenyForm({
  id,
  formRef,
  busy,
  onBack,
  reason,
  onReason,
  hasReasonField,
  onDeny,
}: SubFormProps & { reason: string; onReason: (r: string) => void; hasReasonField: boolean; onDeny: () => void }) {
  return (
    <div className="icard-sub" ref={formRef} onKeyDown={closeOnEscape(onBack)}>
      <label htmlFor={`${id}-reason`} className="icard-sub-label">
        Reason (optional){hasReasonField ? ' — the model will see it' : ''}
      </label>
      <input
        id={`${id}-reason`}
        type="text"
        value={reason}
        onChange={(e) => onReason(e.target.value)}
        onKeyDown={(e) => {
          // Enter denies, with the reason typed so far.
          if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
            e.preventDefault();
            if (!busy) onDeny();
          }
        }}
        placeholder="e.g. use the staging folder instead"
      />
      {!hasReasonField && reason.trim() && <p className="icard-note">This request has no place for a reason; only the denial is sent.</p>}
      <div className="icard-actions">
        <button type="button" className="btn danger" disabled={busy} onClick={onDeny}>
          Deny
        </button>
        <button type="button" className="btn subtle" onClick={onBack}>
          Back
        </button>
      </div>
    </div>
  );
}

/** Edit arguments: a JSON editor that stays open until Go accepts what it sends. */
export function EditArgsForm({
  id,
  formRef,
  busy,
  onBack,
  editorRef,
  edited,
  original,
  onEdit,
  onUndo,
  problem,
  onSubmit,
}: SubFormProps & {
  editorRef: RefObject<HTMLTextAreaElement | null>;
  edited: string;
  /** The arguments as the model sent them. */
  original: string;
  onEdit: (text: string) => void;
  onUndo: () => void;
  /** The editor's own check, or Go's refusal of this text (a list of problems). */
  problem: string | string[] | null;
  onSubmit: () => void;
}) {
  return (
    <div className="icard-sub" ref={formRef} onKeyDown={closeOnEscape(onBack)}>
      <label htmlFor={`${id}-edit`} className="icard-sub-label">
        Arguments (JSON)
      </label>
      <textarea
        ref={editorRef}
        id={`${id}-edit`}
        className="mono"
        rows={Math.min(14, Math.max(4, edited.split('\n').length + 1))}
        spellCheck={false}
        value={edited}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-edit-err` : undefined}
        onChange={(e) => onEdit(e.target.value)}
      />
      {problem && (
        <div className="icard-error" id={`${id}-edit-err`} role="alert">
          {typeof problem === 'string' ? (
            problem
          ) : problem.length === 1 ? (
            <>These arguments cannot be used: {problem[0]}.</>
          ) : (
            <>
              These arguments cannot be used:
              <ul className="icard-problems">
                {problem.map((p, i) => (
                  <li key={i}>{p}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      <div className="icard-actions">
        <button type="button" className="btn primary" disabled={busy || !!problem} onClick={onSubmit}>
          Allow with these arguments
        </button>
        <button type="button" className="btn subtle" onClick={onBack}>
          Back
        </button>
        {edited !== original && (
          <button type="button" className="btn subtle" onClick={onUndo}>
            Undo my edits
          </button>
        )}
      </div>
    </div>
  );
}

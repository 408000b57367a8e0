// The approval card's sub-forms: Always allow and Never allow (which rule,
// how long), Deny (with a reason) and Edit arguments. The card owns their drafts and focus.
import type { RefObject } from 'react';
import type { RememberScope } from '../../transport/contract';
import { closeOnEscape } from './cardKeys';
import { DURATIONS, DURATION_LABELS, chosenDurationWords, isRuleDuration, reachWords, refusedExample, type RuleDuration } from './ruleWords';
import './ApprovalRules.css';

type FormRef = RefObject<(HTMLDivElement & HTMLFieldSetElement) | null>;

interface SubFormProps {
  /** The card's id, for its fields' ids. */
  id: string;
  formRef: FormRef;
  busy: boolean;
  onBack: () => void;
}

/** How long a rule lasts: a select of Go's durations. */
function DurationField({ id, duration, onDuration }: { id: string; duration: RuleDuration; onDuration: (d: RuleDuration) => void }) {
  return (
    <label className="icard-duration" htmlFor={`${id}-duration`}>
      <span className="icard-sub-label">How long</span>
      <select
        id={`${id}-duration`}
        value={duration}
        onChange={(e) => {
          if (isRuleDuration(e.currentTarget.value)) onDuration(e.currentTarget.value);
        }}
      >
        {DURATIONS.map((d) => (
          <option key={d} value={d}>
            {DURATION_LABELS[d]}
          </option>
        ))}
      </select>
    </label>
  );
}

interface RuleChoiceProps {
  rules: RememberScope[];
  ruleIndex: number;
  onRule: (i: number) => void;
  label: (r: RememberScope) => string;
  duration: RuleDuration;
  onDuration: (d: RuleDuration) => void;
  /** The call's tool and arguments: the card says what the rule reaches from them. */
  toolName: string;
  args?: unknown;
}

function RuleRadios({ id, rules, ruleIndex, onRule, label, name }: Pick<RuleChoiceProps, 'rules' | 'ruleIndex' | 'onRule' | 'label'> & { id: string; name: string }) {
  return (
    <>
      {rules.map((r, i) => (
        <label key={i} className="icard-radio">
          <input type="radio" name={`${id}-${name}`} checked={ruleIndex === i} onChange={() => onRule(i)} />
          {label(r)}
        </label>
      ))}
    </>
  );
}

/** Always allow: the rule to remember and how long, what it covers and one call it would not; then the decision. */
export function AlwaysAllowForm({
  id,
  formRef,
  busy,
  onBack,
  rules,
  ruleIndex,
  onRule,
  label,
  duration,
  onDuration,
  toolName,
  args,
  mcp,
  onAllow,
}: SubFormProps &
  RuleChoiceProps & {
    /** An MCP tool's choices all come from Go. */
    mcp: boolean;
    onAllow: () => void;
  }) {
  const rule = rules[ruleIndex] ?? { scope: 'tool' };
  const refused = refusedExample(toolName, rule);
  return (
    <fieldset className="icard-sub" ref={formRef} onKeyDown={closeOnEscape(onBack)}>
      <legend>{mcp ? 'Remember this choice:' : 'Always allow without asking:'}</legend>
      <RuleRadios id={id} name="rule" rules={rules} ruleIndex={ruleIndex} onRule={onRule} label={label} />
      <DurationField id={id} duration={duration} onDuration={onDuration} />
      <div className="icard-reach" aria-live="polite" aria-label="What this rule covers">
        <p>
          <span className="icard-reach-yes">Will allow</span> {reachWords(toolName, rule, args)}, {chosenDurationWords(duration)}.
        </p>
        {refused ? (
          <p>
            <span className="icard-reach-no">Will still ask</span> for anything else, for example <code className="mono">{refused}</code>.
          </p>
        ) : (
          <p>
            <span className="icard-reach-no">Covers everything</span> this tool can do, harmful calls included: a narrower choice is safer.
          </p>
        )}
      </div>
      <p className="icard-note">You can revoke it or change how long it lasts in Settings › Rules.</p>
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

/** Never allow: a deny rule (which wins over every allow rule) with a reason the model reads; this call is denied too. */
export function NeverAllowForm({
  id,
  formRef,
  busy,
  onBack,
  rules,
  ruleIndex,
  onRule,
  label,
  duration,
  onDuration,
  toolName,
  args,
  reason,
  onReason,
  onNever,
}: SubFormProps &
  RuleChoiceProps & {
    reason: string;
    onReason: (r: string) => void;
    onNever: () => void;
  }) {
  const rule = rules[ruleIndex] ?? { scope: 'tool' };
  return (
    <fieldset className="icard-sub" ref={formRef} onKeyDown={closeOnEscape(onBack)}>
      <legend>Never allow, without asking:</legend>
      <RuleRadios id={id} name="never" rules={rules} ruleIndex={ruleIndex} onRule={onRule} label={label} />
      <label htmlFor={`${id}-never-reason`} className="icard-sub-label">
        Reason — the model reads it when the rule refuses a call
      </label>
      <input
        id={`${id}-never-reason`}
        type="text"
        value={reason}
        maxLength={2000}
        onChange={(e) => onReason(e.currentTarget.value)}
        placeholder="e.g. never push without me"
      />
      <DurationField id={id} duration={duration} onDuration={onDuration} />
      <div className="icard-reach" aria-live="polite" aria-label="What this rule refuses">
        <p>
          <span className="icard-reach-no">Will refuse</span> {reachWords(toolName, rule, args)}, {chosenDurationWords(duration)} —
          even where an “Always allow” rule covers them. This call is denied now.
        </p>
      </div>
      <div className="icard-actions">
        <button type="button" className="btn danger" disabled={busy} onClick={onNever}>
          Never allow
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
        onChange={(e) => onReason(e.currentTarget.value)}
        onKeyDown={(e) => {
          // Enter denies, with the reason typed so far.
          if (e.key === 'Enter' && !e.isComposing) {
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
  editorRef: RefObject<HTMLTextAreaElement>;
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
        spellcheck={false}
        value={edited}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-edit-err` : undefined}
        onChange={(e) => onEdit(e.currentTarget.value)}
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

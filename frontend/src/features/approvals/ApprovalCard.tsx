import { useContext, useEffect, useId, useRef, useState } from 'react';
import { isMcpRule, type ClassifiedInterrupt } from '../../state/interrupts';
import { TransportContext } from '../../transport';
import { useMcpServers } from '../../hooks/useMcpServers';
import type { RememberScope } from '../../transport/contract';
import { isObject, tryParseJson, type JsonValue } from '../../transport/json';
import { editedArgsProblems } from '../../lib/validationText';
import type { DecisionCardProps } from './cardKeys';
import { useDraft } from './drafts';
import { AnsweredRow } from './AnsweredRow';
import { namesOf, ruleLabel } from './toolNames';
import { callView } from './toolPreviews';
import { showSubForm } from './showSubForm';
import { previewForEdit } from '../../lib/editedDiff';
import { AlwaysAllowForm, DenyForm, EditArgsForm, NeverAllowForm } from './ApprovalForms';
import type { RuleDuration } from './ruleWords';

type Approval = Extract<ClassifiedInterrupt, { kind: 'approval' }>;

export type ApprovalCardProps = DecisionCardProps<Approval>;

type Mode = 'idle' | 'always' | 'never' | 'deny' | 'edit';

/** The editor's own check: JSON, and an object. */
function checkEdit(text: string): string | null {
  const p = tryParseJson(text);
  if (!p.ok) return `Not valid JSON: ${p.error}`;
  return isObject(p.value) ? null : 'The arguments must be a JSON object ({ … }).';
}

function parsedOrNull(text: string): unknown {
  const p = tryParseJson(text);
  return p.ok ? p.value : null;
}

/**
 * Approval for one tool call: Allow once / Always allow / Deny / Edit
 * arguments. What it shows of the call comes from the preview registry
 * (toolPreviews), its sub-forms from ApprovalForms.
 */
export function ApprovalCard({ item, answer, onDecide, onChange, onKeep, error, busy }: ApprovalCardProps) {
  const id = useId();
  const catalog = useMcpServers(useContext(TransportContext));
  const names = namesOf(catalog, item.toolName);
  const itemId = item.interrupt.id;
  const [mode, setMode] = useDraft<Mode>(itemId, 'mode', 'idle');
  // Drafts outlive their sub-form: Back or Esc closes it, reopening shows them again.
  const [reason, setReason] = useDraft(itemId, 'reason', '');
  const [edited, setEdited] = useDraft(itemId, 'edited', item.argsText);
  const [editError, setEditError] = useState<string | null>(() => (mode === 'edit' ? checkEdit(edited) : null));
  /** The edited text last sent: a refusal from Go is about this text (shown while it is unchanged). */
  const [sentEdit, setSentEdit] = useDraft<string | null>(itemId, 'sentEdit', null);
  // An MCP tool's choices all come from Go, in its order (an argument of
  // this call first, this tool as first seen, every tool of its server);
  // built-in tools also offer "every call".
  const mcp = item.suggestedRules.some(isMcpRule);
  const rules: RememberScope[] = mcp
    ? item.suggestedRules
    : [{ scope: 'tool' }, ...item.suggestedRules.filter((r) => r.scope !== 'tool')];
  const [ruleIndex, setRuleIndex] = useDraft(itemId, 'rule', !mcp && item.suggestedRules.length ? 1 : 0);
  const [neverIndex, setNeverIndex] = useDraft(itemId, 'never', !mcp && item.suggestedRules.length ? 1 : 0);
  const [duration, setDuration] = useDraft<RuleDuration>(itemId, 'duration', 'forever');
  const [neverReason, setNeverReason] = useDraft(itemId, 'neverReason', '');
  /** The chosen rule with its duration ("until revoked" is Go's default: not sent). */
  const withDuration = (r: RememberScope): RememberScope => (duration === 'forever' ? r : { ...r, duration });
  const label = (r: RememberScope) => ruleLabel(item.toolName, r, names, catalog);
  // An edit of a write_file's arguments (being typed, or staged) moves the diff with it.
  const editedArgs =
    answer?.decision?.kind === 'approve' && answer.decision.editedArgs !== undefined
      ? answer.decision.editedArgs
      : mode === 'edit' && !answer
        ? parsedOrNull(edited)
        : null;
  const pv =
    item.preview && editedArgs !== null && item.toolName === 'write_file' && !names.server
      ? previewForEdit(item.preview, item.args, editedArgs)
      : item.preview;
  const view = callView({ toolName: item.toolName, args: item.args, preview: pv, mcp: !!names.server });

  // Go's refusal of the edited arguments, in plain words, while the editor shows what was refused.
  const problems = error ? editedArgsProblems(error) : null;
  const refusedHere = mode === 'edit' && !!problems && sentEdit === edited;
  const shownEditError = editError ?? (refusedHere ? problems : null);

  // Focus follows the choice: a sub-form that opens gets focus on its first
  // field; closing it returns focus to the button that opened it.
  const alwaysBtn = useRef<HTMLButtonElement>(null);
  const denyBtn = useRef<HTMLButtonElement>(null);
  const neverBtn = useRef<HTMLButtonElement>(null);
  const editBtn = useRef<HTMLButtonElement>(null);
  const sub = useRef<HTMLDivElement & HTMLFieldSetElement>(null);
  const editor = useRef<HTMLTextAreaElement>(null);
  const shownMode = answer ? null : mode;
  const lastShown = useRef<Mode | null>(shownMode);
  useEffect(() => {
    const prev = lastShown.current;
    lastShown.current = shownMode;
    if (prev === shownMode || shownMode === null) return;
    if (shownMode === 'idle') {
      // Back from a sub-form. (After an answer, "Change answer" or a
      // refusal the panel moves focus: see InterruptPanel.)
      if (prev === 'always') alwaysBtn.current?.focus();
      else if (prev === 'never') neverBtn.current?.focus();
      else if (prev === 'deny') denyBtn.current?.focus();
      else if (prev === 'edit') editBtn.current?.focus();
      return;
    }
    if (shownMode === 'edit' && prev === null && !problems) return;
    const field =
      sub.current?.querySelector<HTMLElement>('input:checked') ?? sub.current?.querySelector<HTMLElement>('input, textarea');
    field?.focus();
    // The whole sub-form in view, its buttons (and an error) included.
    showSubForm(sub.current);
  }, [shownMode, problems]);

  // An accepted answer closes the sub-form: "Change answer" starts from the choices.
  const accepted = !!answer && !answer.sending;
  useEffect(() => {
    if (accepted) setMode('idle');
  }, [accepted]);

  // A refusal of the edited arguments: back to the editor, on the text that was refused.
  useEffect(() => {
    if (!refusedHere || answer) return;
    editor.current?.focus();
    showSubForm(sub.current);
  }, [refusedHere, answer, error]);

  const submitEdit = () => {
    const p = tryParseJson(edited);
    const bad = checkEdit(edited);
    if (bad || !p.ok) {
      setEditError(bad ?? 'Not valid JSON');
      return;
    }
    setEditError(null);
    setSentEdit(edited);
    // The editor stays open until Go accepts the arguments: a refusal is shown in it.
    onDecide({ kind: 'approve', editedArgs: p.value as JsonValue });
  };

  const deny = () => {
    const r = reason.trim();
    onDecide(r ? { kind: 'deny', reason: r } : { kind: 'deny' });
    setMode('idle');
  };

  const back = () => {
    setEditError(null);
    setMode('idle');
  };
  const subForm = { id, formRef: sub, busy, onBack: back };

  return (
    <>
      <header className="icard-head">
        <span className="icard-kind">Approval</span>
        <h3 id={`${id}-title`} className="icard-title">
          {view.title ? (
            view.title
          ) : names.server ? (
            <>Allow {names.title}?</>
          ) : (
            <>
              Allow <span className="mono">{item.toolName}</span>?
            </>
          )}
        </h3>
        {names.server ? (
          <span className="icard-source">
            a tool of {names.server} · <span className="mono">{item.toolName}</span>
          </span>
        ) : view.title ? (
          <span className="icard-source">
            using <span className="mono">{item.toolName}</span>
          </span>
        ) : null}
      </header>
      {item.interrupt.message && item.interrupt.message !== `Approval required to run ${item.toolName}` && (
        <p className="icard-message">{item.interrupt.message}</p>
      )}
      {view.body}
      {pv?.sandbox && (
        <p className="icard-sandbox" aria-label="Sandbox">
          {pv.sandbox}
        </p>
      )}
      {pv?.error && <p className="icard-note">Preview unavailable: {pv.error}</p>}
      {view.args !== 'hidden' && (
        <details className="icard-args" open={view.args === 'open'}>
          <summary>Arguments</summary>
          <pre className="mono">{item.argsText}</pre>
        </details>
      )}

      {answer ? (
        <AnsweredRow
          answer={answer}
          busy={busy}
          onChange={onChange}
          note={
            answer.decision?.kind === 'approve' && answer.decision.remember ? (
              <span className="icard-staged-note">{label(answer.decision.remember)}</span>
            ) : answer.decision?.kind === 'deny' && answer.decision.remember ? (
              <span className="icard-staged-note">Never: {label(answer.decision.remember)}</span>
            ) : answer.decision?.kind === 'deny' && answer.decision.reason ? (
              <span className="icard-staged-note">“{answer.decision.reason}”</span>
            ) : undefined
          }
        />
      ) : mode === 'always' ? (
        <AlwaysAllowForm
          {...subForm}
          rules={rules}
          ruleIndex={ruleIndex}
          onRule={setRuleIndex}
          label={label}
          duration={duration}
          onDuration={setDuration}
          toolName={item.toolName}
          args={item.args}
          mcp={mcp}
          onAllow={() => {
            onDecide({ kind: 'approve', remember: withDuration(rules[ruleIndex] ?? { scope: 'tool' }) });
            setMode('idle');
          }}
        />
      ) : mode === 'never' ? (
        <NeverAllowForm
          {...subForm}
          rules={rules}
          ruleIndex={neverIndex}
          onRule={setNeverIndex}
          label={label}
          duration={duration}
          onDuration={setDuration}
          toolName={item.toolName}
          args={item.args}
          reason={neverReason}
          onReason={setNeverReason}
          onNever={() => {
            const r = neverReason.trim();
            const rule: RememberScope = { ...withDuration(rules[neverIndex] ?? { scope: 'tool' }), deny: true };
            if (r) rule.reason = r;
            onDecide(r ? { kind: 'deny', reason: r, remember: rule } : { kind: 'deny', remember: rule });
            setMode('idle');
          }}
        />
      ) : mode === 'deny' ? (
        <DenyForm {...subForm} reason={reason} onReason={setReason} hasReasonField={!!item.reasonField} onDeny={deny} />
      ) : mode === 'edit' ? (
        <EditArgsForm
          {...subForm}
          editorRef={editor}
          edited={edited}
          original={item.argsText}
          onEdit={(text) => {
            setEdited(text);
            setEditError(checkEdit(text));
          }}
          onUndo={() => {
            setEdited(item.argsText);
            setEditError(null);
            editor.current?.focus();
          }}
          problem={shownEditError}
          onSubmit={submitEdit}
        />
      ) : (
        <div className="icard-actions">
          <button type="button" className="btn primary" disabled={busy} onClick={() => onDecide({ kind: 'approve' })}>
            Allow once
          </button>
          <button type="button" className="btn" ref={alwaysBtn} disabled={busy} onClick={() => setMode('always')}>
            Always allow…
          </button>
          <button type="button" className="btn danger" ref={denyBtn} disabled={busy} onClick={() => setMode('deny')}>
            Deny…
          </button>
          <button type="button" className="btn subtle danger" ref={neverBtn} disabled={busy} onClick={() => setMode('never')}>
            Never allow…
          </button>
          {item.canEditArgs && (
            <button type="button" className="btn subtle" ref={editBtn} disabled={busy} onClick={() => setMode('edit')}>
              Edit arguments
            </button>
          )}
          {onKeep && (
            <button type="button" className="btn subtle" disabled={busy} onClick={onKeep}>
              Keep my answer
            </button>
          )}
        </div>
      )}
      {error && !(mode === 'edit' && problems && !answer) && (
        <p className="icard-error" role="alert">
          {problems ? `These arguments cannot be used: ${problems.join('; ')}.` : error}
        </p>
      )}
    </>
  );
}

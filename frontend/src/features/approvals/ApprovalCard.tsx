import { useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { isMcpRule, type ClassifiedInterrupt } from '../../state/interrupts';
import { TransportContext } from '../../transport';
import { useMcpServers, type McpCatalog } from '../../hooks/useMcpServers';
import type { RememberScope } from '../../transport/contract';
import { isObject, isString, tryParseJson, type JsonValue } from '../../transport/json';
import { DiffView } from './DiffView';
import { decisionLabel, type Decision } from '../../state/answers';
import { editedArgsProblems } from '../../lib/validationText';
import { hostOf, openableUrl } from '../tools/ToolParts';
import { closeOnEscape, type DecisionCardProps } from './cardKeys';

type Approval = Extract<ClassifiedInterrupt, { kind: 'approval' }>;

/** A kept answer, as the card shows it. */
export interface KeptAnswer {
  /** What the person decided here; unknown after a reload (Go only says it has one). */
  decision?: Decision | undefined;
  /** How many other items still need an answer before the run continues. */
  waiting: number;
  /** The Answer call is in flight. */
  sending: boolean;
}

export type ApprovalCardProps = DecisionCardProps<Approval>;

type Mode = 'idle' | 'always' | 'deny' | 'edit';

// What a person typed or chose on a card, by interrupt id. It outlives the
// card: a refused answer restarts the run (RUN_STARTED clears the cards,
// the resync brings them back), and switching chats unmounts them.
const drafts = new Map<string, Map<string, unknown>>();
const MAX_DRAFTS = 100;

/** Forgets the drafts of these items (all without ids): their answers went through. */
export function forgetDrafts(ids?: readonly string[]): void {
  if (!ids) drafts.clear();
  else for (const id of ids) drafts.delete(id);
}

/** useState whose value is kept for the item (see drafts) and restored when its card comes back. */
export function useDraft<T>(itemId: string, key: string, initial: T | (() => T)): [T, (v: T) => void] {
  const [value, setValue] = useState<T>(() => {
    const kept = drafts.get(itemId);
    if (kept?.has(key)) return kept.get(key) as T;
    return typeof initial === 'function' ? (initial as () => T)() : initial;
  });
  const set = (v: T) => {
    let kept = drafts.get(itemId);
    if (!kept) {
      if (drafts.size >= MAX_DRAFTS) drafts.delete(drafts.keys().next().value!);
      kept = new Map();
      drafts.set(itemId, kept);
    }
    kept.set(key, v);
    setValue(v);
  };
  return [value, set];
}

/** How a tool is named on the card: an MCP tool by its server's title for it. */
interface ToolNames {
  /** The tool's title (its model name for built-in tools). */
  title: string;
  /** The MCP server's title, when it is an MCP tool. */
  server?: string;
}

function namesOf(cat: McpCatalog, modelName: string): ToolNames {
  const e = cat.tools.get(modelName);
  return e ? { title: e.title, server: e.serverTitle } : { title: modelName };
}

function serverTitle(cat: McpCatalog, name: string | undefined, fallback: string | undefined): string {
  if (name && cat.serverTitles.has(name)) return cat.serverTitles.get(name)!;
  return fallback || name || 'this server';
}

function ruleLabel(tool: string, r: RememberScope, names: ToolNames, cat: McpCatalog): string {
  switch (r.scope) {
    case 'tool':
      return `Every ${tool} call`;
    case 'command-prefix':
      return `Commands starting with “${r.pattern ?? ''}”`;
    case 'folder':
      return `${tool} inside ${r.pattern ?? 'this folder'}`;
    case 'file':
      return `${tool} on this file only (${r.pattern ?? ''})`;
    case 'thread':
      return `${tool} in this chat only`;
    case 'tool-identity':
      return `Always allow ${names.title}`;
    case 'server':
      return `Always allow every tool of ${serverTitle(cat, r.pattern, names.server)}`;
    case 'command-glob':
      return `Commands matching “${r.pattern ?? ''}”`;
    case 'folder-glob':
      return `${tool} of “${r.glob ?? '*'}” files under ${r.pattern ?? 'this folder'}`;
    case 'host':
      return `${tool} to ${r.pattern ?? 'this host'} only`;
    case 'arg-equals':
      return `${names.title} when ${r.arg ?? 'the argument'} is “${r.pattern ?? ''}”`;
    case 'arg-prefix':
      return `${names.title} when ${r.arg ?? 'the argument'} starts with “${r.pattern ?? ''}”`;
    case 'server-tools':
      return `Tools of ${serverTitle(cat, r.pattern, names.server)} named “${r.glob ?? '*'}”`;
  }
}

/** "Approved — waiting for 2 more" (or "Answered — …" after a reload) with a way to change it. */
export function AnsweredRow({
  answer,
  note,
  onChange,
  busy,
}: {
  answer: KeptAnswer;
  note?: ReactNode;
  onChange: () => void;
  busy: boolean;
}) {
  const d = answer.decision;
  return (
    <div className="icard-staged" role="status">
      <span className={`icard-staged-label ${d?.kind ?? 'answer'}`}>{d ? decisionLabel(d) : 'Answered'}</span>
      {note}
      {answer.sending ? (
        <span className="icard-waiting">Sending…</span>
      ) : answer.waiting > 0 ? (
        <span className="icard-waiting"> — waiting for {answer.waiting} more</span>
      ) : null}
      <button type="button" className="btn small subtle" onClick={onChange} disabled={busy || answer.sending}>
        Change answer
      </button>
    </div>
  );
}

function commandOf(args: unknown): { command: string; folder: string } | null {
  if (!isObject(args)) return null;
  const cmd = args.command ?? args.cmd;
  const command = isString(cmd) ? cmd : Array.isArray(cmd) ? cmd.filter(isString).join(' ') : '';
  if (!command) return null;
  const f = args.cwd ?? args.folder ?? args.dir ?? args.workdir;
  return { command, folder: isString(f) ? f : '' };
}

/** What a tool that acts in this window asks, in words: "Open example.com?" with the full URL. */
interface PlainAsk {
  title: ReactNode;
  body: ReactNode;
}

function plainAsk(toolName: string, args: unknown): PlainAsk | null {
  if (!isObject(args)) return null;
  if (toolName === 'open_url' && isString(args.url) && args.url) {
    const href = openableUrl(args.url);
    return {
      title: <>Open {hostOf(href ?? args.url)}?</>,
      body: (
        <div className="icard-plain">
          <p className="icard-plain-text mono" aria-label="Address">
            {args.url}
          </p>
          <p className="icard-note">
            {href ? 'Opens in your browser.' : 'Juncture opens only http and https links; deny this request.'}
          </p>
        </div>
      ),
    };
  }
  if (toolName === 'copy_to_clipboard' && isString(args.text)) {
    const n = [...args.text].length;
    return {
      title: <>Copy to clipboard?</>,
      body: (
        <div className="icard-plain">
          <pre className="icard-plain-text icard-clip" aria-label="Text to copy">
            {args.text}
          </pre>
          <p className="icard-note">
            {n} {n === 1 ? 'character' : 'characters'}; replaces what your clipboard holds now.
          </p>
        </div>
      ),
    };
  }
  return null;
}

/** The editor's own check: JSON, and an object. */
function checkEdit(text: string): string | null {
  const p = tryParseJson(text);
  if (!p.ok) return `Not valid JSON: ${p.error}`;
  return isObject(p.value) ? null : 'The arguments must be a JSON object ({ … }).';
}

/** Approval for one tool call: Allow once / Always allow / Deny / Edit arguments. */
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
  // An MCP tool's choices all come from Go (this tool as first seen, or
  // every tool of its server); built-in tools also offer "every call".
  const mcpRules = item.suggestedRules.filter(isMcpRule);
  const rules: RememberScope[] = mcpRules.length
    ? mcpRules
    : [{ scope: 'tool' }, ...item.suggestedRules.filter((r) => r.scope !== 'tool')];
  const [ruleIndex, setRuleIndex] = useDraft(itemId, 'rule', !mcpRules.length && item.suggestedRules.length ? 1 : 0);
  const label = (r: RememberScope) => ruleLabel(item.toolName, r, names, catalog);
  const pv = item.preview;
  const cmd =
    pv?.kind === 'command' && pv.body
      ? { command: pv.body, folder: pv.folder }
      : item.toolName === 'run_command'
        ? commandOf(item.args)
        : null;
  const plain = cmd || names.server ? null : plainAsk(item.toolName, item.args);
  const folder = cmd?.folder || pv?.folder || '';
  // A "json" preview is the arguments again; the Arguments block shows them.
  const showPreview = !!pv && !pv.error && pv.kind !== 'json' && pv.kind !== 'command' && !plain;

  // Go's refusal of the edited arguments, in plain words, while the editor shows what was refused.
  const problems = error ? editedArgsProblems(error) : null;
  const refusedHere = mode === 'edit' && !!problems && sentEdit === edited;
  const shownEditError = editError ?? (refusedHere ? problems : null);

  // Focus follows the choice: a sub-form that opens gets focus on its first
  // field; closing it returns focus to the button that opened it.
  const alwaysBtn = useRef<HTMLButtonElement>(null);
  const denyBtn = useRef<HTMLButtonElement>(null);
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
      else if (prev === 'deny') denyBtn.current?.focus();
      else if (prev === 'edit') editBtn.current?.focus();
      return;
    }
    if (shownMode === 'edit' && prev === null && !problems) return;
    const field =
      sub.current?.querySelector<HTMLElement>('input:checked') ?? sub.current?.querySelector<HTMLElement>('input, textarea');
    field?.focus();
    // The whole sub-form in view, its buttons (and an error) included.
    sub.current?.scrollIntoView?.({ block: 'nearest' });
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
    sub.current?.scrollIntoView?.({ block: 'nearest' });
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

  return (
    <>
      <header className="icard-head">
        <span className="icard-kind">Approval</span>
        <h3 id={`${id}-title`} className="icard-title">
          {plain ? (
            plain.title
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
        ) : plain ? (
          <span className="icard-source">
            using <span className="mono">{item.toolName}</span>
          </span>
        ) : null}
      </header>
      {item.interrupt.message && item.interrupt.message !== `Approval required to run ${item.toolName}` && (
        <p className="icard-message">{item.interrupt.message}</p>
      )}
      {plain ? (
        plain.body
      ) : cmd ? (
        <div className="icard-command">
          <pre className="mono" aria-label="Command">
            <span aria-hidden="true">$ </span>
            {cmd.command}
          </pre>
          {folder && (
            <div className="icard-folder">
              in <span className="mono">{folder}</span>
            </div>
          )}
        </div>
      ) : showPreview && pv ? (
        <DiffView preview={pv} />
      ) : null}
      {pv?.error && <p className="icard-note">Preview unavailable: {pv.error}</p>}
      {!plain && (!cmd || !showPreview) && (
        <details className="icard-args" open={!cmd && !showPreview}>
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
            ) : answer.decision?.kind === 'deny' && answer.decision.reason ? (
              <span className="icard-staged-note">“{answer.decision.reason}”</span>
            ) : undefined
          }
        />
      ) : mode === 'always' ? (
        <fieldset className="icard-sub" ref={sub} onKeyDown={closeOnEscape(back)}>
          <legend>{mcpRules.length ? 'Remember this choice:' : 'Always allow without asking:'}</legend>
          {rules.map((r, i) => (
            <label key={i} className="icard-radio">
              <input type="radio" name={`${id}-rule`} checked={ruleIndex === i} onChange={() => setRuleIndex(i)} />
              {label(r)}
            </label>
          ))}
          <p className="icard-note">You can revoke this in Settings › Permissions.</p>
          <div className="icard-actions">
            <button
              type="button"
              className="btn primary"
              disabled={busy}
              onClick={() => {
                onDecide({ kind: 'approve', remember: rules[ruleIndex] ?? { scope: 'tool' } });
                setMode('idle');
              }}
            >
              Always allow
            </button>
            <button type="button" className="btn subtle" onClick={back}>
              Back
            </button>
          </div>
        </fieldset>
      ) : mode === 'deny' ? (
        <div className="icard-sub" ref={sub} onKeyDown={closeOnEscape(back)}>
          <label htmlFor={`${id}-reason`} className="icard-sub-label">
            Reason (optional){item.reasonField ? ' — the model will see it' : ''}
          </label>
          <input
            id={`${id}-reason`}
            type="text"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            onKeyDown={(e) => {
              // Enter denies, with the reason typed so far.
              if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
                e.preventDefault();
                if (!busy) deny();
              }
            }}
            placeholder="e.g. use the staging folder instead"
          />
          {!item.reasonField && reason.trim() && (
            <p className="icard-note">This request has no place for a reason; only the denial is sent.</p>
          )}
          <div className="icard-actions">
            <button type="button" className="btn danger" disabled={busy} onClick={deny}>
              Deny
            </button>
            <button type="button" className="btn subtle" onClick={back}>
              Back
            </button>
          </div>
        </div>
      ) : mode === 'edit' ? (
        <div className="icard-sub" ref={sub} onKeyDown={closeOnEscape(back)}>
          <label htmlFor={`${id}-edit`} className="icard-sub-label">
            Arguments (JSON)
          </label>
          <textarea
            ref={editor}
            id={`${id}-edit`}
            className="mono"
            rows={Math.min(14, Math.max(4, edited.split('\n').length + 1))}
            spellCheck={false}
            value={edited}
            aria-invalid={shownEditError ? true : undefined}
            aria-describedby={shownEditError ? `${id}-edit-err` : undefined}
            onChange={(e) => {
              setEdited(e.target.value);
              setEditError(checkEdit(e.target.value));
            }}
          />
          {shownEditError && (
            <div className="icard-error" id={`${id}-edit-err`} role="alert">
              {typeof shownEditError === 'string' ? (
                shownEditError
              ) : shownEditError.length === 1 ? (
                <>These arguments cannot be used: {shownEditError[0]}.</>
              ) : (
                <>
                  These arguments cannot be used:
                  <ul className="icard-problems">
                    {shownEditError.map((p, i) => (
                      <li key={i}>{p}</li>
                    ))}
                  </ul>
                </>
              )}
            </div>
          )}
          <div className="icard-actions">
            <button type="button" className="btn primary" disabled={busy || !!shownEditError} onClick={submitEdit}>
              Allow with these arguments
            </button>
            <button type="button" className="btn subtle" onClick={back}>
              Back
            </button>
            {edited !== item.argsText && (
              <button
                type="button"
                className="btn subtle"
                onClick={() => {
                  setEdited(item.argsText);
                  setEditError(null);
                  editor.current?.focus();
                }}
              >
                Undo my edits
              </button>
            )}
          </div>
        </div>
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

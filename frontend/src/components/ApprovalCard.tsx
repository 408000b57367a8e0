import { useContext, useId, useState, type ReactNode } from 'react';
import { isMcpRule, type ClassifiedInterrupt } from '../state/interrupts';
import { TransportContext } from '../transport';
import { useMcpServers, type McpCatalog } from '../hooks/useMcpServers';
import type { RememberScope } from '../transport/contract';
import { isObject, isString, tryParseJson, type JsonValue } from '../transport/json';
import { DiffView } from './DiffView';
import { decisionLabel, type Decision } from '../state/answers';

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

export interface ApprovalCardProps {
  item: Approval;
  /** The kept answer (shown instead of the choices), or undefined while the card asks. */
  answer: KeptAnswer | undefined;
  /** Sends the decision at once (one Answer call). */
  onDecide: (d: Decision) => void;
  /** Reopens the choices: a new decision replaces the kept one until the batch completes. */
  onChange: () => void;
  /** While changing: keep the answer already sent. */
  onKeep?: (() => void) | undefined;
  error?: string | undefined;
  busy: boolean;
}

type Mode = 'idle' | 'always' | 'deny' | 'edit';

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
    case 'tool-identity':
      return `Always allow ${names.title}`;
    case 'server':
      return `Always allow every tool of ${serverTitle(cat, r.pattern, names.server)}`;
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

/** Approval for one tool call: Allow once / Always allow / Deny / Edit arguments. */
export function ApprovalCard({ item, answer, onDecide, onChange, onKeep, error, busy }: ApprovalCardProps) {
  const id = useId();
  const catalog = useMcpServers(useContext(TransportContext));
  const names = namesOf(catalog, item.toolName);
  const [mode, setMode] = useState<Mode>('idle');
  const [reason, setReason] = useState('');
  const [edited, setEdited] = useState(item.argsText);
  const [editError, setEditError] = useState<string | null>(null);
  // An MCP tool's choices all come from Go (this tool as first seen, or
  // every tool of its server); built-in tools also offer "every call".
  const mcpRules = item.suggestedRules.filter(isMcpRule);
  const rules: RememberScope[] = mcpRules.length
    ? mcpRules
    : [{ scope: 'tool' }, ...item.suggestedRules.filter((r) => r.scope !== 'tool')];
  const [ruleIndex, setRuleIndex] = useState(!mcpRules.length && item.suggestedRules.length ? 1 : 0);
  const label = (r: RememberScope) => ruleLabel(item.toolName, r, names, catalog);
  const pv = item.preview;
  const cmd =
    pv?.kind === 'command' && pv.body
      ? { command: pv.body, folder: pv.folder }
      : item.toolName === 'run_command'
        ? commandOf(item.args)
        : null;
  const folder = cmd?.folder || pv?.folder || '';
  // A "json" preview is the arguments again; the Arguments block shows them.
  const showPreview = !!pv && !pv.error && pv.kind !== 'json' && pv.kind !== 'command';

  const submitEdit = () => {
    const p = tryParseJson(edited);
    if (!p.ok) {
      setEditError(`Not valid JSON: ${p.error}`);
      return;
    }
    if (!isObject(p.value)) {
      setEditError('The arguments must be a JSON object ({ … }).');
      return;
    }
    setEditError(null);
    onDecide({ kind: 'approve', editedArgs: p.value as JsonValue });
    setMode('idle');
  };

  return (
    <>
      <header className="icard-head">
        <span className="icard-kind">Approval</span>
        <h3 id={`${id}-title`} className="icard-title">
          {names.server ? (
            <>
              Allow {names.title}?
            </>
          ) : (
            <>
              Allow <span className="mono">{item.toolName}</span>?
            </>
          )}
        </h3>
        {names.server && (
          <span className="icard-source">
            a tool of {names.server} · <span className="mono">{item.toolName}</span>
          </span>
        )}
      </header>
      {item.interrupt.message && item.interrupt.message !== `Approval required to run ${item.toolName}` && (
        <p className="icard-message">{item.interrupt.message}</p>
      )}
      {cmd ? (
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
      {(!cmd || !showPreview) && (
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
        <fieldset className="icard-sub">
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
            <button type="button" className="btn subtle" onClick={() => setMode('idle')}>
              Back
            </button>
          </div>
        </fieldset>
      ) : mode === 'deny' ? (
        <div className="icard-sub">
          <label htmlFor={`${id}-reason`} className="icard-sub-label">
            Reason (optional){item.reasonField ? ' — the model will see it' : ''}
          </label>
          <input
            id={`${id}-reason`}
            type="text"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') e.preventDefault();
            }}
            placeholder="e.g. use the staging folder instead"
          />
          {!item.reasonField && reason.trim() && (
            <p className="icard-note">This request has no place for a reason; only the denial is sent.</p>
          )}
          <div className="icard-actions">
            <button
              type="button"
              className="btn danger"
              disabled={busy}
              onClick={() => {
                const r = reason.trim();
                onDecide(r ? { kind: 'deny', reason: r } : { kind: 'deny' });
                setMode('idle');
              }}
            >
              Deny
            </button>
            <button type="button" className="btn subtle" onClick={() => setMode('idle')}>
              Back
            </button>
          </div>
        </div>
      ) : mode === 'edit' ? (
        <div className="icard-sub">
          <label htmlFor={`${id}-edit`} className="icard-sub-label">
            Arguments (JSON)
          </label>
          <textarea
            id={`${id}-edit`}
            className="mono"
            rows={Math.min(14, Math.max(4, edited.split('\n').length + 1))}
            spellCheck={false}
            value={edited}
            aria-invalid={editError ? true : undefined}
            aria-describedby={editError ? `${id}-edit-err` : undefined}
            onChange={(e) => {
              setEdited(e.target.value);
              const p = tryParseJson(e.target.value);
              setEditError(p.ok ? (isObject(p.value) ? null : 'The arguments must be a JSON object ({ … }).') : `Not valid JSON: ${p.error}`);
            }}
          />
          {editError && (
            <p className="icard-error" id={`${id}-edit-err`} role="alert">
              {editError}
            </p>
          )}
          <div className="icard-actions">
            <button type="button" className="btn primary" disabled={busy || !!editError} onClick={submitEdit}>
              Allow with these arguments
            </button>
            <button
              type="button"
              className="btn subtle"
              onClick={() => {
                setEdited(item.argsText);
                setEditError(null);
                setMode('idle');
              }}
            >
              Back
            </button>
          </div>
        </div>
      ) : (
        <div className="icard-actions">
          <button type="button" className="btn primary" disabled={busy} onClick={() => onDecide({ kind: 'approve' })}>
            Allow once
          </button>
          <button type="button" className="btn" disabled={busy} onClick={() => setMode('always')}>
            Always allow…
          </button>
          <button type="button" className="btn danger" disabled={busy} onClick={() => setMode('deny')}>
            Deny…
          </button>
          {item.canEditArgs && (
            <button type="button" className="btn subtle" disabled={busy} onClick={() => setMode('edit')}>
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
      {error && (
        <p className="icard-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

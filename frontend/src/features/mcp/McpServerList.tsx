import { useEffect, useState } from 'react';
import type { McpServerConfig, McpServerState, McpServerStatus, McpToolInfo } from '../../transport/contract';
import { POLICY_OPTIONS } from './McpServerForm';
import { LogLevelSelect } from '../mcp-offers/LogLevelSelect';
import { SignInBar } from './McpSignIn';

/** One configured server with what ListMCPServers says about it (either may be missing for a moment). */
export interface ServerRow {
  name: string;
  config?: McpServerConfig | undefined;
  status?: McpServerStatus | undefined;
}

export interface McpServerListProps {
  rows: readonly ServerRow[];
  /** ms since epoch, for "restarting in Ns". */
  now: number;
  /** A server whose action is in flight (its buttons are disabled). */
  busy: string | null;
  /** A read-only copy of the app's data: nothing that changes the configuration or a sign-in is offered. */
  locked?: boolean;
  onRestart: (name: string) => void;
  onSetEnabled: (name: string, enabled: boolean) => void;
  onEdit: (name: string) => void;
  onRemove: (name: string) => void;
  /** Sign in (or again, or for more access) to an OAuth server; Sign out deletes its tokens. */
  onSignIn: (name: string) => void;
  onSignOut: (name: string) => void;
  loadLog: (name: string) => Promise<string>;
}

const STATE_TEXT: Record<McpServerState, string> = {
  starting: 'Starting…',
  ready: 'Ready',
  error: 'Error',
  disabled: 'Disabled',
};

const STATE_TONE: Record<McpServerState, string> = {
  starting: 'accent',
  ready: 'ok',
  error: 'danger',
  disabled: 'muted',
};

function stateOf(r: ServerRow): McpServerState {
  if (r.config?.disabled) return 'disabled';
  return r.status?.status ?? 'starting';
}

/** Sign-in states that wait for the person: the server is not broken, it needs a click. */
const WAITS_FOR_SIGN_IN = new Set(['sign-in', 'sign-in-again', 'more-access']);

export function StatusChip({ state, waitsForSignIn = false }: { state: McpServerState; waitsForSignIn?: boolean }) {
  if (waitsForSignIn && state === 'error') {
    return <span className="tool-chip tone-warn mcp-chip">Waiting for sign-in</span>;
  }
  return (
    <span className={`tool-chip tone-${STATE_TONE[state]} mcp-chip`}>
      {state === 'starting' && <span className="tool-chip-spin" aria-hidden="true" />}
      {STATE_TEXT[state]}
    </span>
  );
}

function policyText(r: ServerRow): string | null {
  const p = r.config?.approval ?? r.status?.approval ?? '';
  if (!p) return null;
  return POLICY_OPTIONS.find((o) => o.value === p)?.label ?? null;
}

function ToolItem({ tool }: { tool: McpToolInfo }) {
  const title = tool.title || tool.name;
  return (
    <li className="mcp-tool">
      <span className="mcp-tool-title">{title}</span>
      {title !== tool.name && <span className="mcp-tool-name mono">{tool.name}</span>}
      {tool.readOnly && (
        <span className="mcp-badge ok" title="Runs without asking">
          read-only
        </span>
      )}
      {tool.destructive && <span className="mcp-badge danger">destructive</span>}
      {tool.claimsReadOnly && (
        <span className="mcp-badge warn">
          Says read-only now; Juncture keeps asking because it said otherwise when first seen
        </span>
      )}
      {tool.description && <span className="mcp-tool-desc">{tool.description}</span>}
    </li>
  );
}

function ServerLog({ name, loadLog }: { name: string; loadLog: (name: string) => Promise<string> }) {
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const load = () => {
    setLoading(true);
    loadLog(name)
      .then((t) => {
        setText(t);
        setError(null);
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
      .finally(() => setLoading(false));
  };
  // Load once when shown.
  useEffect(load, []); // load only closes over name and loadLog
  return (
    <div className="mcp-log-box">
      <div className="mcp-log-bar">
        <span className="set-help">Its error output and log messages, newest last.</span>
        <LogLevelSelect server={name} />
        <button type="button" className="btn small" onClick={load} disabled={loading} aria-label={`Refresh the log of ${name}`}>
          {loading ? 'Loading…' : 'Refresh'}
        </button>
      </div>
      {error ? (
        <p className="set-error" role="alert">
          {error}
        </p>
      ) : (
        <pre className="mcp-log mono" tabIndex={0} aria-label={`Log of ${name}`}>
          {text === null ? 'Loading…' : text || '(nothing logged yet)'}
        </pre>
      )}
    </div>
  );
}

function Row({ row, now, busy, ...p }: { row: ServerRow; now: number; busy: boolean } & Omit<McpServerListProps, 'rows' | 'now' | 'busy'>) {
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const state = stateOf(row);
  const s = row.status;
  const transport = s?.transport ?? (row.config?.url ? 'http' : 'stdio');
  const target = transport === 'http' ? row.config?.url : [row.config?.command, ...(row.config?.args ?? [])].filter(Boolean).join(' ');
  const retryIn = s?.nextRetry && s.nextRetry > now ? Math.ceil((s.nextRetry - now) / 1000) : 0;
  const disabled = state === 'disabled';
  const title = s?.title && s.title !== row.name ? s.title : '';
  const tools = s?.tools ?? [];
  const policy = policyText(row);
  // While the sign-in waits for the person, its bar says what is needed;
  // the server's error is that same sign-in error, not said twice.
  const error = s?.auth && !disabled && s.auth.state !== 'signed-in' ? '' : s?.error;
  return (
    <li className={`mcp-server state-${s?.auth && WAITS_FOR_SIGN_IN.has(s.auth.state) && state === 'error' ? 'sign-in' : state}`} aria-label={row.name}>
      <div className="mcp-server-head">
        <span className="mcp-server-name">{row.name}</span>
        {title && <span className="mcp-server-title">{title}</span>}
        <StatusChip state={state} waitsForSignIn={!!s?.auth && WAITS_FOR_SIGN_IN.has(s.auth.state)} />
      </div>
      <div className="mcp-server-meta">
        <span>{transport === 'http' ? 'URL (HTTP)' : 'Program (stdio)'}</span>
        {target && <span className="mono mcp-target">{target}</span>}
        {policy && <span>· {policy}</span>}
      </div>
      {s?.sandbox && (
        <div className="mcp-sandbox" aria-label="Sandbox">
          {s.sandbox}
        </div>
      )}
      {s?.auth && !disabled && !p.locked && <SignInBar name={row.name} auth={s.auth} busy={busy} onSignIn={p.onSignIn} onSignOut={p.onSignOut} />}
      {(error || retryIn > 0 || (s?.restarts ?? 0) > 0) && (
        <div className="mcp-server-problem">
          {error && <span className="mcp-error">{error}</span>}
          {retryIn > 0 && <span className="mcp-retry">restarting in {retryIn} s</span>}
          {(s?.restarts ?? 0) > 0 && (
            <span className="mcp-restarts">
              restarted {s?.restarts} time{s?.restarts === 1 ? '' : 's'}
            </span>
          )}
        </div>
      )}
      {tools.length > 0 && (
        <details className="mcp-tools" open={tools.length <= 6}>
          <summary>
            {tools.length} tool{tools.length === 1 ? '' : 's'}
          </summary>
          <ul>
            {tools.map((t) => (
              <ToolItem key={t.name} tool={t} />
            ))}
          </ul>
        </details>
      )}
      {state === 'ready' && tools.length === 0 && <p className="set-help">It offers no tools.</p>}
      {confirmRemove ? (
        <div className="mcp-confirm" role="group" aria-label={`Remove ${row.name}?`}>
          <span>
            Remove <strong>{row.name}</strong>? Its process ends and its tools go away.
          </span>
          <button type="button" className="btn small danger-solid" disabled={busy} onClick={() => p.onRemove(row.name)}>
            Remove
          </button>
          <button type="button" className="btn small subtle" onClick={() => setConfirmRemove(false)}>
            Keep it
          </button>
        </div>
      ) : (
        <div className="mcp-actions">
          <button
            type="button"
            className="btn small"
            disabled={busy || disabled}
            aria-label={`Restart ${row.name}`}
            onClick={() => p.onRestart(row.name)}
          >
            Restart
          </button>
          <button
            type="button"
            className="btn small"
            disabled={busy || p.locked}
            aria-label={`${disabled ? 'Enable' : 'Disable'} ${row.name}`}
            onClick={() => p.onSetEnabled(row.name, disabled)}
          >
            {disabled ? 'Enable' : 'Disable'}
          </button>
          <button
            type="button"
            className="btn small"
            disabled={busy || !row.config || p.locked}
            aria-label={`Edit ${row.name}`}
            onClick={() => p.onEdit(row.name)}
          >
            Edit
          </button>
          <button
            type="button"
            className="btn small danger"
            disabled={busy || !row.config || p.locked}
            aria-label={`Remove ${row.name}`}
            onClick={() => setConfirmRemove(true)}
          >
            Remove…
          </button>
          <button
            type="button"
            className="btn small subtle"
            aria-expanded={showLog}
            aria-label={`${showLog ? 'Hide' : 'Show'} log of ${row.name}`}
            onClick={() => setShowLog((x) => !x)}
          >
            {showLog ? 'Hide log' : 'Show log'}
          </button>
        </div>
      )}
      {showLog && <ServerLog name={row.name} loadLog={p.loadLog} />}
    </li>
  );
}

/** The configured servers: status, transport, tools and what can be done with each. */
export function McpServerList({ rows, now, busy, ...actions }: McpServerListProps) {
  return (
    <ul className="mcp-servers">
      {rows.map((r) => (
        <Row key={r.name} row={r} now={now} busy={busy === r.name} {...actions} />
      ))}
    </ul>
  );
}

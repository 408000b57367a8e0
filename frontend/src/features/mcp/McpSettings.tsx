import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import type { Transport } from '../../transport';
import { toJunctureError } from '../../transport';
import type { McpConfigError, McpConfigView, McpImportSummary, McpServerConfig } from '../../transport/contract';
import { mcpCatalogStore, useMcpServers } from '../../hooks/useMcpServers';
import { McpServerForm } from './McpServerForm';
import { McpServerList, type ServerRow } from './McpServerList';
import { McpConfigText, configErrorText } from './McpConfigText';
import { McpImport } from './McpImport';
import { useAsyncAction } from '../../hooks/useAsyncAction';
import './McpSettings.css';
import { AlertLine } from '../../ui/AlertLine';

/** How often statuses are read while a server is starting. */
export const STARTING_POLL_MS = 2000;

type Editing = { kind: 'add' } | { kind: 'edit'; name: string } | null;

function fileName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return (i >= 0 ? path.slice(i + 1) : path) || 'mcp.json';
}

/** A JunctureError's {line, column} details (SaveMCPConfigText), as a config error. */
function detailsError(e: ReturnType<typeof toJunctureError>): McpConfigError | null {
  const line = Number(e.details?.line);
  const column = Number(e.details?.column);
  if (!Number.isFinite(line) || line < 1) return null;
  // The message may repeat the position ("line 3, column 5: …"); keep the reason.
  const message = e.message.replace(/^.*?line \d+,? column \d+:\s*/i, '') || e.message;
  return { line, column: Number.isFinite(column) && column >= 1 ? column : 1, message };
}

/**
 * Settings › Tool servers (MCP): the servers of mcp.json with their live
 * status and tools, add / edit / remove / enable / restart, the log, the
 * raw text editor and the Claude Desktop import. Every change is saved at
 * once by Go, which then emits "mcp"; this view reloads on it.
 */
/**
 * Settings → Tool servers; locked (a read-only copy of damaged data): the
 * servers are shown, not changed. The copy shares the person's real
 * mcp.json and key storage, which Go refuses to write from it
 * (app.writable, mcp.ErrReadOnly); the dialog says it is a copy.
 */
export function McpSettings({ transport, locked = false }: { transport: Transport; locked?: boolean | undefined }) {
  const id = useId();
  const catalog = useMcpServers(transport);
  const [view, setView] = useState<McpConfigView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const saveServer = useAsyncAction(
    async (previousName: string, name: string, cfg: McpServerConfig) => {
      apply(await transport.call('SaveMCPServer', previousName, name, cfg));
      setEditing(null);
      refresh();
    },
    { describe: (e) => `Not saved: ${toJunctureError(e).message}` },
  );
  const { busy: saving, error: formError, setError: setFormError } = saveServer;
  const [busyRow, setBusyRow] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [textOpen, setTextOpen] = useState(false);
  const [textError, setTextError] = useState<McpConfigError | null>(null);
  const [textBusy, setTextBusy] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [summary, setSummary] = useState<McpImportSummary | null>(null);
  const importing = useAsyncAction(
    async (text: string) => {
      setSummary(await transport.call('ImportClaudeConfig', text));
      reload();
      refresh();
    },
    { describe: (e) => `Nothing was imported: ${toJunctureError(e).message}` },
  );
  const { busy: importBusy, error: importError, setError: setImportError } = importing;
  const [now, setNow] = useState(() => Date.now());

  const apply = useCallback((v: McpConfigView) => {
    setView(v);
    setLoadError(null);
    if (v.error) {
      setTextOpen(true);
      setTextError(v.error);
    }
  }, []);

  const reload = useCallback(() => {
    transport
      .call('GetMCPConfig')
      .then(apply)
      .catch((e: unknown) => setLoadError(toJunctureError(e).message));
  }, [transport, apply]);

  useEffect(() => {
    reload();
    const offs = [
      transport.subscribe('mcp', reload),
      transport.subscribe('connection', (c) => {
        if (c.state === 'reconnected') reload();
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [transport, reload]);

  // While a server starts, read the statuses every 2 s (the "mcp" event
  // also comes; this covers a server that hangs in its handshake).
  const anyStarting = catalog.servers.some((s) => s.status === 'starting');
  const refresh = useCallback(() => void mcpCatalogStore(transport).refresh(), [transport]);
  useEffect(() => {
    if (!anyStarting) return;
    const t = setInterval(refresh, STARTING_POLL_MS);
    return () => clearInterval(t);
  }, [anyStarting, refresh]);

  // "restarting in N s" counts down.
  const anyRetry = catalog.servers.some((s) => (s.nextRetry ?? 0) > now);
  useEffect(() => {
    if (!anyRetry) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [anyRetry]);
  // A fresh status list: count from now.
  useEffect(() => setNow(Date.now()), [catalog.servers]);

  const rows: ServerRow[] = useMemo(() => {
    const byName = new Map(catalog.servers.map((s) => [s.name, s]));
    const out: ServerRow[] = (view?.servers ?? []).map((e) => ({ name: e.name, config: e.config, status: byName.get(e.name) }));
    const configured = new Set(out.map((r) => r.name));
    for (const s of catalog.servers) if (!configured.has(s.name)) out.push({ name: s.name, status: s });
    return out;
  }, [view, catalog.servers]);

  const act = async (name: string, f: () => Promise<McpConfigView | null>) => {
    setBusyRow(name);
    setActionError(null);
    try {
      const v = await f();
      if (v) apply(v);
      refresh();
    } catch (e) {
      setActionError(`${name}: ${toJunctureError(e).message}`);
    } finally {
      setBusyRow(null);
    }
  };

  const save = async (previousName: string, name: string, cfg: McpServerConfig) => {
    await saveServer.run(previousName, name, cfg);
  };

  const saveText = async (text: string) => {
    setTextBusy(true);
    try {
      const v = await transport.call('SaveMCPConfigText', text);
      apply(v);
      if (!v.error) {
        setTextError(null);
        setTextOpen(false);
      }
      refresh();
    } catch (e) {
      const err = toJunctureError(e);
      setTextError(detailsError(err) ?? { line: 1, column: 1, message: err.message });
    } finally {
      setTextBusy(false);
    }
  };

  const runImport = async (text: string) => {
    setSummary(null);
    await importing.run(text);
  };

  const broken = view?.error;
  const editEntry = editing?.kind === 'edit' ? view?.servers.find((s) => s.name === editing.name) : undefined;

  return (
    <section className="mcp-settings" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Tool servers (MCP)</h3>
      <p className="set-help">
        Programs and web services that give the model more tools. Juncture starts them from{' '}
        {view?.path ? <span className="mono">{view.path}</span> : 'mcp.json'}; a change here is saved and applied at once.
      </p>
      {loadError && <p className="set-banner error">Could not read the tool servers: {loadError}</p>}
      {broken && (
        <p className="set-banner error mcp-broken" role="alert">
          {fileName(view.path)} does not parse: {configErrorText(broken)}; nothing from it was started. Fix it below.
        </p>
      )}
      <AlertLine className="set-banner error" text={actionError} />

      {view && !broken && rows.length === 0 && !editing && <p className="set-help">No tool servers yet.</p>}
      {rows.length > 0 && (
        <McpServerList
          rows={rows}
          now={now}
          busy={busyRow}
          locked={locked}
          onRestart={(name) =>
            void act(name, async () => {
              await transport.call('RestartMCPServer', name);
              return null;
            })
          }
          onSetEnabled={(name, enabled) => void act(name, () => transport.call('SetMCPServerEnabled', name, enabled))}
          onEdit={(name) => {
            setFormError(null);
            setEditing({ kind: 'edit', name });
          }}
          onRemove={(name) => void act(name, () => transport.call('DeleteMCPServer', name))}
          onSignIn={(name) =>
            void act(name, async () => {
              // The page opens in the person's browser; the answer comes back to Juncture itself.
              const r = await transport.call('SignInMCPServer', name);
              if (r.url && !transport.openExternal(r.url)) setActionError(`${name}: open this address in your browser to sign in: ${r.url}`);
              return null;
            })
          }
          onSignOut={(name) =>
            void act(name, async () => {
              await transport.call('SignOutMCPServer', name);
              return null;
            })
          }
          loadLog={(name) => transport.call('MCPServerLog', name)}
        />
      )}

      {locked ? null : editing && (editing.kind === 'add' || editEntry) ? (
        <McpServerForm
          key={editing.kind === 'edit' ? `edit:${editing.name}` : 'add'}
          editing={editEntry}
          busy={saving}
          serverError={formError}
          onSave={(prev, name, cfg) => void save(prev, name, cfg)}
          onCancel={() => {
            setEditing(null);
            setFormError(null);
          }}
        />
      ) : (
        view &&
        !broken && (
          <div className="mcp-actions mcp-toolbar">
            <button
              type="button"
              className="btn primary"
              onClick={() => {
                setFormError(null);
                setEditing({ kind: 'add' });
              }}
            >
              Add server…
            </button>
            <button
              type="button"
              className="btn"
              aria-expanded={importOpen}
              onClick={() => {
                setImportOpen((o) => !o);
                setSummary(null);
                setImportError(null);
              }}
            >
              Import from Claude Desktop…
            </button>
            <button type="button" className="btn subtle" aria-expanded={textOpen} onClick={() => setTextOpen((o) => !o)}>
              Edit as text
            </button>
          </div>
        )
      )}

      {importOpen && !broken && !locked && (
        <McpImport
          claudeDesktopPath={view?.claudeDesktopPath ?? ''}
          busy={importBusy}
          summary={summary}
          error={importError}
          onImport={(t) => void runImport(t)}
          onClose={() => setImportOpen(false)}
        />
      )}

      {view && (textOpen || broken) && !locked && (
        <McpConfigText
          text={view.text}
          path={view.path}
          error={textError}
          busy={textBusy}
          onSave={(t) => void saveText(t)}
          onClose={
            broken
              ? undefined
              : () => {
                  setTextOpen(false);
                  setTextError(null);
                }
          }
        />
      )}
    </section>
  );
}

// Activity: the decision ledger, filtered and searched, each call openable
// in its chat; exported (JSON lines, CSV), verified, cleared (asked first).
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useModalDialog } from '../../hooks/useModalDialog';
import type { Transport } from '../../transport';
import { toJunctureError } from '../../transport';
import type { LedgerEntryView, LedgerFilter, LedgerReport, ThreadListItem } from '../../transport/contract.gen';
import { downloadText } from '../../lib/download';
import { formatTime } from '../../lib/format';
import { IconClose } from '../../ui/icons';
import { LEDGER_KINDS, argsLine, kindLabel, kindTone, transportLabel } from './ledgerWords';
import './ActivityView.css';
import { AlertLine } from '../../ui/AlertLine';
import { unlisted } from '../../ui/unlisted';

const PAGE = 100;

/** The time filter's choices, as a start relative to now. */
const SPANS: readonly { id: string; label: string; since: () => number }[] = [
  { id: 'any', label: 'Any time', since: () => 0 },
  { id: 'hour', label: 'Last hour', since: () => Date.now() - 3_600_000 },
  { id: 'today', label: 'Today', since: () => new Date(new Date().toDateString()).getTime() },
  { id: 'week', label: 'Last 7 days', since: () => Date.now() - 7 * 86_400_000 },
];

export interface ActivityViewProps {
  open: boolean;
  transport: Transport;
  threads: readonly Pick<ThreadListItem, 'id' | 'title'>[];
  onClose: () => void;
  /** Opens the chat at the call (the view closes). */
  onOpenCall: (threadId: string, callId: string) => void;
  /** A read-only copy of damaged data: the ledger is read, verified and exported, never cleared. */
  readOnly?: boolean | undefined;
}

export function ActivityView({ open, transport, threads, onClose, onOpenCall, readOnly = false }: ActivityViewProps) {
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const [threadId, setThreadId] = useState('');
  const [tool, setTool] = useState('');
  const [server, setServer] = useState('');
  const [kind, setKind] = useState('');
  const [span, setSpan] = useState('any');
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState(''); // the search, debounced
  const [entries, setEntries] = useState<LedgerEntryView[] | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [report, setReport] = useState<LedgerReport | null>(null);
  const [confirmClear, setConfirmClear] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const [nonce, setNonce] = useState(0);

  useModalDialog(ref, open);

  useEffect(() => {
    const t = setTimeout(() => setQuery(search.trim()), 250);
    return () => clearTimeout(t);
  }, [search]);

  const filter = useCallback(
    (before = 0): LedgerFilter => {
      const f: LedgerFilter = { limit: PAGE };
      if (threadId) f.threadId = threadId;
      if (tool.trim()) f.tool = tool.trim();
      if (server.trim()) f.server = server.trim();
      if (kind) f.kind = kind;
      const since = SPANS.find((s) => s.id === span)?.since() ?? 0;
      if (since) f.since = since;
      if (query) f.search = query;
      if (before) f.before = before;
      return f;
    },
    [threadId, tool, server, kind, span, query],
  );

  useEffect(() => {
    if (!open) return;
    let live = true;
    transport
      .call('ListLedger', filter())
      .then((es) => {
        if (!live) return;
        setEntries(es);
        setMore(es.length === PAGE);
        setError(null);
      })
      .catch((e: unknown) => live && setError(`Could not read the ledger: ${toJunctureError(e).message}`));
    return () => {
      live = false;
    };
  }, [open, transport, filter, nonce]);

  useEffect(() => {
    if (open) return;
    setConfirmClear(false);
    setReport(null);
    setNote(null);
  }, [open]);
  useEffect(() => {
    if (confirmClear) keepRef.current?.focus();
  }, [confirmClear]);

  const older = () => {
    const last = entries?.[entries.length - 1];
    if (!last) return;
    transport
      .call('ListLedger', filter(last.seq))
      .then((es) => {
        setEntries((cur) => [...(cur ?? []), ...es]);
        setMore(es.length === PAGE);
      })
      .catch((e: unknown) => setError(`Could not read the ledger: ${toJunctureError(e).message}`));
  };

  const exportAs = (format: 'jsonl' | 'csv') => {
    const done =
      transport.kind === 'desktop'
        ? transport.call('SaveLedgerExport', format).then((path) => (path ? setNote(`Saved to ${path}.`) : undefined))
        : transport
            .call('ExportLedger', format)
            .then((text) => downloadText(`juncture-ledger.${format}`, text, format === 'csv' ? 'text/csv' : 'application/x-ndjson'));
    done.catch((e: unknown) => setError(`Could not export the ledger: ${toJunctureError(e).message}`));
  };

  const verify = () => {
    setReport(null);
    transport
      .call('VerifyLedger')
      .then(setReport)
      .catch((e: unknown) => setError(`Could not verify the ledger: ${toJunctureError(e).message}`));
  };

  const clear = () => {
    transport
      .call('ClearLedger', 'clear')
      .then(() => {
        setConfirmClear(false);
        setReport(null);
        setNote('The ledger was cleared; the clear is its first entry.');
        setNonce((n) => n + 1);
      })
      .catch((e: unknown) => setError(`Could not clear the ledger: ${toJunctureError(e).message}`));
  };

  const title = (tid: string | undefined) => (tid ? (threads.find((t) => t.id === tid)?.title ?? 'a chat not listed') : '');

  return (
    <dialog
      ref={ref}
      className="activity"
      aria-labelledby={`${id}-title`}
      onClose={() => {
        if (open) onClose();
      }}
      onCancel={(e) => {
        e.preventDefault();
        if (confirmClear) setConfirmClear(false);
        else onClose();
      }}
    >
      <header className="activity-head">
        <h2 id={`${id}-title`}>Activity</h2>
        <div className="activity-actions">
          <button type="button" className="btn small" onClick={() => exportAs('jsonl')}>
            Export JSONL
          </button>
          <button type="button" className="btn small" onClick={() => exportAs('csv')}>
            Export CSV
          </button>
          <button type="button" className="btn small" onClick={verify}>
            Verify
          </button>
          {!readOnly && (
            <button type="button" className="btn small danger" onClick={() => setConfirmClear(true)} disabled={confirmClear}>
              Clear…
            </button>
          )}
          <button type="button" className="icon-btn" aria-label="Close activity" onClick={onClose}>
            <IconClose />
          </button>
        </div>
      </header>
      <p className="activity-help">
        Every decision about a tool call, and every change of a rule, in order: each entry carries the hash of the one before,
        so an edit shows when it is verified.
      </p>
      {confirmClear && (
        <div className="activity-confirm" role="alertdialog" aria-labelledby={`${id}-clear`}>
          <p id={`${id}-clear`}>
            <strong>Clear the ledger?</strong> Every entry is deleted for good (export it first to keep a copy). The clear itself
            is recorded as the new ledger’s first entry.
          </p>
          <button type="button" className="btn" ref={keepRef} onClick={() => setConfirmClear(false)}>
            Keep the ledger
          </button>
          <button type="button" className="btn danger" onClick={clear}>
            Clear the ledger
          </button>
        </div>
      )}
      {report && (
        <p className={`activity-report${report.ok ? ' is-ok' : ' is-broken'}`} role={report.ok ? 'status' : 'alert'}>
          {report.ok ? (
            <>
              All {report.entries} entries verified: every link holds. Head <span className="mono">{report.headHash?.slice(0, 16) ?? '—'}</span>
            </>
          ) : (
            <>
              The chain is broken at entry #{report.brokenSeq}: {report.problem}.
            </>
          )}
        </p>
      )}
      {note && (
        <p className="activity-note" role="status">
          {note}
        </p>
      )}
      <div className="activity-filters" role="search" aria-label="Filter the activity">
        <label>
          Search
          <input type="search" value={search} onChange={(e) => setSearch(e.currentTarget.value)} placeholder="tool, argument, reason…" />
        </label>
        <label>
          Chat
          <select value={threadId} onChange={(e) => setThreadId(e.currentTarget.value)}>
            <option value="">Every chat</option>
            {threads.map((t) => (
              <option key={t.id} value={t.id}>
                {t.title || 'Untitled'}
              </option>
            ))}
            {/* The chosen chat left the list (deleted while this is open).
                Its entries stay in the ledger and the list still shows only
                them, so the filter keeps it and says so, in the entries'
                own words, rather than switch to every chat under the
                person's eyes; Every chat is one choice away. */}
            {unlisted(['', ...threads.map((t) => t.id)], threadId).map((tid) => (
              <option key={`unlisted:${tid}`} value={tid}>
                A chat not listed
              </option>
            ))}
          </select>
        </label>
        <label>
          Decision
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
            <option value="">Every decision</option>
            {LEDGER_KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Tool
          <input type="text" value={tool} onChange={(e) => setTool(e.currentTarget.value)} className="mono" placeholder="e.g. run_command" />
        </label>
        <label>
          Server
          <input type="text" value={server} onChange={(e) => setServer(e.currentTarget.value)} placeholder="MCP server" />
        </label>
        <label>
          When
          <select value={span} onChange={(e) => setSpan(e.currentTarget.value)}>
            {SPANS.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <AlertLine className="activity-error" text={error} />
      <div className="activity-body">
        {entries && !entries.length && <p className="activity-empty">No entries match.</p>}
        {entries && entries.length > 0 && (
          <ol className="activity-list" aria-label="Ledger entries, newest first">
            {entries.map((e) => (
              <li key={e.seq} className={`activity-entry tone-${kindTone(e.kind)}${report?.brokenSeq === e.seq ? ' is-broken' : ''}`}>
                <div className="activity-line">
                  <span className="activity-kind">{kindLabel(e.kind)}</span>
                  {e.tool && <span className="mono activity-tool">{e.tool}</span>}
                  {e.server && <span className="activity-server">on {e.server}</span>}
                  {e.outcome && <span className="activity-outcome">{e.outcome}</span>}
                  <span className="activity-when">
                    #{e.seq} · {formatTime(e.at)}
                  </span>
                </div>
                {argsLine(e) && <div className="mono activity-args">{argsLine(e)}</div>}
                {e.diff && (
                  <details>
                    <summary>Edited arguments</summary>
                    <pre className="mono">{e.diff}</pre>
                  </details>
                )}
                <div className="activity-meta">
                  {e.reason && <span>“{e.reason}”</span>}
                  {e.threadId && <span>in {title(e.threadId)}</span>}
                  {e.transport && <span>by {transportLabel(e.transport)}</span>}
                  {e.redacted && <span>arguments kept as their shape (chat deleted)</span>}
                  {e.threadId && e.callId && (
                    <button type="button" className="btn small subtle" onClick={() => onOpenCall(e.threadId!, e.callId!)}>
                      Open in chat
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ol>
        )}
        {more && (
          <button type="button" className="btn small activity-more" onClick={older}>
            Show older entries
          </button>
        )}
      </div>
    </dialog>
  );
}

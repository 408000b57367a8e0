import { Suspense, lazy, useCallback, useContext, useEffect, useRef, useState } from 'react';
import type { ThreadController } from '../hooks/useThread';
import type { Status } from '../transport/contract';
import type { MessageItem } from '../state/derive';
import type { ClientToolRunner } from '../lib/clientTools';
import { ThreadView } from './ThreadView';
import { Composer } from './Composer';
import { ClientToolPanel } from './ClientToolPanel';
import { markdownLoaded, preloadMarkdown, useMarkdownLoaded } from './MessageBody';
import { TransportContext } from '../transport';
import { toolDisplay, useMcpServers, type McpCatalog } from '../hooks/useMcpServers';
import './ChatView.css';

// Approval and question cards (with the diff view and the schema form) are
// not needed by an empty chat: loaded when a conversation is open.
const InterruptPanel = lazy(() => import('./InterruptPanel').then((m) => ({ default: m.InterruptPanel })));

export interface ChatViewProps {
  ctrl: ThreadController;
  title: string;
  status: Status | null;
  runner: ClientToolRunner;
  highlight: { messageId: string; nonce: number } | null;
  focusNonce: number;
  onOpenSettings: () => void;
}

function statusLine(ctrl: ThreadController, catalog: McpCatalog): string {
  const v = ctrl.view;
  switch (v.status) {
    case 'running': {
      const running = Object.values(ctrl.state.toolCalls).find((t) => t.state === 'running');
      // An MCP tool is named as its server names it, not everything__echo.
      if (running) return `Running ${toolDisplay(catalog, running.name).title}…`;
      return v.streaming ? 'Juncture is writing…' : 'Juncture is working…';
    }
    case 'awaiting-decisions': {
      // What still needs an answer: not answered, and still on Go's list of
      // what the run waits for (it keeps each answer as it is given).
      const waiting = new Set(v.waiting);
      const open = v.actionable.filter((c) => !v.answered.has(c.interrupt.id) && waiting.has(c.interrupt.id)).length;
      if (v.actionable.length <= 1) return 'Waiting for your decision';
      if (open === 0) return 'Continuing…';
      return `Waiting for ${open} ${open === 1 ? 'decision' : 'decisions'}`;
    }
    case 'error':
      // The failed answer says what happened (once, with a way to Settings).
      return '';
    default:
      return '';
  }
}

/** The open conversation: header, messages, pending decisions and the composer. */
export function ChatView({ ctrl, title, status, runner, highlight, focusNonce, onOpenSettings }: ChatViewProps) {
  const { view } = ctrl;
  const catalog = useMcpServers(useContext(TransportContext));
  // The controller's functions are stable; the object is not.
  const { send: ctrlSend, answer, noteAnswered, removeQueued, stop, reload, continueAnswer } = ctrl;
  const [editRequest, setEditRequest] = useState<{ text: string; nonce: number } | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const send = useCallback(
    async (text: string) => {
      setActionError(null);
      void preloadMarkdown().catch(() => {}); // the answer will be Markdown: load the renderer now
      await ctrlSend(text);
    },
    [ctrlSend],
  );

  // Continue grows the stopped answer in place: no message of yours.
  const onContinue = useCallback(() => {
    setActionError(null);
    void continueAnswer().catch((e: unknown) => setActionError(e instanceof Error ? e.message : String(e)));
  }, [continueAnswer]);

  const itemsRef = useRef(view.items);
  itemsRef.current = view.items;
  const onRegenerate = useCallback(
    (item: MessageItem) => {
      const items = itemsRef.current;
      const i = items.indexOf(item);
      for (let j = (i < 0 ? items.length : i) - 1; j >= 0; j--) {
        const m = items[j]!.message;
        if (m.role === 'user') {
          void ctrlSend(m.content).catch((e: unknown) => setActionError(e instanceof Error ? e.message : String(e)));
          return;
        }
      }
    },
    [ctrlSend],
  );

  const onEditLast = useCallback(() => {
    if (view.lastUserText !== null) setEditRequest({ text: view.lastUserText, nonce: Date.now() });
  }, [view.lastUserText]);

  // Results the client tool runner reported for this thread count as answers here too.
  const openThread = ctrl.threadId;
  useEffect(
    () =>
      runner.onAnswered((threadId, toolCallId, result) => {
        if (threadId === openThread) noteAnswered([toolCallId], result);
      }),
    [runner, openThread, noteAnswered],
  );

  // Opening a stored thread loads the Markdown renderer alongside GetThread
  // and shows "Loading…" until both are in, so its messages do not first
  // appear as plain text (only the first thread opened in a session waits).
  const opening = ctrl.threadId !== null && !ctrl.state.loaded;
  const [holdFor, setHoldFor] = useState<string | null>(null);
  if (opening && holdFor !== ctrl.threadId && !markdownLoaded()) setHoldFor(ctrl.threadId);
  const markdownReady = useMarkdownLoaded(holdFor !== null);
  const loading = opening || (holdFor !== null && holdFor === ctrl.threadId && !markdownReady);

  const line = statusLine(ctrl, catalog);
  const pendingNote = view.actionable.length
    ? 'Answer above · Stop cancels it · sending a message skips it'
    : null;
  const configured = status ? status.configured : true;

  return (
    <main className="chat" aria-label={title || 'New chat'}>
      <header className="chat-head">
        <h1 className="chat-title">{title || 'New chat'}</h1>
        <div className="chat-status" role="status" aria-live="polite">
          {line && (
            <span className={`chat-pill ${view.status}`}>
              {view.status === 'running' && <span className="chat-pill-dot" aria-hidden="true" />}
              {line}
            </span>
          )}
        </div>
        {status?.model && <span className="chat-model mono" title={status.endpoint}>{status.model}</span>}
      </header>
      {ctrl.loadError && (
        <div className="chat-banner error" role="alert">
          Could not open this conversation: {ctrl.loadError.message}{' '}
          <button type="button" className="btn small" onClick={reload}>
            Retry
          </button>
        </div>
      )}
      {loading && !ctrl.loadError ? (
        <div className="chat-loading" aria-busy="true">
          Loading…
        </div>
      ) : (
        <ThreadView
          threadId={ctrl.threadId}
          view={view}
          highlight={highlight}
          onContinue={onContinue}
          onRegenerate={onRegenerate}
          onEditLast={onEditLast}
          status={status}
          onOpenSettings={onOpenSettings}
        />
      )}
      <div className="chat-bottom">
        {ctrl.threadId && (
          <Suspense fallback={null}>
            <InterruptPanel
              threadId={ctrl.threadId}
              items={view.interrupts}
              runError={view.runError}
              answered={view.answered}
              waiting={view.waiting}
              onAnswer={answer}
            />
          </Suspense>
        )}
        {ctrl.threadId && view.clientTools.length > 0 && (
          <ClientToolPanel threadId={ctrl.threadId} tools={view.clientTools} runner={runner} />
        )}
        {actionError && (
          <p className="chat-banner error" role="alert">
            {actionError}
          </p>
        )}
        <Composer
          status={view.status}
          configured={configured}
          problem={status?.problem}
          onOpenSettings={onOpenSettings}
          queued={view.queued}
          onRemoveQueued={removeQueued}
          onSend={send}
          onStop={stop}
          pendingNote={pendingNote}
          editRequest={editRequest}
          focusNonce={focusNonce}
        />
      </div>
    </main>
  );
}

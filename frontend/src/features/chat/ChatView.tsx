import type { PendingFile } from '../../lib/attachments';
import { Suspense, lazy, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { ThreadController } from '../../hooks/useThread';
import type { Status, Thread } from '../../transport/contract';
import type { MessageItem, ThreadDerived } from '../../state/derive';
import type { ThreadState, UIMessage } from '../../state/types';
import { useRunEndStaged } from './useRunEndStaged';
import type { ClientToolRunner } from '../../lib/clientTools';
import { ThreadView } from './ThreadView';
import { ThreadHeader } from './ThreadHeader';
import { Composer } from './Composer';
import { ClientToolPanel } from './ClientToolPanel';
import { markdownLoaded, preloadMarkdown, useMarkdownLoaded } from './MessageBody';
import { MessageThreadContext, type MessageThread } from './Message';
import { priceFor, usePriceBook } from './UsageLine';
import { ThreadUsage } from './ThreadUsage';
import { Announcer } from '../../ui/Announcer';
import { TransportContext, toJunctureError } from '../../transport';
import { toolDisplay, useMcpServers, type McpCatalog } from '../../hooks/useMcpServers';
import type { SettingsTarget } from '../../lib/settingsTarget';
import './ChatView.css';
import { AlertLine } from '../../ui/AlertLine';

/** The version arrows' title in a read-only copy whose chat waits for decisions. */
const COPY_KEEPS_VERSION = 'A read-only copy shows the version that was chosen: decisions wait on it, and a copy cannot answer them';

// Approval and question cards (with the diff view and the schema form) are
// not needed by an empty chat: loaded when a conversation is open.
const InterruptPanel = lazy(() => import('../approvals/InterruptPanel').then((m) => ({ default: m.InterruptPanel })));

export interface ChatViewProps {
  ctrl: ThreadController;
  title: string;
  status: Status | null;
  runner: ClientToolRunner;
  highlight: { messageId: string; nonce: number } | null;
  focusNonce: number;
  onOpenSettings: (at?: SettingsTarget) => void;
  /** Says that an action failed (a toast); without it the banner above the composer does. */
  onActionError?: (what: string, e: unknown) => void;
}


function statusLine(shown: { state: ThreadState; view: ThreadDerived }, catalog: McpCatalog): string {
  const v = shown.view;
  switch (v.status) {
    case 'running': {
      const running = Object.values(shown.state.toolCalls).find((t) => t.state === 'running');
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

/** The answers that reported usage (what ThreadUsage prices), the same array while they stay the same. */
function usePricedAnswers(messages: readonly UIMessage[]): readonly UIMessage[] {
  const last = useRef<readonly UIMessage[]>([]);
  const now = messages.filter((m) => m.role === 'assistant' && m.usage);
  const prev = last.current;
  if (now.length !== prev.length || now.some((m, i) => m !== prev[i])) last.current = now;
  return last.current;
}

/** The open conversation: header, messages, pending decisions and the composer. */
export function ChatView({ ctrl, title, status, runner, highlight, focusNonce, onOpenSettings, onActionError }: ChatViewProps) {
  // What is shown follows the live state, but a run's end is staged: its
  // first frame shows only the composer's Send (useRunEndStaged). The
  // composer and what decides (Send, the queue, the pending note) read the live view.
  const live = ctrl.view;
  const shown = useRunEndStaged(ctrl.state, live);
  const { view } = shown;
  const transport = useContext(TransportContext);
  const catalog = useMcpServers(transport);
  // The controller's functions are stable; the object is not.
  const { send: ctrlSend, answer, noteAnswered, removeQueued, stop, reload, continueAnswer, open: ctrlOpen } = ctrl;
  const [actionError, setActionError] = useState<string | null>(null);
  const prices = usePriceBook(transport, status);
  // Bumped on send: the conversation shows the message and follows the answer.
  const [sentNonce, setSentNonce] = useState(0);

  const send = useCallback(
    async (text: string, files?: readonly PendingFile[]) => {
      setActionError(null);
      setSentNonce((n) => n + 1);
      void preloadMarkdown().catch(() => {}); // the answer will be Markdown: load the renderer now
      await ctrlSend(text, files);
    },
    [ctrlSend],
  );

  // Continue grows the stopped answer in place: no message of yours.
  const onContinue = useCallback(() => {
    setActionError(null);
    void continueAnswer().catch((e: unknown) => setActionError(e instanceof Error ? e.message : String(e)));
  }, [continueAnswer]);

  // Branches: an edit or a regenerate makes a new version next to the old
  // one and runs the model from there; the arrows switch versions. Each
  // is followed by juncture.path_changed, on which the view reloads.
  const threadId = ctrl.threadId;
  const threadRef = useRef(threadId);
  threadRef.current = threadId;
  const errorRef = useRef(onActionError);
  errorRef.current = onActionError;
  const report = useCallback((what: string, e: unknown) => {
    if (errorRef.current) errorRef.current(what, e);
    else setActionError(`${what}: ${toJunctureError(e).message}`);
  }, []);

  const onRegenerate = useCallback(
    (item: MessageItem) => {
      const id = threadRef.current;
      if (!transport || !id) return;
      setActionError(null);
      void preloadMarkdown().catch(() => {});
      transport.call('Regenerate', id, item.message.id).catch((e: unknown) => report('Could not regenerate', e));
    },
    [transport, report],
  );

  const onEdit = useCallback(
    async (messageId: string, text: string) => {
      const id = threadRef.current;
      if (!transport || !id) return;
      setActionError(null);
      void preloadMarkdown().catch(() => {});
      try {
        await transport.call('EditMessage', id, messageId, text);
      } catch (e) {
        throw toJunctureError(e); // the editor stays open and says why
      }
    },
    [transport],
  );

  const onSelectBranch = useCallback(
    (messageId: string) => {
      const id = threadRef.current;
      if (!transport || !id) return;
      // The view follows with juncture.path_changed; a refusal (something
      // waits for an answer on this version) is said, and nothing moves.
      transport.call('SelectBranch', id, messageId).catch((e: unknown) => report('Could not switch versions', e));
    },
    [transport, report],
  );

  const running = view.status === 'running';
  const endpointId = ctrl.state.thread?.options?.endpointId;
  // Images attached with "The model accepts images" off: one click turns it
  // on (kept here too, until the status event says so).
  const [imagesOn, setImagesOn] = useState(false);
  const chatModel = ctrl.state.thread?.options?.model || status?.model || '';
  const imagesAsk = useMemo(
    () =>
      transport
        ? {
            model: chatModel,
            onAllow: async () => {
              const cur = await transport.call('GetSettings');
              const saved = await transport.call('SaveSettings', { ...cur.settings, modelAcceptsImages: true });
              if (!saved.settings.modelAcceptsImages) throw new Error('The setting could not be turned on (it is set by the environment).');
              setImagesOn(true);
            },
          }
        : undefined,
    [transport, chatModel],
  );
  // A read-only copy of damaged data is for reading: what would write a
  // new version or grow an answer is not offered (Go refuses it anyway).
  // Its version arrows stay: Go shows another version of a copy without
  // writing it (the choice is held in the copy's memory, store/viewed.go).
  // Only where decisions wait are they held, as Go refuses to leave that
  // version until they are answered, which a copy cannot do.
  const readOnlyCopy = !!status?.readOnly;
  // As Go counts them (agent hasWaiting): an unbound item, whose call is gone, holds nothing.
  const decisionsWait = view.interrupts.some((i) => i.kind !== 'unbound') || view.clientTools.length > 0;
  const versionsHeld = readOnlyCopy && decisionsWait ? COPY_KEEPS_VERSION : undefined;
  const rowContext = useMemo<MessageThread>(
    () => ({
      running,
      threadId: threadId ?? undefined,
      onEdit: readOnlyCopy ? undefined : onEdit,
      onSelectBranch,
      versionsHeld,
      priceOf: (model) => priceFor(prices, model, endpointId),
    }),
    [running, threadId, onEdit, onSelectBranch, versionsHeld, prices, endpointId, readOnlyCopy],
  );

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

  // The header is memoized: while an answer streams (the messages change
  // every frame) its props stay the same objects. The streaming answer has
  // no usage yet, so the priced answers do not change with it.
  const onThreadCreated = useCallback((t: Thread) => ctrlOpen(t.id), [ctrlOpen]);
  const usage = shown.state.usage;
  const pricedAnswers = usePricedAnswers(shown.state.messages);
  const usageTotal = useMemo(
    () => (usage?.answers ? <ThreadUsage usage={usage} messages={pricedAnswers} prices={prices} endpointId={endpointId} /> : null),
    [usage, pricedAnswers, prices, endpointId],
  );

  const line = statusLine(shown, catalog);
  const pendingNote = live.actionable.length
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
        <ThreadHeader
          threadId={ctrl.threadId}
          options={ctrl.state.thread?.options}
          onThreadCreated={onThreadCreated}
          onChanged={reload}
          readOnly={!!status?.readOnly}
          usageTotal={usageTotal}
        />
      </header>
      <Announcer state={shown.state} />
      {ctrl.loadError && (
        <div className="chat-banner error" role="alert">
          Could not open this conversation: {ctrl.loadError.message}{' '}
          <button type="button" className="btn small" onClick={reload}>
            Retry
          </button>
        </div>
      )}
      {loading && !ctrl.loadError ? (
        // Keyed, as is chat-bottom: Preact matches an unkeyed child to an old
        // one of the same type anywhere among its siblings (React: at the
        // same place only), so this div, appearing as a chat loads, took over
        // chat-bottom's and the composer was mounted again (and took focus).
        <div key="loading" className="chat-loading" aria-busy="true">
          Loading…
        </div>
      ) : (
        <MessageThreadContext.Provider value={rowContext}>
          <ThreadView
            threadId={ctrl.threadId}
            view={view}
            highlight={highlight}
            onContinue={readOnlyCopy ? undefined : onContinue}
            onRegenerate={readOnlyCopy ? undefined : onRegenerate}
            status={status}
            onOpenSettings={onOpenSettings}
            followNonce={sentNonce}
          />
        </MessageThreadContext.Provider>
      )}
      <div key="bottom" className="chat-bottom">
        {/* Cards wait for the conversation above them: appearing first, they
            would be pushed down (and a focused one cut off) when it loads. */}
        {readOnlyCopy && ctrl.threadId && !loading && view.interrupts.length > 0 && (
          <p className="chat-banner" role="status">
            This chat was waiting for your decisions; they cannot be answered in a read-only copy.
          </p>
        )}
        {ctrl.threadId && !loading && !readOnlyCopy && (
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
        {ctrl.threadId && !loading && !readOnlyCopy && view.clientTools.length > 0 && (
          <ClientToolPanel threadId={ctrl.threadId} tools={view.clientTools} runner={runner} />
        )}
        <AlertLine className="chat-banner error" text={actionError} />
        {status?.saveProblem && (
          <p className="chat-banner error" role="alert">
            {status.saveProblem}
          </p>
        )}
        <Composer
          status={live.status}
          configured={configured}
          problem={status?.problem}
          onOpenSettings={onOpenSettings}
          queued={live.queued}
          onRemoveQueued={removeQueued}
          onSend={send}
          acceptsImages={status?.modelAcceptsImages === true || imagesOn}
          imagesAsk={imagesAsk}
          onStop={stop}
          pendingNote={pendingNote}
          focusNonce={focusNonce}
          readOnlyCopy={status?.readOnly}
        />
      </div>
    </main>
  );
}

import { toInput, toShown, type PendingFile } from '../lib/attachments';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { Transport } from '../transport';
import { toJunctureError, type JunctureError } from '../transport';
import type { AguiEvent } from '../transport/agui';
import type { AnswerBatch, AnswerResult, Thread } from '../transport/contract';
import { threadReducer } from '../state/threadReducer';
import { emptyThreadState, type ThreadState } from '../state/types';
import { EventBatcher } from '../state/batcher';
import { markStartupPainted } from '../lib/startupMarks';
import { deriveThread, type ThreadDerived } from '../state/derive';

export interface ThreadController {
  threadId: string | null;
  state: ThreadState;
  view: ThreadDerived;
  loadError: JunctureError | null;
  open: (id: string | null) => void;
  reload: () => void;
  /** Sends the person's message, with files (optional; the composer checked them). */
  send: (text: string, files?: readonly PendingFile[]) => Promise<void>;
  stop: () => Promise<void>;
  /** Continues the interrupted last answer in place. */
  continueAnswer: () => Promise<void>;
  removeQueued: (index: number) => Promise<void>;
  /**
   * Sends answers for the open thread in ONE `Answer` call (approvals,
   * questions, client tool results). Go keeps them and continues the run
   * once every pending item has one; until then the result lists what
   * still waits. Rejects with a JunctureError (`invalid-argument`,
   * `conflict` = too late) and nothing is lost.
   */
  answer: (batch: AnswerBatch) => Promise<AnswerResult>;
  /** An answer for these ids was accepted elsewhere in this window (the client tool runner). */
  noteAnswered: (ids: string[], result: AnswerResult) => void;
}

let localSeq = 0;

/**
 * The open thread: GetThread on open, live AG-UI events through the
 * per-frame batcher into the reducer, refetch after a reconnect or when the
 * reducer asks for a resync, and the actions that act on the thread.
 */
export function useThread(transport: Transport, onThreadCreated?: (t: Thread) => void): ThreadController {
  const [threadId, setThreadId] = useState<string | null>(null);
  const [state, dispatch] = useReducer(threadReducer, null, () => emptyThreadState(null));
  const [loadError, setLoadError] = useState<JunctureError | null>(null);
  const threadRef = useRef<string | null>(null);
  const loadingRef = useRef<{ id: string; pending: { event: AguiEvent; seq: number }[] } | null>(null);
  const stateRef = useRef(state);
  stateRef.current = state;
  const createdRef = useRef(onThreadCreated);
  createdRef.current = onThreadCreated;

  // A frame's events are committed in that frame (flushSync from the
  // animation frame callback): what streamed is painted in the frame it
  // arrived before, in one commit.
  const batcher = useMemo(() => new EventBatcher((events) => dispatch({ type: 'events', events }), undefined, flushSync), []);

  const load = useCallback(
    async (id: string, keepError = false) => {
      batcher.flush();
      const loading = { id, pending: [] as { event: AguiEvent; seq: number }[] };
      loadingRef.current = loading;
      try {
        // Browser mode: a snapshot taken before the event stream is open
        // could miss the events in between (a page just reloaded).
        if (transport.ready) await Promise.race([transport.ready(), new Promise((r) => setTimeout(r, 3000))]);
        const view = await transport.call('GetThread', id);
        if (loadingRef.current !== loading || threadRef.current !== id) return;
        loadingRef.current = null;
        setLoadError(null);
        // The view reflects every event up to view.eventSeq (the answer
        // being streamed included): only later events are applied to it.
        const after = loading.pending.filter((p) => !view.eventSeq || p.seq > view.eventSeq).map((p) => p.event);
        dispatch({ type: 'load', view, pending: after, keepError });
        markStartupPainted('thread'); // the first thread opened (the start-up bench)
      } catch (e) {
        if (loadingRef.current !== loading) return;
        loadingRef.current = null;
        setLoadError(toJunctureError(e));
        if (loading.pending.length) dispatch({ type: 'events', events: loading.pending.map((p) => p.event) });
      }
    },
    [transport, batcher],
  );

  const open = useCallback(
    (id: string | null, fresh?: Thread) => {
      threadRef.current = id;
      loadingRef.current = null;
      batcher.clear();
      setThreadId(id);
      setLoadError(null);
      dispatch({ type: 'reset', threadId: id, thread: fresh ?? null });
      if (id && !fresh) void load(id);
    },
    [batcher, load],
  );

  // Live events for the open thread.
  useEffect(() => {
    const offAgui = transport.subscribe('agui', ({ threadId: t, event, seq }) => {
      if (t !== threadRef.current) return;
      if (loadingRef.current) loadingRef.current.pending.push({ event, seq });
      else {
        batcher.push(event);
        // A run's end shows without waiting for the next animation frame.
        if (event.type === 'RUN_FINISHED' || event.type === 'RUN_ERROR') batcher.flush();
      }
    });
    const offQueue = transport.subscribe('queue', ({ threadId: t, queued }) => {
      if (t === threadRef.current) dispatch({ type: 'queue', queued });
    });
    // A path change outside a run (a branch switch, new instructions) is no
    // AG-UI event: it goes to the reducer as the juncture.path_changed a
    // run sends, in order with the rest, after any load in flight.
    const offPath = transport.subscribe('path', (p) => {
      if (p.threadId !== threadRef.current) return;
      const event: AguiEvent = { type: 'CUSTOM', name: 'juncture.path_changed', value: p };
      if (loadingRef.current) loadingRef.current.pending.push({ event, seq: Number.MAX_SAFE_INTEGER });
      else batcher.push(event);
    });
    const offConn = transport.subscribe('connection', ({ state: s }) => {
      // Events may have been missed while the stream was down.
      if (s === 'reconnected' && threadRef.current) void load(threadRef.current, true);
    });
    return () => {
      offAgui();
      offQueue();
      offPath();
      offConn();
      batcher.clear();
    };
  }, [transport, batcher, load]);

  // Resync once the run is quiet (after RUN_ERROR, deltas dropped around a
  // load, or answers finished live whose usage and branches only the store has).
  const resync = state.needsResync || state.needsRefresh;
  useEffect(() => {
    if (!resync || state.phase === 'running' || !threadRef.current || loadingRef.current) return;
    dispatch({ type: 'resynced' });
    void load(threadRef.current, true);
  }, [resync, state.phase, load]);

  // The run paused with answers finished live: read their stored usage
  // now (only that; what waits is left alone). A load in flight brings it.
  useEffect(() => {
    const id = threadRef.current;
    if (!state.needsDetails || !id || loadingRef.current) return;
    dispatch({ type: 'detailsAsked' });
    transport.call('GetThread', id).then(
      (view) => {
        if (threadRef.current === id && !loadingRef.current) dispatch({ type: 'details', view });
      },
      () => undefined, // the next load brings it
    );
  }, [state.needsDetails, transport]);

  // The active path changed (juncture.path_changed): reload now, mid-run
  // too; the exact load applies what streams after the view.
  useEffect(() => {
    if (!state.needsReload || !threadRef.current) return;
    dispatch({ type: 'reloaded' });
    if (!loadingRef.current) void load(threadRef.current);
  }, [state.needsReload, load]);

  const send = useCallback(
    async (raw: string, files?: readonly PendingFile[]) => {
      const text = raw.trim();
      if (!text && !files?.length) return;
      let id = threadRef.current;
      if (!id) {
        const t = await transport.call('NewThread', '');
        open(t.id, t);
        createdRef.current?.(t);
        id = t.id;
      }
      const s = stateRef.current;
      // While a turn runs the input is queued (shown as a chip). While
      // decisions wait, Go starts a new turn at once (the pending calls are
      // answered "not run"), so the message is shown right away.
      const busy = s.threadId === id && s.phase === 'running';
      let localId: string | null = null;
      if (!busy) {
        localId = `local-${++localSeq}`;
        dispatch({ type: 'localUser', id: localId, text, createdAt: Date.now(), attachments: files?.map(toShown) });
      }
      try {
        const r = files?.length ? await transport.call('SendInput', id, text, files.map(toInput)) : await transport.call('SendInput', id, text);
        if (r.queued && localId) dispatch({ type: 'dropLocal', id: localId });
      } catch (e) {
        if (localId) dispatch({ type: 'dropLocal', id: localId });
        throw toJunctureError(e);
      }
    },
    [transport, open],
  );

  const withThread = useCallback(
    async <T,>(fn: (id: string) => Promise<T>): Promise<T | undefined> => {
      const id = threadRef.current;
      if (!id) return undefined;
      try {
        return await fn(id);
      } catch (e) {
        throw toJunctureError(e);
      }
    },
    [],
  );

  // Stop shows at once when only text streams (state/runEvents stopShown):
  // what arrived is applied first, then the answer ends in the frame after
  // the key; the runtime's cancelled RUN_FINISHED confirms it.
  const stop = useCallback(async () => {
    const id = threadRef.current;
    if (!id) return;
    batcher.flush();
    dispatch({ type: 'stopping' });
    try {
      await transport.call('Interrupt', id);
    } catch (e) {
      dispatch({ type: 'stopFailed', threadId: id });
      throw toJunctureError(e);
    }
  }, [transport, batcher]);

  const continueAnswer = useCallback(async () => {
    await withThread((id) => transport.call('ContinueAnswer', id));
  }, [transport, withThread]);

  const removeQueued = useCallback(
    async (index: number) => {
      await withThread((id) => transport.call('RemoveQueued', id, index));
    },
    [transport, withThread],
  );

  const answer = useCallback(
    async (batch: AnswerBatch): Promise<AnswerResult> => {
      const id = threadRef.current;
      if (!id) throw toJunctureError(new Error('No conversation is open.'));
      let r: AnswerResult;
      try {
        r = await transport.call('Answer', id, batch);
      } catch (e) {
        throw toJunctureError(e);
      }
      if (threadRef.current === id) {
        const ids = [...batch.answers.map((a) => a.interruptId), ...batch.clientResults.map((c) => c.toolCallId)];
        dispatch({ type: 'answered', ids, result: r });
      }
      return r;
    },
    [transport],
  );

  const noteAnswered = useCallback((ids: string[], result: AnswerResult) => {
    dispatch({ type: 'answered', ids, result });
  }, []);

  const reload = useCallback(() => {
    if (threadRef.current) void load(threadRef.current, true);
  }, [load]);

  const view = deriveThread(state);

  return {
    threadId,
    state,
    view,
    loadError,
    open,
    reload,
    send,
    stop,
    continueAnswer,
    removeQueued,
    answer,
    noteAnswered,
  };
}

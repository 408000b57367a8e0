// Run lifecycle events (start, finish, error) and the Juncture CUSTOM events
// (live tool states, stop, message errors).

import type { AguiEvent } from '../transport/agui';
import { isObject, optStr, str } from '../transport/json';
import { parseMessageErrorEvent, parseStoppedEvent, parseToolStateEvent, type ToolState } from '../transport/contract';
import { Draft, newMessage } from './draft';
import { classifyInterrupt } from './interrupts';
import { expectClientTools, recordClientTool, stubTool } from './toolEvents';
import type { RunError, ThreadState } from './types';

function finishStreaming(d: Draft, to: 'complete' | 'interrupted'): void {
  const ms = d.s.messages;
  for (let i = 0; i < ms.length; i++) {
    const m = ms[i]!;
    if (m.status === 'streaming' || m.placeholder || m.reasoningStreaming) {
      const c = d.msgAt(i);
      if (c.status === 'streaming') c.status = to;
      c.placeholder = false;
      c.reasoningStreaming = false;
    }
  }
}

function parseRunError(e: Extract<AguiEvent, { type: 'RUN_ERROR' }>): RunError {
  const itemErrors: Record<string, string> = {};
  const tanstack = e.metadata && isObject(e.metadata.tanstack) ? e.metadata.tanstack : undefined;
  const list = tanstack && Array.isArray(tanstack.interruptErrors) ? tanstack.interruptErrors : [];
  for (const it of list) {
    if (!isObject(it)) continue;
    const id = optStr(it, 'interruptId');
    const msg = str(it, 'message');
    if (id && msg) itemErrors[id] = itemErrors[id] ? `${itemErrors[id]} ${msg}` : msg;
  }
  const err: RunError = { message: e.message, itemErrors };
  if (e.code) err.code = e.code;
  return err;
}

/** States of a call that a cancelled run leaves open (Go names each call's fate; this is the fallback). */
const OPEN_STATES: ReadonlySet<ToolState> = new Set(['running', 'awaiting-approval', 'awaiting-answer']);

/**
 * Stop as the person sees it: while the model streams text and no tool call
 * of the run is open, the answer shows stopped (its mark, the composer's
 * Send) in the frame after the key, not after the round trip through the
 * runtime; the runtime ends such a run at once (agent.Runtime.InterruptVia)
 * and its cancelled RUN_FINISHED follows. Input sent meanwhile queues behind
 * the ending run, as the runtime guarantees. runId stays until that event
 * (it names the run whose open calls it settles). A run with a tool call
 * open, or waiting on the person, is left to the runtime: a tool that must
 * complete can take a while.
 */
export function stopShown(state: ThreadState): ThreadState {
  if (state.phase !== 'running' || hasOpenCall(state)) return state;
  const d = new Draft(state);
  finishStreaming(d, 'interrupted');
  d.s.phase = 'idle';
  return d.s;
}

/** States of a call that is over: a Stop has nothing of it to wait for. */
const CLOSED_STATES: ReadonlySet<ToolState> = new Set(['done', 'failed', 'denied', 'interrupted', 'interrupted-mid-run']);

/** Whether a tool call of the current run is open (not over). */
function hasOpenCall(state: ThreadState): boolean {
  for (const t of Object.values(state.toolCalls)) {
    if (t.result !== undefined || (t.state && CLOSED_STATES.has(t.state))) continue;
    if (state.runId && t.runId && t.runId !== state.runId) continue;
    return true;
  }
  return false;
}

/** Shown stopped (stopShown), and the runtime has not confirmed it yet. */
function shownStopped(state: ThreadState): boolean {
  return state.phase === 'idle' && state.runId !== null;
}

/**
 * After a batch: a run shown stopped whose tool call started anyway (the
 * model's stream had ended in it before the Interrupt landed, and the
 * runtime lets a MustComplete tool finish) shows running again, so the
 * person sees the tool run and keeps Stop, not a Send that only queues.
 */
export function reopenIfCallRuns(d: Draft): void {
  if (shownStopped(d.s) && hasOpenCall(d.s)) d.s.phase = 'running';
}

type RunEvent = Extract<AguiEvent, { type: 'RUN_STARTED' | 'RUN_FINISHED' | 'RUN_ERROR' }>;

/**
 * The unbound items shown now: they belong to someone else, so a new run
 * (new input, Stop) never clears them; only a fresh GetThread does.
 */
function unboundNow(d: Draft) {
  return d.s.interrupts.filter((it) => classifyInterrupt(it, d.s.toolCalls).kind === 'unbound');
}

export function applyRunEvent(d: Draft, e: RunEvent): void {
  switch (e.type) {
    case 'RUN_STARTED':
      d.s.phase = 'running';
      d.s.runId = e.runId || null;
      d.s.runError = null;
      d.s.interrupts = unboundNow(d);
      d.s.clientTools = [];
      d.s.answered = [];
      d.s.waiting = null;
      return;
    case 'RUN_FINISHED': {
      const cancelled = e.outcome.type === 'cancelled';
      if (!cancelled && shownStopped(d.s)) {
        // The run ended on its own before the Interrupt landed (the runtime
        // ignores it then): what stopShown marked stopped is complete.
        const ms = d.s.messages;
        for (let i = 0; i < ms.length; i++) {
          if (ms[i]!.status === 'interrupted' && ms[i]!.runId === d.s.runId) d.msgAt(i).status = 'complete';
        }
      }
      finishStreaming(d, cancelled ? 'interrupted' : 'complete');
      if (cancelled) {
        // Go reports each call's fate with juncture.tool_state; this is the
        // fallback for calls left without one.
        for (const t of Object.values(d.s.toolCalls)) {
          if (t.result !== undefined || (t.state && !OPEN_STATES.has(t.state))) continue;
          if (d.s.runId && t.runId && t.runId !== d.s.runId) continue;
          const c = d.tool(t.id);
          if (c) c.state = t.state === 'running' ? 'interrupted-mid-run' : 'interrupted';
        }
      }
      d.s.runError = null;
      d.s.runId = null;
      d.s.answered = [];
      d.s.waiting = null;
      if (e.outcome.type === 'interrupt') {
        d.s.phase = 'awaiting';
        const ids = new Set(e.outcome.interrupts.map((it) => it.id));
        d.s.interrupts = [...unboundNow(d).filter((it) => !ids.has(it.id)), ...e.outcome.interrupts];
      } else {
        d.s.phase = 'idle';
        d.s.interrupts = unboundNow(d);
      }
      if (e.outcome.type === 'success') {
        let ids = e.outcome.pendingToolCallIds;
        if (!ids.length) {
          ids = Object.values(d.s.toolCalls)
            .filter((t) => t.state === 'pending-client' && t.result === undefined)
            .map((t) => t.id);
        }
        expectClientTools(d, ids);
      }
      // What only the store has (usage, branches) is fetched once the turn
      // is over; not while something waits (the continuation's end does it).
      const pending = d.s.messages.some((m) => m.detailsPending && !m.local);
      if (e.outcome.type !== 'interrupt' && !d.s.clientTools.length && pending) {
        d.s.needsRefresh = true;
      } else if (pending) {
        // The steps before the pause are stored whole: their usage shows
        // now, as after a reload (threadReducer 'details').
        d.s.needsDetails = true;
      }
      return;
    }
    case 'RUN_ERROR':
      finishStreaming(d, 'complete');
      d.s.phase = 'error';
      d.s.runError = parseRunError(e);
      d.s.runId = null;
      d.s.needsResync = true;
      return;
  }
}

export function applyCustom(d: Draft, name: string, value: unknown, ts: number): void {
  if (!isObject(value)) return;
  switch (name) {
    case 'juncture.tool_state': {
      const ev = parseToolStateEvent(value);
      if (!ev) return;
      const t = stubTool(d, ev.toolCallId);
      t.state = ev.state;
      // Progress belongs to the running call: a later report replaces it,
      // any other state (the final one included) ends it.
      if (ev.state === 'running') {
        if (ev.progress) t.progress = ev.progress;
        if (ev.allowedBy) t.allowedBy = ev.allowedBy;
        if (ev.edited && ev.arguments !== undefined) {
          // What runs is what the person edited, not the model's original.
          t.args = ev.arguments;
          t.argsComplete = true;
          t.edited = true;
        }
      } else if (t.progress) delete t.progress;
      if (ev.parts?.length) t.parts = ev.parts;
      if (ev.state === 'failed') t.isError = true;
      if (ev.toolName && !t.name) t.name = ev.toolName;
      if (ev.state === 'pending-client') {
        // The window runs exactly what the runtime recorded (approved, maybe
        // edited); a record without arguments is fetched with GetThread.
        if (ev.arguments !== undefined) {
          recordClientTool(d, { toolCallId: ev.toolCallId, toolName: ev.toolName, arguments: ev.arguments, edited: ev.edited });
        } else {
          expectClientTools(d, [ev.toolCallId]);
        }
      }
      return;
    }
    case 'juncture.stopped': {
      const stopped = parseStoppedEvent(value);
      if (!stopped) return;
      const dropped = stopped.droppedToolCallIds;
      const mid = stopped.messageId;
      let m = mid ? d.msg(mid) : null;
      if (!m) {
        const ms = d.s.messages;
        for (let i = ms.length - 1; i >= 0; i--) {
          if (ms[i]!.role === 'user') break;
          if (ms[i]!.role === 'assistant' && ms[i]!.status === 'streaming') {
            m = d.msgAt(i);
            break;
          }
        }
      }
      if (m) {
        m.status = 'interrupted';
        m.placeholder = false;
        m.reasoningStreaming = false;
      }
      if (dropped.length) {
        const drop = new Set(dropped);
        for (const id of dropped) {
          const t = d.s.toolCalls[id];
          const owner = t ? d.msg(t.messageId) : m;
          if (owner) owner.toolCallIds = owner.toolCallIds.filter((x) => !drop.has(x));
          d.deleteTool(id);
        }
        if (d.s.clientTools.some((c) => drop.has(c.toolCallId))) {
          d.s.clientTools = d.s.clientTools.filter((c) => !drop.has(c.toolCallId));
        }
      }
      return;
    }
    case 'juncture.message_error': {
      const me = parseMessageErrorEvent(value);
      if (!me) return;
      const id = me.messageId;
      const error = me.error || 'The model endpoint returned an error.';
      let m = id ? d.msg(id) : null;
      if (!m) m = d.push(newMessage(id || `error-${ts}`, 'assistant', ts, d.s.runId));
      m.status = 'error';
      m.error = error;
      m.placeholder = false;
      m.reasoningStreaming = false;
      return;
    }
    case 'juncture.path_changed': {
      // A branch switch, an edit or a regenerate: the messages shown are
      // another path now. The view is reloaded (exactly, so what streams
      // next is neither lost nor doubled); until then the stream goes on.
      const tid = optStr(value, 'threadId');
      if (tid && d.s.threadId && tid !== d.s.threadId) return;
      d.s.needsReload = true;
      return;
    }
    default:
      return;
  }
}

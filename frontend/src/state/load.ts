// Loading a thread from GetThread's ThreadView, and merging it with what
// the live stream already showed and with the events that arrived while
// GetThread was in flight.
//
// GetThread reads the store: a message being streamed is there as a
// checkpoint (status "streaming", text up to ~200 ms old, no tool calls) or
// not at all yet. Events that arrive while the call is in flight are
// buffered and handed to `loadView`, which applies exactly those the
// snapshot does not already contain:
// - a message the live stream showed from its START keeps its live text
//   (the snapshot is only an older prefix of it) and the buffered deltas
//   continue it;
// - a streaming message known only from the snapshot takes the buffered
//   deltas after their overlap with the checkpoint's end;
// - messages and tool calls of the running turn that the snapshot does not
//   have yet are kept from the live view;
// - deltas for messages the snapshot has as finished are already in it.
// Whenever a gap cannot be ruled out, a resync is requested for the next
// quiet point (the stored messages then replace the view).

import type { AguiEvent } from '../transport/agui';
import type { Message, ThreadView } from '../transport/contract';
import { reduceEvents } from './reduceEvents';
import {
  INTERRUPT_MARKER,
  emptyThreadState,
  type BranchInfo,
  type ThreadState,
  type TokenUsage,
  type ToolCallView,
  type UIMessage,
} from './types';

/** Builds the state from GetThread's ThreadView. */
export function stateFromView(view: ThreadView, prev?: ThreadState): ThreadState {
  const s = emptyThreadState(view.thread.id, view.thread);
  s.loaded = true;
  const tools: Record<string, ToolCallView> = {};
  const messages: UIMessage[] = [];
  const results = new Map<string, Message>();
  for (const m of view.messages) if (m.role === 'tool' && m.toolCallId) results.set(m.toolCallId, m);
  const known = new Set<string>();
  for (const m of view.messages) for (const c of m.toolCalls ?? []) known.add(c.id);
  for (const m of view.messages) {
    if (m.role === 'tool' && m.toolCallId && known.has(m.toolCallId)) continue;
    const u: UIMessage = {
      id: m.id,
      role: m.role,
      content: m.content,
      reasoning: m.reasoning ?? '',
      reasoningStreaming: false,
      toolCallIds: (m.toolCalls ?? []).map((c) => c.id),
      status: m.status,
      createdAt: m.createdAt,
    };
    if (m.runId) u.runId = m.runId;
    if (m.error) u.error = m.error;
    if (m.role === 'tool' && m.toolCallId) u.toolCallId = m.toolCallId;
    if (m.parentId) u.parentId = m.parentId;
    if (m.branch && m.branch.count > 1) u.branch = m.branch;
    if (m.usage) u.usage = m.usage;
    if (m.model) u.model = m.model;
    if (m.attachments?.length) u.attachments = m.attachments;
    // A checkpoint of the answer being streamed: its usage comes when it is stored whole.
    if (m.status === 'streaming') u.detailsPending = true;
    if (m.role === 'assistant' && m.status === 'complete' && m.content.endsWith(INTERRUPT_MARKER)) u.status = 'interrupted';
    for (const c of m.toolCalls ?? []) {
      const t: ToolCallView = { id: c.id, name: c.name, args: c.arguments, argsComplete: true, messageId: m.id };
      const ran = view.editedArgs[c.id];
      if (ran !== undefined) {
        t.args = ran;
        t.edited = true;
      }
      if (m.runId) t.runId = m.runId;
      const r = results.get(c.id);
      if (r) {
        t.result = r.content;
        if (r.isError) t.isError = true;
        if (r.parts?.length) t.parts = r.parts;
      }
      // Go's state is authoritative (denied, dismissed and interrupted calls
      // are errors to the model but not "failed"); derive only without one.
      const st = view.toolStates[c.id] ?? r?.toolState;
      if (st) t.state = st;
      else if (r) t.state = r.isError ? 'failed' : 'done';
      tools[c.id] = t;
    }
    messages.push(u);
  }
  s.messages = messages;
  s.toolCalls = tools;
  s.usage = view.usage;
  s.queued = view.queued;
  s.interrupts = view.interrupts;
  s.answered = view.answered;
  s.clientTools = view.clientTools
    .filter((c) => c.state === 'pending')
    .map((c) => ({ toolCallId: c.toolCallId, toolName: c.toolName, arguments: c.arguments || '{}', restored: true }));
  for (const c of s.clientTools) {
    const t = tools[c.toolCallId];
    if (t && !t.state) t.state = 'pending-client';
  }
  s.phase = view.interrupts.length ? 'awaiting' : view.running ? 'running' : 'idle';
  if (prev?.runError && !view.running) {
    s.runError = prev.runError;
    if (!view.interrupts.length) s.phase = 'error';
  }
  return s;
}

const sameStrings = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

function sameBranch(a: BranchInfo | undefined, b: BranchInfo | undefined): boolean {
  if (a === b) return true;
  return !!a && !!b && a.index === b.index && a.count === b.count && sameStrings(a.siblings, b.siblings);
}

function sameUsage(a: TokenUsage | undefined, b: TokenUsage | undefined): boolean {
  if (a === b) return true;
  return !!a && !!b && a.promptTokens === b.promptTokens && a.completionTokens === b.completionTokens && a.totalTokens === b.totalTokens;
}

/** The fields a message's row shows, all equal (the load's messages have no others). */
function sameMessage(a: UIMessage, b: UIMessage): boolean {
  return (
    a.content === b.content &&
    a.status === b.status &&
    a.role === b.role &&
    a.reasoning === b.reasoning &&
    a.reasoningStreaming === b.reasoningStreaming &&
    a.createdAt === b.createdAt &&
    a.error === b.error &&
    a.runId === b.runId &&
    a.toolCallId === b.toolCallId &&
    a.parentId === b.parentId &&
    a.model === b.model &&
    sameAttachments(a.attachments, b.attachments) &&
    !a.local &&
    !a.placeholder &&
    !a.partial &&
    !a.detailsPending &&
    sameStrings(a.toolCallIds, b.toolCallIds) &&
    sameBranch(a.branch, b.branch) &&
    sameUsage(a.usage, b.usage)
  );
}

/** Equal records: the same values, arrays and small objects compared by content. */
function sameRecord(a: object, b: object): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of ka) {
    const x = ra[k];
    const y = rb[k];
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  return true;
}

/**
 * Keeps the objects of the previous state for messages and tool calls the
 * load left as they were, so their rows keep their identity (derive's cache
 * and React.memo skip them): a branch switch or a refresh re-renders only
 * what changed.
 */
function keepUnchanged(prev: ThreadState, s: ThreadState): void {
  if (prev.threadId !== s.threadId || !prev.messages.length) return;
  let byId: Map<string, UIMessage> | null = null; // only when the order differs
  s.messages = s.messages.map((m, i) => {
    let p = prev.messages[i];
    if (!p || p.id !== m.id) p = (byId ??= new Map(prev.messages.map((x) => [x.id, x]))).get(m.id);
    return p && sameMessage(p, m) ? p : m;
  });
  for (const [id, loaded] of Object.entries(s.toolCalls)) {
    const p = prev.toolCalls[id];
    let t = loaded;
    // Which remembered rule let a call run is said live (juncture.tool_state)
    // and not part of the view: a refresh of the same thread keeps it.
    if (p?.allowedBy && !t.allowedBy) s.toolCalls[id] = t = { ...t, allowedBy: p.allowedBy };
    if (p && p !== t && sameRecord(p, t)) s.toolCalls[id] = p;
  }
}

/** Longest k such that `a` ends with the first k characters of `b`. */
export function overlap(a: string, b: string): number {
  for (let k = Math.min(a.length, b.length); k > 0; k--) if (a.endsWith(b.slice(0, k))) return k;
  return 0;
}

function textDeltaId(e: AguiEvent): string | undefined {
  if (e.type === 'TEXT_MESSAGE_CONTENT') return e.messageId;
  if (e.type === 'TEXT_MESSAGE_CHUNK') return e.messageId;
  return undefined;
}

function reasoningDeltaId(e: AguiEvent): string | undefined {
  if (e.type === 'REASONING_MESSAGE_CONTENT') return e.messageId;
  if (e.type === 'REASONING_MESSAGE_CHUNK') return e.messageId;
  return undefined;
}

function toolDeltaId(e: AguiEvent): string | undefined {
  if (e.type === 'TOOL_CALL_ARGS') return e.toolCallId;
  if (e.type === 'TOOL_CALL_CHUNK') return e.toolCallId;
  return undefined;
}

/**
 * The state after a GetThread load: the view, merged with the live state
 * `prev` (same thread, turn still running) and the events `pending` that
 * arrived while the call was in flight.
 */
export function loadView(prev: ThreadState, view: ThreadView, pending: readonly AguiEvent[], keepError: boolean): ThreadState {
  if (view.eventSeq) return loadExact(prev, view, pending, keepError);
  const s = stateFromView(view, keepError ? prev : undefined);
  const same = prev.threadId === view.thread.id;
  let resync = false;
  /** Messages whose text continues exactly with the buffered deltas. */
  const exact = new Set<string>();
  /** Streaming messages known only from the checkpoint: text to overlap. */
  const fromCheckpoint = new Map<string, UIMessage>();
  const live = new Map(same ? prev.messages.map((m) => [m.id, m]) : []);
  const snapIds = new Set(s.messages.map((m) => m.id));
  const carriedTools = new Set<string>();

  const carryTools = (m: UIMessage) => {
    for (const id of m.toolCallIds) {
      const t = prev.toolCalls[id];
      if (t && !s.toolCalls[id]) {
        s.toolCalls[id] = t;
        carriedTools.add(id);
      }
    }
  };

  s.messages = s.messages.map((m) => {
    if (m.status !== 'streaming') return m;
    const p = live.get(m.id);
    if (p && !p.partial && !p.local && p.content.startsWith(m.content)) {
      // Seen live from its START: the live text is exact and newer.
      const u: UIMessage = { ...m, content: p.content, status: p.status, reasoningStreaming: p.reasoningStreaming };
      if (p.reasoning.startsWith(m.reasoning)) u.reasoning = p.reasoning;
      const ids = [...m.toolCallIds];
      for (const id of p.toolCallIds) if (!ids.includes(id)) ids.push(id);
      u.toolCallIds = ids;
      carryTools(u);
      exact.add(m.id);
      return u;
    }
    const u: UIMessage = { ...m };
    if (p) {
      u.toolCallIds = [...new Set([...m.toolCallIds, ...p.toolCallIds])];
      carryTools(u);
      if (p.partial) u.partial = true; // resolved below by the overlap
    }
    fromCheckpoint.set(m.id, u);
    resync = true;
    return u;
  });

  if (same && view.running) {
    // The running turn's messages the store does not have yet.
    for (const p of prev.messages) {
      if (snapIds.has(p.id) || p.local) continue;
      const current = p.status === 'streaming' || p.placeholder || (prev.runId !== null && p.runId === prev.runId);
      if (!current) continue;
      s.messages.push(p);
      carryTools(p);
      if (p.partial) resync = true;
      else exact.add(p.id);
    }
    if (prev.phase === 'running' && prev.runId) s.runId = prev.runId;
    const kept = new Set(s.messages.map((m) => m.id));
    const rt: Record<string, string> = {};
    for (const [k, v] of Object.entries(prev.reasoningTarget)) if (kept.has(v)) rt[k] = v;
    s.reasoningTarget = rt;
    s.lastTextChunkId = prev.lastTextChunkId;
    s.lastReasoningChunkId = prev.lastReasoningChunkId;
    s.lastToolChunkId = prev.lastToolChunkId;
  }

  // Overlap checkpointed text with what came live (a partial message's
  // text, then the buffered deltas): skip what the checkpoint already has.
  const skip = new Map<string, number>();
  for (const [id, m] of fromCheckpoint) {
    const p = live.get(id);
    const head = p?.partial ? p.content : '';
    let rest = '';
    for (const e of pending) if (textDeltaId(e) === id && 'delta' in e) rest += e.delta;
    const k = overlap(m.content, head + rest);
    if (head) {
      if (k > 0) {
        m.content += head.slice(k);
        delete m.partial;
      } else m.content += head;
    }
    skip.set(id, Math.max(0, k - head.length));
  }

  const snapMsg = new Map(s.messages.map((m) => [m.id, m]));
  const keep: AguiEvent[] = [];
  for (const e of pending) {
    const tid = textDeltaId(e);
    if (tid !== undefined) {
      const id = tid;
      if (snapMsg.has(id) && !exact.has(id)) {
        if (!fromCheckpoint.has(id)) continue; // finished in the store: already contained
        const n = skip.get(id) ?? 0;
        if (n > 0 && 'delta' in e) {
          const cut = Math.min(n, e.delta.length);
          skip.set(id, n - cut);
          if (cut === e.delta.length) continue;
          keep.push({ ...e, delta: e.delta.slice(cut) });
          continue;
        }
      }
      keep.push(e);
      continue;
    }
    const rid = reasoningDeltaId(e);
    if (rid !== undefined) {
      const target = s.reasoningTarget[rid] ?? rid;
      if (snapMsg.has(target) && !exact.has(target)) {
        resync = true;
        continue;
      }
      keep.push(e);
      continue;
    }
    const cid = toolDeltaId(e);
    if (cid !== undefined && cid in s.toolCalls && !carriedTools.has(cid)) {
      // The store only has complete arguments.
      continue;
    }
    keep.push(e);
  }
  keepUnchanged(prev, s);
  const next = reduceEvents(s, keep);
  return resync && !next.needsResync ? { ...next, needsResync: true } : next;
}

/**
 * The load when the view says which events it reflects (`eventSeq`, every
 * Juncture since snapshots carry the answer being streamed): the view is
 * exact up to there, `pending` holds only the events after it (useThread
 * filters by seq), and their deltas merge by offset. The live view before
 * the load adds nothing: it is older than the snapshot.
 */
function loadExact(prev: ThreadState, view: ThreadView, pending: readonly AguiEvent[], keepError: boolean): ThreadState {
  const s = stateFromView(view, keepError ? prev : undefined);
  for (const m of s.messages) {
    if (m.status !== 'streaming' || m.role !== 'assistant') continue;
    // The answer's reasoning streams under "<id>-reasoning" (agent/stream.go).
    s.reasoningTarget = { ...s.reasoningTarget, [`${m.id}-reasoning`]: m.id };
    m.reasoningStreaming = m.content === '' && m.toolCallIds.length === 0 && m.reasoning !== '';
    for (const id of m.toolCallIds) {
      const t = s.toolCalls[id];
      if (t) s.toolCalls[id] = { ...t, argsComplete: false };
    }
  }
  const local = prev.threadId === view.thread.id ? prev.messages.filter((m) => m.local && !s.messages.some((x) => x.id === m.id)) : [];
  if (local.length) s.messages = [...s.messages, ...local];
  keepUnchanged(prev, s);
  return pending.length ? reduceEvents(s, pending) : s;
}

/** The same files, by id, in the same order. */
function sameAttachments(a: readonly { id: string }[] | undefined, b: readonly { id: string }[] | undefined): boolean {
  if (!a?.length || !b?.length) return !a?.length && !b?.length;
  return a.length === b.length && a.every((x, i) => x.id === b[i]?.id);
}

/**
 * What only the store has (usage, model, branch) of the answers finished
 * live, from a view read while the run waits (an approval, a client
 * tool): only messages the view has whole take it; nothing else changes,
 * so the waiting cards and the answers given so far stay as they are.
 */
export function mergeDetails(state: ThreadState, view: ThreadView): ThreadState {
  const stored = new Map(view.messages.map((m) => [m.id, m]));
  let changed = false;
  const messages = state.messages.map((m) => {
    const v = m.detailsPending && !m.local && m.status !== 'streaming' ? stored.get(m.id) : undefined;
    if (!v || v.status === 'streaming') return m;
    changed = true;
    const u: UIMessage = { ...m };
    delete u.detailsPending;
    if (v.usage) u.usage = v.usage;
    if (v.model) u.model = v.model;
    if (v.parentId) u.parentId = v.parentId;
    if (v.branch && v.branch.count > 1) u.branch = v.branch;
    if (v.attachments?.length) u.attachments = v.attachments;
    return u;
  });
  return changed ? { ...state, messages, usage: view.usage } : state;
}

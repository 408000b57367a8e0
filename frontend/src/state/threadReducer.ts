// ONE reducer for a thread's AG-UI event stream (agui-1.0.md) plus the
// Juncture CUSTOM events and the ThreadView snapshot from GetThread.
//
// A batch of events is applied to a copy-on-write draft: the messages array
// and each touched message are copied once per batch, so a frame's worth of
// deltas costs O(messages + deltas), not O(messages × deltas).

import type { AguiEvent, AguiMessage } from '../transport/agui';
import { isObject, isString, isStringArray, optStr, str } from '../transport/json';
import { isToolState, type Message, type ThreadView, type ToolState } from '../transport/contract';
import {
  INTERRUPT_MARKER,
  emptyThreadState,
  type PendingClientTool,
  type RunError,
  type ThreadAction,
  type ThreadState,
  type ToolCallView,
  type UIMessage,
} from './types';

const TERMINAL_TOOL_STATES: ReadonlySet<ToolState> = new Set(['failed', 'denied', 'interrupted', 'interrupted-mid-run']);

class Draft {
  readonly s: ThreadState;
  private msgsCopied = false;
  private toolsCopied = false;
  private touchedMsgs = new Set<UIMessage>();
  private touchedTools = new Set<ToolCallView>();

  constructor(prev: ThreadState) {
    this.s = { ...prev };
  }

  now(e: { timestamp?: number }): number {
    return e.timestamp ?? Date.now();
  }

  private ensureMsgs(): void {
    if (!this.msgsCopied) {
      this.s.messages = this.s.messages.slice();
      this.msgsCopied = true;
    }
  }

  private ensureTools(): void {
    if (!this.toolsCopied) {
      this.s.toolCalls = { ...this.s.toolCalls };
      this.toolsCopied = true;
    }
  }

  /** Index of a message, searching from the end (live events hit recent messages). */
  indexOf(id: string): number {
    const ms = this.s.messages;
    for (let i = ms.length - 1; i >= 0; i--) if (ms[i]!.id === id) return i;
    return -1;
  }

  msgAt(i: number): UIMessage {
    this.ensureMsgs();
    const m = this.s.messages[i]!;
    if (this.touchedMsgs.has(m)) return m;
    const copy: UIMessage = { ...m, toolCallIds: m.toolCallIds };
    this.s.messages[i] = copy;
    this.touchedMsgs.add(copy);
    return copy;
  }

  msg(id: string): UIMessage | null {
    const i = this.indexOf(id);
    return i < 0 ? null : this.msgAt(i);
  }

  push(m: UIMessage): UIMessage {
    this.ensureMsgs();
    this.s.messages.push(m);
    this.touchedMsgs.add(m);
    return m;
  }

  removeAt(i: number): void {
    this.ensureMsgs();
    this.s.messages.splice(i, 1);
  }

  tool(id: string): ToolCallView | null {
    const t = this.s.toolCalls[id];
    if (!t) return null;
    if (this.touchedTools.has(t)) return t;
    this.ensureTools();
    const copy = { ...t };
    this.s.toolCalls[id] = copy;
    this.touchedTools.add(copy);
    return copy;
  }

  setTool(t: ToolCallView): ToolCallView {
    this.ensureTools();
    this.s.toolCalls[t.id] = t;
    this.touchedTools.add(t);
    return t;
  }

  deleteTool(id: string): void {
    if (!(id in this.s.toolCalls)) return;
    this.ensureTools();
    delete this.s.toolCalls[id];
  }

  /** Installs a freshly built graph that this draft owns outright. */
  replaceAll(messages: UIMessage[], tools: Record<string, ToolCallView>): void {
    this.s.messages = messages;
    this.s.toolCalls = tools;
    this.msgsCopied = true;
    this.toolsCopied = true;
    for (const m of messages) this.touchedMsgs.add(m);
    for (const t of Object.values(tools)) this.touchedTools.add(t);
  }

  setReasoningTarget(id: string, target: string): void {
    if (this.s.reasoningTarget[id] === target) return;
    this.s.reasoningTarget = { ...this.s.reasoningTarget, [id]: target };
  }
}

function newMessage(id: string, role: UIMessage['role'], createdAt: number, runId: string | null): UIMessage {
  const m: UIMessage = {
    id,
    role,
    content: '',
    reasoning: '',
    reasoningStreaming: false,
    toolCallIds: [],
    status: 'streaming',
    createdAt,
  };
  if (runId) m.runId = runId;
  return m;
}

function asRole(r: string): UIMessage['role'] {
  return r === 'user' || r === 'tool' || r === 'system' || r === 'developer' ? r : 'assistant';
}

/** The last message if it is a reasoning placeholder that an answer can adopt. */
function adoptablePlaceholder(d: Draft): number {
  const i = d.s.messages.length - 1;
  const m = d.s.messages[i];
  if (m && m.placeholder && m.role === 'assistant' && m.content === '' && m.toolCallIds.length === 0) return i;
  return -1;
}

/** Renames a placeholder to the answer's id and repoints reasoning aliases. */
function adopt(d: Draft, index: number, newId: string): UIMessage {
  const m = d.msgAt(index);
  const oldId = m.id;
  m.placeholder = false;
  if (oldId !== newId) {
    m.id = newId;
    const rt: Record<string, string> = {};
    for (const [k, v] of Object.entries(d.s.reasoningTarget)) rt[k] = v === oldId ? newId : v;
    rt[oldId] = newId;
    d.s.reasoningTarget = rt;
  }
  return m;
}

function startText(d: Draft, id: string, role: string, ts: number): UIMessage {
  const r = asRole(role);
  if (r === 'user') dropOldestLocal(d);
  const existing = d.msg(id);
  if (existing) {
    existing.status = 'streaming';
    return existing;
  }
  if (r === 'assistant') {
    const p = adoptablePlaceholder(d);
    if (p >= 0) {
      const m = adopt(d, p, id);
      m.status = 'streaming';
      return m;
    }
  }
  return d.push(newMessage(id, r, ts, d.s.runId));
}

function dropOldestLocal(d: Draft): void {
  const i = d.s.messages.findIndex((m) => m.local);
  if (i >= 0) d.removeAt(i);
}

function reasoningMessage(d: Draft, id: string, ts: number): UIMessage {
  const target = d.s.reasoningTarget[id] ?? id;
  const existing = d.msg(target);
  if (existing) return existing;
  const m = newMessage(id, 'assistant', ts, d.s.runId);
  m.placeholder = true;
  d.setReasoningTarget(id, id);
  return d.push(m);
}

/** The assistant message a tool call belongs to (created when needed). */
function toolParent(d: Draft, parentId: string | undefined, toolCallId: string, ts: number): UIMessage {
  if (parentId) {
    const m = d.msg(parentId);
    if (m) return m;
    const p = adoptablePlaceholder(d);
    if (p >= 0) return adopt(d, p, parentId);
    return d.push(newMessage(parentId, 'assistant', ts, d.s.runId));
  }
  const ms = d.s.messages;
  for (let i = ms.length - 1; i >= 0; i--) {
    const m = ms[i]!;
    if (m.role === 'user') break;
    if (m.role === 'assistant' && (!d.s.runId || !m.runId || m.runId === d.s.runId)) {
      const c = d.msgAt(i);
      c.placeholder = false;
      return c;
    }
  }
  return d.push(newMessage(`msg-for-${toolCallId}`, 'assistant', ts, d.s.runId));
}

function startTool(d: Draft, id: string, name: string, parentId: string | undefined, ts: number): ToolCallView {
  const parent = toolParent(d, parentId, id, ts);
  if (!parent.toolCallIds.includes(id)) parent.toolCallIds = [...parent.toolCallIds, id];
  const existing = d.tool(id);
  if (existing) {
    existing.name = name || existing.name;
    existing.messageId = parent.id;
    if (existing.argsComplete && existing.args) return existing;
    existing.args = '';
    existing.argsComplete = false;
    return existing;
  }
  const t: ToolCallView = { id, name, args: '', argsComplete: false, messageId: parent.id };
  if (d.s.runId) t.runId = d.s.runId;
  return d.setTool(t);
}

function stubTool(d: Draft, id: string): ToolCallView {
  return d.tool(id) ?? d.setTool({ id, name: '', args: '', argsComplete: true, messageId: '' });
}

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

function addClientTools(d: Draft, ids: string[]): void {
  if (!ids.length) return;
  const have = new Set(d.s.clientTools.map((c) => c.toolCallId));
  const add: PendingClientTool[] = [];
  for (const id of ids) {
    if (have.has(id)) continue;
    const t = d.tool(id);
    if (t && t.result !== undefined) continue;
    if (t) t.state = 'pending-client';
    add.push({ toolCallId: id, toolName: t?.name ?? '', arguments: t?.args || '{}', restored: false });
    have.add(id);
  }
  if (add.length) d.s.clientTools = [...d.s.clientTools, ...add];
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

function applyCustom(d: Draft, name: string, value: unknown, ts: number): void {
  if (!isObject(value)) return;
  switch (name) {
    case 'juncture.tool_state': {
      const id = optStr(value, 'toolCallId');
      if (!id || !isToolState(value.state)) return;
      const t = stubTool(d, id);
      t.state = value.state;
      if (isString(value.result)) t.result = value.result;
      if (value.state === 'failed') t.isError = true;
      if (value.state === 'pending-client') addClientTools(d, [id]);
      return;
    }
    case 'juncture.stopped': {
      const dropped = isStringArray(value.droppedToolCallIds) ? value.droppedToolCallIds : [];
      const mid = optStr(value, 'messageId');
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
      const id = optStr(value, 'messageId');
      const error = str(value, 'error', 'The model endpoint returned an error.');
      let m = id ? d.msg(id) : null;
      if (!m) m = d.push(newMessage(id ?? `error-${ts}`, 'assistant', ts, d.s.runId));
      m.status = 'error';
      m.error = error;
      m.placeholder = false;
      m.reasoningStreaming = false;
      return;
    }
    default:
      return;
  }
}

function applySnapshot(d: Draft, snapshot: AguiMessage[], ts: number): void {
  const prevMsgs = new Map(d.s.messages.map((m) => [m.id, m]));
  const prevTools = d.s.toolCalls;
  const tools: Record<string, ToolCallView> = {};
  const messages: UIMessage[] = [];
  let reasoning = '';
  for (const sm of snapshot) {
    if (sm.role === 'tool') {
      if (!sm.toolCallId) continue;
      const prev = tools[sm.toolCallId] ?? prevTools[sm.toolCallId];
      if (prev) {
        const t: ToolCallView = { ...prev, result: sm.content };
        if (sm.error) {
          t.isError = true;
          if (!t.state || !TERMINAL_TOOL_STATES.has(t.state)) t.state = 'failed';
        } else if (!t.state || t.state === 'running' || t.state === 'awaiting-approval') t.state = 'done';
        tools[t.id] = t;
      } else {
        const m = newMessage(sm.id, 'tool', ts, null);
        m.content = sm.content;
        m.status = 'complete';
        m.toolCallId = sm.toolCallId;
        messages.push(m);
      }
      continue;
    }
    if (sm.role === 'reasoning') {
      reasoning = reasoning ? `${reasoning}\n\n${sm.content}` : sm.content;
      continue;
    }
    if (sm.role === 'activity') continue;
    const prev = prevMsgs.get(sm.id);
    const m: UIMessage = prev ? { ...prev } : newMessage(sm.id, asRole(sm.role), ts, null);
    m.content = sm.content;
    m.local = false;
    m.placeholder = false;
    if (!prev) m.status = 'complete';
    if (m.role === 'assistant' && sm.content.endsWith(INTERRUPT_MARKER)) m.status = 'interrupted';
    if (m.role === 'assistant' && reasoning) {
      if (!m.reasoning) m.reasoning = reasoning;
      reasoning = '';
    }
    m.toolCallIds = sm.toolCalls.map((c) => c.id);
    for (const c of sm.toolCalls) {
      const p = prevTools[c.id];
      const t: ToolCallView = p
        ? { ...p, name: c.name || p.name, args: c.arguments || p.args, argsComplete: true, messageId: m.id }
        : { id: c.id, name: c.name, args: c.arguments, argsComplete: true, messageId: m.id };
      tools[c.id] = t;
    }
    messages.push(m);
  }
  // Keep live statuses of calls the snapshot does not mention yet.
  for (const [id, t] of Object.entries(prevTools)) if (!tools[id] && t.messageId === '') tools[id] = t;
  d.replaceAll(messages, tools);
  d.s.reasoningTarget = {};
}

/** Applies one AG-UI event to the draft. */
function applyEvent(d: Draft, e: AguiEvent): void {
  const ts = d.now(e);
  switch (e.type) {
    case 'RUN_STARTED':
      d.s.phase = 'running';
      d.s.runId = e.runId || null;
      d.s.runError = null;
      d.s.interrupts = [];
      d.s.clientTools = [];
      return;
    case 'RUN_FINISHED': {
      const cancelled = e.outcome.type === 'cancelled';
      finishStreaming(d, cancelled ? 'interrupted' : 'complete');
      if (cancelled) {
        // Go reports each call's fate with juncture.tool_state; this is the
        // fallback for calls left without one.
        for (const t of Object.values(d.s.toolCalls)) {
          if (t.result !== undefined || (t.state && t.state !== 'running' && t.state !== 'awaiting-approval')) continue;
          if (d.s.runId && t.runId && t.runId !== d.s.runId) continue;
          const c = d.tool(t.id);
          if (c) c.state = t.state === 'running' ? 'interrupted-mid-run' : 'interrupted';
        }
      }
      d.s.runError = null;
      d.s.runId = null;
      if (e.outcome.type === 'interrupt') {
        d.s.phase = 'awaiting';
        d.s.interrupts = e.outcome.interrupts;
      } else {
        d.s.phase = 'idle';
        d.s.interrupts = [];
      }
      if (e.outcome.type === 'success') {
        let ids = e.outcome.pendingToolCallIds;
        if (!ids.length) {
          ids = Object.values(d.s.toolCalls)
            .filter((t) => t.state === 'pending-client' && t.result === undefined)
            .map((t) => t.id);
        }
        addClientTools(d, ids);
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
    case 'TEXT_MESSAGE_START':
      startText(d, e.messageId, e.role, ts);
      d.s.lastTextChunkId = e.messageId;
      return;
    case 'TEXT_MESSAGE_CONTENT': {
      const m = d.msg(e.messageId) ?? startText(d, e.messageId, 'assistant', ts);
      if (e.delta) m.content += e.delta;
      return;
    }
    case 'TEXT_MESSAGE_END': {
      const m = d.msg(e.messageId);
      if (m && m.status === 'streaming') m.status = 'complete';
      return;
    }
    case 'TEXT_MESSAGE_CHUNK': {
      const id = e.messageId ?? d.s.lastTextChunkId ?? `chunk-${ts}`;
      const m = d.msg(id) ?? startText(d, id, e.role ?? 'assistant', ts);
      d.s.lastTextChunkId = id;
      if (e.delta) m.content += e.delta;
      return;
    }
    case 'REASONING_START': {
      const m = reasoningMessage(d, e.messageId, ts);
      m.reasoningStreaming = true;
      d.s.lastReasoningChunkId = e.messageId;
      return;
    }
    case 'REASONING_MESSAGE_START': {
      const span = d.s.lastReasoningChunkId;
      const target = d.s.reasoningTarget[e.messageId] ?? (span ? d.s.reasoningTarget[span] ?? span : undefined);
      let m = target ? d.msg(target) : null;
      if (!m) m = reasoningMessage(d, e.messageId, ts);
      d.setReasoningTarget(e.messageId, m.id);
      if (m.reasoning && !m.reasoning.endsWith('\n\n')) m.reasoning += '\n\n';
      m.reasoningStreaming = true;
      return;
    }
    case 'REASONING_MESSAGE_CONTENT': {
      const m = reasoningMessage(d, e.messageId, ts);
      m.reasoning += e.delta;
      m.reasoningStreaming = true;
      return;
    }
    case 'REASONING_MESSAGE_CHUNK': {
      const id = e.messageId ?? d.s.lastReasoningChunkId ?? `reasoning-${ts}`;
      d.s.lastReasoningChunkId = id;
      const m = reasoningMessage(d, id, ts);
      m.reasoning += e.delta;
      m.reasoningStreaming = true;
      return;
    }
    case 'REASONING_MESSAGE_END':
    case 'REASONING_END': {
      const target = d.s.reasoningTarget[e.messageId] ?? e.messageId;
      const m = d.msg(target);
      if (m) m.reasoningStreaming = false;
      return;
    }
    case 'TOOL_CALL_START':
      startTool(d, e.toolCallId, e.toolCallName, e.parentMessageId, ts);
      d.s.lastToolChunkId = e.toolCallId;
      return;
    case 'TOOL_CALL_ARGS': {
      const t = d.tool(e.toolCallId) ?? startTool(d, e.toolCallId, '', undefined, ts);
      t.args += e.delta;
      return;
    }
    case 'TOOL_CALL_END': {
      const t = d.tool(e.toolCallId);
      if (t) t.argsComplete = true;
      return;
    }
    case 'TOOL_CALL_CHUNK': {
      const id = e.toolCallId ?? d.s.lastToolChunkId;
      if (!id) return;
      const t = d.tool(id) ?? startTool(d, id, e.toolCallName ?? '', e.parentMessageId, ts);
      d.s.lastToolChunkId = id;
      t.args += e.delta;
      return;
    }
    case 'TOOL_CALL_RESULT': {
      const t = d.tool(e.toolCallId);
      const failed = isObject(e.metadata?.tanstack) && e.metadata.tanstack.state === 'output-error';
      if (t) {
        t.result = e.content;
        t.argsComplete = true;
        if (failed) t.isError = true;
        if (!t.state || !TERMINAL_TOOL_STATES.has(t.state)) t.state = failed ? 'failed' : 'done';
        if (d.s.clientTools.some((c) => c.toolCallId === e.toolCallId)) {
          d.s.clientTools = d.s.clientTools.filter((c) => c.toolCallId !== e.toolCallId);
        }
      } else {
        const m = newMessage(e.messageId, 'tool', ts, d.s.runId);
        m.content = e.content;
        m.status = 'complete';
        m.toolCallId = e.toolCallId;
        d.push(m);
      }
      return;
    }
    case 'MESSAGES_SNAPSHOT':
      applySnapshot(d, e.messages, ts);
      return;
    case 'STATE_SNAPSHOT':
      d.s.agentState = e.snapshot;
      return;
    case 'CUSTOM':
      applyCustom(d, e.name, e.value, ts);
      return;
    case 'OTHER':
      return;
  }
}

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
    if (m.role === 'assistant' && m.status === 'complete' && m.content.endsWith(INTERRUPT_MARKER)) u.status = 'interrupted';
    for (const c of m.toolCalls ?? []) {
      const t: ToolCallView = { id: c.id, name: c.name, args: c.arguments, argsComplete: true, messageId: m.id };
      if (m.runId) t.runId = m.runId;
      const r = results.get(c.id);
      if (r) {
        t.result = r.content;
        if (r.isError) t.isError = true;
      }
      const st = view.toolStates[c.id];
      if (st) t.state = st;
      else if (r) t.state = r.isError ? 'failed' : 'done';
      tools[c.id] = t;
    }
    messages.push(u);
  }
  s.messages = messages;
  s.toolCalls = tools;
  s.queued = view.queued;
  s.interrupts = view.interrupts;
  s.clientTools = view.clientTools
    .filter((c) => c.state === 'pending' || c.state === '')
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

const DELTA_TYPES = new Set<AguiEvent['type']>([
  'TEXT_MESSAGE_CONTENT',
  'TEXT_MESSAGE_CHUNK',
  'REASONING_MESSAGE_CONTENT',
  'REASONING_MESSAGE_CHUNK',
  'TOOL_CALL_ARGS',
  'TOOL_CALL_CHUNK',
]);

/**
 * Events that arrived while GetThread was in flight. The snapshot may
 * already contain some of their deltas, so deltas for entities the snapshot
 * knows are dropped (and a resync is requested at the end of the run);
 * everything else is applied.
 */
function replayPending(s: ThreadState, pending: AguiEvent[]): ThreadState {
  if (!pending.length) return s;
  const keep: AguiEvent[] = [];
  let dropped = false;
  const msgIds = new Set(s.messages.map((m) => m.id));
  for (const e of pending) {
    if (DELTA_TYPES.has(e.type)) {
      const id =
        'toolCallId' in e && e.toolCallId
          ? e.toolCallId
          : 'messageId' in e && typeof e.messageId === 'string'
            ? e.messageId
            : undefined;
      if (id && (msgIds.has(id) || id in s.toolCalls)) {
        dropped = true;
        continue;
      }
    }
    if (e.type === 'RUN_STARTED' && s.phase === 'running') {
      // Already reflected in the snapshot; keep its run id only.
      keep.push(e);
      continue;
    }
    keep.push(e);
  }
  const next = reduceEvents(s, keep);
  return dropped ? { ...next, needsResync: true } : next;
}

export function reduceEvents(state: ThreadState, events: readonly AguiEvent[]): ThreadState {
  if (!events.length) return state;
  const d = new Draft(state);
  for (const e of events) applyEvent(d, e);
  return d.s;
}

export function threadReducer(state: ThreadState, action: ThreadAction): ThreadState {
  switch (action.type) {
    case 'reset': {
      const s = emptyThreadState(action.threadId, action.thread ?? null);
      // A thread created just now has nothing to load.
      if (action.thread) s.loaded = true;
      return s;
    }
    case 'load': {
      if (state.threadId !== null && state.threadId !== action.view.thread.id) return state;
      const s = stateFromView(action.view, action.keepError ? state : undefined);
      return replayPending(s, action.pending ?? []);
    }
    case 'events':
      return reduceEvents(state, action.events);
    case 'queue':
      return { ...state, queued: action.queued };
    case 'localUser': {
      const m = newMessage(action.id, 'user', action.createdAt, null);
      m.content = action.text;
      m.status = 'complete';
      m.local = true;
      return { ...state, messages: [...state.messages, m] };
    }
    case 'dropLocal':
      return { ...state, messages: state.messages.filter((m) => !(m.local && m.id === action.id)) };
    case 'clientToolHandled':
      return { ...state, clientTools: state.clientTools.filter((c) => c.toolCallId !== action.toolCallId) };
    case 'resynced':
      return state.needsResync ? { ...state, needsResync: false } : state;
    case 'setThread':
      return state.threadId === action.thread.id ? { ...state, thread: action.thread } : state;
  }
}

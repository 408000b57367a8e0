// The AG-UI 1.0 events the UI reduces (agui-1.0.md §3), narrowed from
// unknown JSON. Events the UI does not use are kept as `OTHER` and ignored.

import { arr, isObject, isString, isStringArray, obj, optStr, str } from './json';
import { parseInterrupts, type Interrupt } from './contract';

export interface AguiMessageToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A MESSAGES_SNAPSHOT message (agui-1.0.md §5.4), reduced to what the UI shows. */
export interface AguiMessage {
  id: string;
  role: string;
  content: string;
  toolCalls: AguiMessageToolCall[];
  toolCallId?: string;
  error?: string;
}

export type RunOutcome =
  | { type: 'success'; pendingToolCallIds: string[] }
  | { type: 'interrupt'; interrupts: Interrupt[] }
  | { type: 'cancelled' };

interface Base {
  timestamp?: number;
  metadata?: Record<string, unknown>;
}

// `offset` on the three delta events is not AG-UI's: Juncture's envelope
// carries where the delta starts in its text (UTF-16 code units), and the
// transport copies it here so the reducer appends exactly what it lacks.
export type AguiEvent = Base &
  (
    | { type: 'RUN_STARTED'; threadId: string; runId: string; parentRunId?: string }
    | { type: 'RUN_FINISHED'; threadId: string; runId: string; outcome: RunOutcome }
    | { type: 'RUN_ERROR'; message: string; code?: string }
    | { type: 'TEXT_MESSAGE_START'; messageId: string; role: string }
    | { type: 'TEXT_MESSAGE_CONTENT'; messageId: string; delta: string; offset?: number }
    | { type: 'TEXT_MESSAGE_END'; messageId: string }
    | { type: 'TEXT_MESSAGE_CHUNK'; messageId?: string; role?: string; delta: string }
    | { type: 'REASONING_START'; messageId: string }
    | { type: 'REASONING_MESSAGE_START'; messageId: string }
    | { type: 'REASONING_MESSAGE_CONTENT'; messageId: string; delta: string; offset?: number }
    | { type: 'REASONING_MESSAGE_END'; messageId: string }
    | { type: 'REASONING_MESSAGE_CHUNK'; messageId?: string; delta: string }
    | { type: 'REASONING_END'; messageId: string }
    | { type: 'TOOL_CALL_START'; toolCallId: string; toolCallName: string; parentMessageId?: string }
    | { type: 'TOOL_CALL_ARGS'; toolCallId: string; delta: string; offset?: number }
    | { type: 'TOOL_CALL_END'; toolCallId: string }
    | {
        type: 'TOOL_CALL_CHUNK';
        toolCallId?: string;
        toolCallName?: string;
        parentMessageId?: string;
        delta: string;
      }
    | { type: 'TOOL_CALL_RESULT'; messageId: string; toolCallId: string; content: string }
    | { type: 'MESSAGES_SNAPSHOT'; messages: AguiMessage[] }
    | { type: 'STATE_SNAPSHOT'; snapshot: unknown }
    | { type: 'CUSTOM'; name: string; value: unknown }
    | { type: 'OTHER'; originalType: string }
  );

export type AguiEventType = AguiEvent['type'];

/** Text of a `string | ContentPart[]` content (non-text parts are named, never loaded). */
export function contentText(v: unknown): string {
  if (isString(v)) return v;
  if (!Array.isArray(v)) return '';
  const out: string[] = [];
  for (const p of v) {
    if (!isObject(p)) continue;
    if (p.type === 'text' && isString(p.text)) out.push(p.text);
    else if (isString(p.type)) out.push(`[${p.type}]`);
  }
  return out.join('\n');
}

function parseSnapshotMessage(u: unknown): AguiMessage | null {
  if (!isObject(u) || !isString(u.id)) return null;
  const toolCalls: AguiMessageToolCall[] = [];
  for (const c of arr(u, 'toolCalls')) {
    if (!isObject(c) || !isString(c.id)) continue;
    const fn = obj(c, 'function');
    toolCalls.push({
      id: c.id,
      name: fn ? str(fn, 'name') : str(c, 'name'),
      arguments: fn ? str(fn, 'arguments') : str(c, 'arguments'),
    });
  }
  const m: AguiMessage = { id: u.id, role: str(u, 'role', 'assistant'), content: contentText(u.content), toolCalls };
  const toolCallId = optStr(u, 'toolCallId');
  if (toolCallId) m.toolCallId = toolCallId;
  const error = optStr(u, 'error');
  if (error) m.error = error;
  return m;
}

function parseOutcome(u: unknown): RunOutcome {
  if (!isObject(u)) return { type: 'success', pendingToolCallIds: [] };
  if (u.type === 'interrupt') return { type: 'interrupt', interrupts: parseInterrupts(u.interrupts) };
  if (u.type === 'cancelled') return { type: 'cancelled' };
  return { type: 'success', pendingToolCallIds: isStringArray(u.pendingToolCallIds) ? u.pendingToolCallIds : [] };
}

/** Narrows one AG-UI event; `null` when it is not an event object at all. */
export function parseAguiEvent(u: unknown): AguiEvent | null {
  if (!isObject(u) || !isString(u.type) || !u.type) return null;
  const base: Base = {};
  if (typeof u.timestamp === 'number' && Number.isFinite(u.timestamp)) base.timestamp = u.timestamp;
  const md = obj(u, 'metadata');
  if (md) base.metadata = md;
  const id = (k: string) => str(u, k);
  const opt = (k: string) => optStr(u, k);
  switch (u.type) {
    case 'RUN_STARTED': {
      const e: AguiEvent = { ...base, type: 'RUN_STARTED', threadId: id('threadId'), runId: id('runId') };
      const p = opt('parentRunId');
      if (p) e.parentRunId = p;
      return e;
    }
    case 'RUN_FINISHED':
      return { ...base, type: 'RUN_FINISHED', threadId: id('threadId'), runId: id('runId'), outcome: parseOutcome(u.outcome) };
    case 'RUN_ERROR': {
      const e: AguiEvent = { ...base, type: 'RUN_ERROR', message: id('message') || 'The run failed.' };
      const c = opt('code');
      if (c) e.code = c;
      return e;
    }
    case 'TEXT_MESSAGE_START':
      return { ...base, type: 'TEXT_MESSAGE_START', messageId: id('messageId'), role: str(u, 'role', 'assistant') };
    case 'TEXT_MESSAGE_CONTENT':
      return { ...base, type: 'TEXT_MESSAGE_CONTENT', messageId: id('messageId'), delta: id('delta') };
    case 'TEXT_MESSAGE_END':
      return { ...base, type: 'TEXT_MESSAGE_END', messageId: id('messageId') };
    case 'TEXT_MESSAGE_CHUNK': {
      const e: AguiEvent = { ...base, type: 'TEXT_MESSAGE_CHUNK', delta: id('delta') };
      const m = opt('messageId');
      if (m) e.messageId = m;
      const r = opt('role');
      if (r) e.role = r;
      return e;
    }
    case 'REASONING_START':
    case 'REASONING_MESSAGE_START':
    case 'REASONING_MESSAGE_END':
    case 'REASONING_END':
      return { ...base, type: u.type, messageId: id('messageId') };
    case 'REASONING_MESSAGE_CONTENT':
      return { ...base, type: 'REASONING_MESSAGE_CONTENT', messageId: id('messageId'), delta: id('delta') };
    case 'REASONING_MESSAGE_CHUNK': {
      const e: AguiEvent = { ...base, type: 'REASONING_MESSAGE_CHUNK', delta: id('delta') };
      const m = opt('messageId');
      if (m) e.messageId = m;
      return e;
    }
    case 'TOOL_CALL_START': {
      const e: AguiEvent = {
        ...base,
        type: 'TOOL_CALL_START',
        toolCallId: id('toolCallId'),
        toolCallName: id('toolCallName'),
      };
      const p = opt('parentMessageId');
      if (p) e.parentMessageId = p;
      return e;
    }
    case 'TOOL_CALL_ARGS':
      return { ...base, type: 'TOOL_CALL_ARGS', toolCallId: id('toolCallId'), delta: id('delta') };
    case 'TOOL_CALL_END':
      return { ...base, type: 'TOOL_CALL_END', toolCallId: id('toolCallId') };
    case 'TOOL_CALL_CHUNK': {
      const e: AguiEvent = { ...base, type: 'TOOL_CALL_CHUNK', delta: id('delta') };
      const t = opt('toolCallId');
      if (t) e.toolCallId = t;
      const n = opt('toolCallName');
      if (n) e.toolCallName = n;
      const p = opt('parentMessageId');
      if (p) e.parentMessageId = p;
      return e;
    }
    case 'TOOL_CALL_RESULT':
      return {
        ...base,
        type: 'TOOL_CALL_RESULT',
        messageId: id('messageId'),
        toolCallId: id('toolCallId'),
        content: contentText(u.content),
      };
    case 'MESSAGES_SNAPSHOT':
      return {
        ...base,
        type: 'MESSAGES_SNAPSHOT',
        messages: arr(u, 'messages')
          .map(parseSnapshotMessage)
          .filter((m): m is AguiMessage => m !== null),
      };
    case 'STATE_SNAPSHOT':
      return { ...base, type: 'STATE_SNAPSHOT', snapshot: u.snapshot ?? null };
    case 'CUSTOM':
      return { ...base, type: 'CUSTOM', name: id('name'), value: u.value ?? null };
    default:
      return { ...base, type: 'OTHER', originalType: u.type };
  }
}

// Tool call events: calls attached to their assistant message, streamed
// arguments, results, and the client tools the window runs.

import type { AguiEvent } from '../transport/agui';
import { isObject } from '../transport/json';
import { Draft, TERMINAL_TOOL_STATES, newMessage } from './draft';
import { adopt, adoptablePlaceholder } from './textEvents';
import type { PendingClientTool, ToolCallView, UIMessage } from './types';
import { mergeDelta } from './deltas';

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

export function stubTool(d: Draft, id: string): ToolCallView {
  return d.tool(id) ?? d.setTool({ id, name: '', args: '', argsComplete: true, messageId: '' });
}

/**
 * Records a client tool call the window must run, from the runtime's
 * record (the `pending-client` tool state): the approved arguments, never
 * the streamed ones.
 */
export function recordClientTool(
  d: Draft,
  rec: { toolCallId: string; toolName?: string | undefined; arguments: string; edited?: boolean | undefined },
): void {
  const t = d.tool(rec.toolCallId);
  if (t && t.result !== undefined) return;
  if (t) t.state = 'pending-client';
  const c: PendingClientTool = {
    toolCallId: rec.toolCallId,
    toolName: rec.toolName || t?.name || '',
    arguments: rec.arguments || '{}',
    restored: false,
  };
  if (rec.edited) c.edited = true;
  const i = d.s.clientTools.findIndex((x) => x.toolCallId === rec.toolCallId);
  d.s.clientTools = i < 0 ? [...d.s.clientTools, c] : d.s.clientTools.map((x, j) => (j === i ? c : x));
}

/**
 * A run ended with these client calls pending. Each should have its record
 * already; one without (its tool state event was missed) is fetched with
 * GetThread at the next quiet point instead of being guessed from the stream.
 */
export function expectClientTools(d: Draft, ids: readonly string[]): void {
  const have = new Set(d.s.clientTools.map((c) => c.toolCallId));
  for (const id of ids) {
    if (have.has(id)) continue;
    const t = d.s.toolCalls[id];
    if (t && t.result !== undefined) continue;
    if (t) {
      const c = d.tool(id);
      if (c) c.state = 'pending-client';
    }
    d.s.needsResync = true;
  }
}

type ToolEvent = Extract<
  AguiEvent,
  { type: 'TOOL_CALL_START' | 'TOOL_CALL_ARGS' | 'TOOL_CALL_END' | 'TOOL_CALL_CHUNK' | 'TOOL_CALL_RESULT' }
>;

export function applyToolEvent(d: Draft, e: ToolEvent, ts: number): void {
  switch (e.type) {
    case 'TOOL_CALL_START':
      startTool(d, e.toolCallId, e.toolCallName, e.parentMessageId, ts);
      d.s.lastToolChunkId = e.toolCallId;
      return;
    case 'TOOL_CALL_ARGS': {
      let t = d.tool(e.toolCallId);
      if (!t) {
        // Arguments of a call whose START was missed: refetch when quiet.
        t = startTool(d, e.toolCallId, '', undefined, ts);
        d.s.needsResync = true;
      }
      const r = mergeDelta(t.args, e.delta, e.offset);
      t.args = r.text;
      if (r.gap) d.s.needsResync = true;
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
        if (t.progress) delete t.progress;
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
  }
}

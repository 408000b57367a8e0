// MESSAGES_SNAPSHOT: the AG-UI message list replaces the graph, keeping the
// live details (tool states, statuses) the snapshot does not carry.

import type { AguiMessage } from '../transport/agui';
import type { ToolState } from '../transport/contract';
import { Draft, TERMINAL_TOOL_STATES, asRole, newMessage } from './draft';
import { INTERRUPT_MARKER, type ToolCallView, type UIMessage } from './types';

/** States a stored result settles (Go's tool state events keep terminal ones). */
const OPEN_STATES: ReadonlySet<ToolState> = new Set(['running', 'awaiting-approval', 'awaiting-answer', 'pending-client']);

export function applyMessagesSnapshot(d: Draft, snapshot: AguiMessage[], ts: number): void {
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
        } else if (!t.state || OPEN_STATES.has(t.state)) t.state = 'done';
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
    if (m.partial) delete m.partial;
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

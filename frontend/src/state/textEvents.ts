// Text and reasoning events: messages, reasoning placeholders and their
// adoption by the answer that follows.

import type { AguiEvent } from '../transport/agui';
import { Draft, asRole, newMessage } from './draft';
import type { UIMessage } from './types';
import { mergeDelta } from './deltas';
import { stripMarker } from '../lib/format';

/** The last message if it is a reasoning placeholder that an answer can adopt. */
export function adoptablePlaceholder(d: Draft): number {
  const i = d.s.messages.length - 1;
  const m = d.s.messages[i];
  if (m && m.placeholder && m.role === 'assistant' && m.content === '' && m.toolCallIds.length === 0) return i;
  return -1;
}

/** Renames a placeholder to the answer's id and repoints reasoning aliases. */
export function adopt(d: Draft, index: number, newId: string): UIMessage {
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

function dropOldestLocal(d: Draft): UIMessage | undefined {
  const i = d.s.messages.findIndex((m) => m.local);
  const m = i >= 0 ? d.s.messages[i] : undefined;
  if (i >= 0) d.removeAt(i);
  return m;
}

export function startText(d: Draft, id: string, role: string, ts: number): UIMessage {
  const r = asRole(role);
  const local = r === 'user' ? dropOldestLocal(d) : undefined;
  const existing = d.msg(id);
  if (existing) {
    // Continue: the stopped answer grows in place; its mark goes away
    // (the continued text's offsets count from the text without it).
    if (existing.status === 'interrupted') existing.content = stripMarker(existing.content);
    existing.status = 'streaming';
    // Its usage grows with it: read again when the run ends.
    existing.detailsPending = true;
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
  const m = d.push(newMessage(id, r, ts, d.s.runId));
  if (local?.attachments?.length) {
    // Its files, shown from the composer's copy until the store's ids come with the next load.
    m.attachments = local.attachments;
    m.detailsPending = true;
  }
  return m;
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

type TextEvent = Extract<
  AguiEvent,
  {
    type:
      | 'TEXT_MESSAGE_START'
      | 'TEXT_MESSAGE_CONTENT'
      | 'TEXT_MESSAGE_END'
      | 'TEXT_MESSAGE_CHUNK'
      | 'REASONING_START'
      | 'REASONING_MESSAGE_START'
      | 'REASONING_MESSAGE_CONTENT'
      | 'REASONING_MESSAGE_CHUNK'
      | 'REASONING_MESSAGE_END'
      | 'REASONING_END';
  }
>;

export function applyTextEvent(d: Draft, e: TextEvent, ts: number): void {
  switch (e.type) {
    case 'TEXT_MESSAGE_START':
      startText(d, e.messageId, e.role, ts);
      d.s.lastTextChunkId = e.messageId;
      return;
    case 'TEXT_MESSAGE_CONTENT': {
      let m = d.msg(e.messageId);
      if (!m) {
        // Content for a message whose START never arrived (the stream was
        // down): its beginning is missing, so it is not shown until the
        // stored message replaces it at the next quiet point.
        m = startText(d, e.messageId, 'assistant', ts);
        m.partial = true;
        d.s.needsResync = true;
      }
      if (e.delta) {
        const r = mergeDelta(m.content, e.delta, e.offset);
        m.content = r.text;
        if (r.gap) d.s.needsResync = true;
      }
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
      const r = mergeDelta(m.reasoning, e.delta, e.offset);
      m.reasoning = r.text;
      if (r.gap) d.s.needsResync = true;
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
  }
}

// The copy-on-write draft a batch of events is applied to, and the small
// message helpers every part of the reducer shares.
//
// A batch of events is applied to a copy-on-write draft: the messages array
// and each touched message are copied once per batch, so a frame's worth of
// deltas costs O(messages + deltas), not O(messages × deltas).

import type { ToolState } from '../transport/contract';
import type { ThreadState, ToolCallView, UIMessage } from './types';

export const TERMINAL_TOOL_STATES: ReadonlySet<ToolState> = new Set([
  'failed',
  'denied',
  'interrupted',
  'interrupted-mid-run',
]);

export class Draft {
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

export function newMessage(id: string, role: UIMessage['role'], createdAt: number, runId: string | null): UIMessage {
  const m: UIMessage = {
    id,
    role,
    content: '',
    reasoning: '',
    reasoningStreaming: false,
    toolCallIds: [],
    status: 'streaming',
    createdAt,
    detailsPending: true,
  };
  if (runId) m.runId = runId;
  return m;
}

export function asRole(r: string): UIMessage['role'] {
  return r === 'user' || r === 'tool' || r === 'system' || r === 'developer' ? r : 'assistant';
}

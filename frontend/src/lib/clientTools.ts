// Client tools: tool calls the frontend executes and reports with `Answer`
// (its `clientResults`). `copy_to_clipboard {text}` and `open_url {url}`
// (http/https only); both ask for approval first, in Go.
//
// The window runs exactly what the runtime recorded for the pending call —
// the `juncture.tool_state` `pending-client` event's `arguments` (approved,
// edited by the person when they used "Edit arguments"), or
// `ThreadView.clientTools[].arguments` after a load — never the arguments
// streamed by TOOL_CALL_ARGS. A call is run automatically only when this
// window saw its record live and its run finished with it pending
// (RUN_FINISHED pendingToolCallIds); one restored from GetThread after a
// restart waits for "Run now".

import type { Transport } from '../transport';
import type { AguiEvent } from '../transport/agui';
import { parseToolStateEvent, type AnswerResult, type ClientToolAnswer, type ClientToolResult } from '../transport/contract';
import { isObject, isString, tryParseJson } from '../transport/json';

export const CLIENT_TOOLS = ['copy_to_clipboard', 'open_url'] as const;

export type RunnerStatus =
  | { kind: 'running' }
  | { kind: 'needs-click'; reason: string }
  | { kind: 'done' }
  | { kind: 'error'; message: string };

export interface ClientToolCallInfo {
  threadId: string;
  toolCallId: string;
  name: string;
  /** The recorded (approved) arguments, JSON text. */
  args: string;
}

/** Told after Go accepted a result (the open thread shows what still waits). */
export type AnsweredListener = (threadId: string, toolCallId: string, result: AnswerResult) => void;

/** What a call will do, for the confirmation card. */
export function describeClientTool(name: string, args: string): string {
  const p = tryParseJson(args || '{}');
  const o = p.ok && isObject(p.value) ? p.value : {};
  if (name === 'copy_to_clipboard') {
    const t = isString(o.text) ? o.text : '';
    return `Copy ${t.length > 80 ? `${t.slice(0, 80)}…` : JSON.stringify(t)} to the clipboard`;
  }
  if (name === 'open_url') return `Open ${isString(o.url) ? o.url : 'a link'} in your browser`;
  return `Run ${name || 'an unknown action'}`;
}

class NeedsClick extends Error {}

/** Executes one client tool call; throws NeedsClick when a user gesture is required. */
export async function executeClientTool(
  transport: Transport,
  name: string,
  args: string,
  fromGesture: boolean,
): Promise<ClientToolResult> {
  const p = tryParseJson(args || '{}');
  const o = p.ok && isObject(p.value) ? p.value : null;
  if (!o) return { content: 'The arguments are not a JSON object.', isError: true };
  switch (name) {
    case 'copy_to_clipboard': {
      if (!isString(o.text)) return { content: 'Missing "text".', isError: true };
      try {
        await transport.copyText(o.text);
      } catch (e) {
        if (!fromGesture) throw new NeedsClick(e instanceof Error ? e.message : 'The clipboard needs a click.');
        return { content: `Could not copy: ${e instanceof Error ? e.message : String(e)}`, isError: true };
      }
      return { content: `Copied ${[...o.text].length} characters to the clipboard.` };
    }
    case 'open_url': {
      if (!isString(o.url)) return { content: 'Missing "url".', isError: true };
      let u: URL;
      try {
        u = new URL(o.url);
      } catch {
        return { content: `Not a valid URL: ${o.url}`, isError: true };
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') {
        return { content: `Refused to open ${u.protocol} URL: only http and https links are opened.`, isError: true };
      }
      // A browser blocks pop-ups that no click caused; the desktop window does not.
      if (transport.kind === 'browser' && !fromGesture && !hasUserActivation()) {
        throw new NeedsClick('Your browser needs a click to open a new tab.');
      }
      if (!transport.openExternal(u.href)) return { content: `Could not open ${u.href}.`, isError: true };
      return { content: `Opened ${u.href} in the browser.` };
    }
    default:
      return { content: `Juncture has no client tool named "${name}".`, isError: true };
  }
}

function hasUserActivation(): boolean {
  const ua = (navigator as Navigator & { userActivation?: { isActive: boolean } }).userActivation;
  return !!ua?.isActive;
}

type Listener = () => void;

/**
 * Watches the AG-UI stream of every thread, remembers the runtime's record
 * of each client tool call waiting for the window, and runs it when its
 * run finishes with it pending.
 */
export class ClientToolRunner {
  private seen = new Map<string, ClientToolCallInfo>();
  /** Tool names from TOOL_CALL_START, for a record that leaves its name out. */
  private names = new Map<string, string>();
  private statuses = new Map<string, RunnerStatus>();
  private listeners = new Set<Listener>();
  private answered = new Set<AnsweredListener>();
  private version = 0;

  constructor(private readonly transport: Transport) {}

  observe(threadId: string, e: AguiEvent): void {
    switch (e.type) {
      case 'TOOL_CALL_START':
        // Only the name: the arguments that run come from the record.
        if (this.names.size > 1000) this.names.clear();
        this.names.set(e.toolCallId, e.toolCallName);
        return;
      case 'CUSTOM': {
        if (e.name !== 'juncture.tool_state') return;
        const ev = parseToolStateEvent(e.value);
        if (!ev || ev.state !== 'pending-client' || ev.arguments === undefined) return;
        this.seen.set(ev.toolCallId, {
          threadId,
          toolCallId: ev.toolCallId,
          name: ev.toolName || this.names.get(ev.toolCallId) || '',
          args: ev.arguments,
        });
        return;
      }
      case 'RUN_FINISHED': {
        if (e.outcome.type !== 'success') return;
        for (const id of e.outcome.pendingToolCallIds) {
          const c = this.seen.get(id);
          if (c && c.threadId === threadId && !this.statuses.has(id)) void this.run(c, false);
        }
        return;
      }
      default:
        return;
    }
  }

  status(toolCallId: string): RunnerStatus | undefined {
    return this.statuses.get(toolCallId);
  }

  /** Runs a call and reports it; `fromGesture` when the person clicked "Run now". */
  async run(c: ClientToolCallInfo, fromGesture: boolean): Promise<void> {
    const cur = this.statuses.get(c.toolCallId);
    if (cur?.kind === 'running' || cur?.kind === 'done') return;
    this.set(c.toolCallId, { kind: 'running' });
    let result: ClientToolResult;
    try {
      result = await executeClientTool(this.transport, c.name, c.args, fromGesture);
    } catch (e) {
      if (e instanceof NeedsClick) {
        this.set(c.toolCallId, { kind: 'needs-click', reason: e.message });
        return;
      }
      result = { content: e instanceof Error ? e.message : String(e), isError: true };
    }
    await this.report(c, result);
  }

  async cancel(c: ClientToolCallInfo): Promise<void> {
    await this.report(c, null);
  }

  /** Listens for accepted results; returns the unsubscribe function. */
  onAnswered(l: AnsweredListener): () => void {
    this.answered.add(l);
    return () => {
      this.answered.delete(l);
    };
  }

  private async report(c: ClientToolCallInfo, result: ClientToolResult | null): Promise<void> {
    this.set(c.toolCallId, { kind: 'running' });
    const answer: ClientToolAnswer = result
      ? { toolCallId: c.toolCallId, content: result.content, ...(result.isError ? { isError: true } : {}) }
      : { toolCallId: c.toolCallId, content: '', cancelled: true };
    try {
      const r = await this.transport.call('Answer', c.threadId, { answers: [], clientResults: [answer] });
      this.set(c.toolCallId, { kind: 'done' });
      this.seen.delete(c.toolCallId);
      for (const l of [...this.answered]) l(c.threadId, c.toolCallId, r);
    } catch (e) {
      this.set(c.toolCallId, { kind: 'error', message: e instanceof Error ? e.message : String(e) });
    }
  }

  private set(id: string, s: RunnerStatus): void {
    this.statuses.set(id, s);
    this.version += 1;
    for (const l of [...this.listeners]) l();
  }

  subscribe = (l: Listener): (() => void) => {
    this.listeners.add(l);
    return () => {
      this.listeners.delete(l);
    };
  };

  getVersion = (): number => this.version;
}

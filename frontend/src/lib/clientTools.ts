// Client tools: tool calls the frontend executes and reports with
// CompleteClientTool. `copy_to_clipboard {text}` and `open_url {url}`
// (http/https only). A call is run automatically only when this window saw
// it being made live (RUN_FINISHED with pendingToolCallIds); one restored
// from GetThread after a restart waits for "Run now".

import type { Transport } from '../transport';
import type { AguiEvent } from '../transport/agui';
import type { ClientToolResult } from '../transport/contract';
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
  args: string;
}

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
 * Watches the AG-UI stream of every thread, remembers the client tool calls
 * it saw being made, and runs them when their run finishes with them pending.
 */
export class ClientToolRunner {
  private seen = new Map<string, ClientToolCallInfo>();
  private statuses = new Map<string, RunnerStatus>();
  private listeners = new Set<Listener>();
  private version = 0;

  constructor(private readonly transport: Transport) {}

  observe(threadId: string, e: AguiEvent): void {
    switch (e.type) {
      case 'TOOL_CALL_START':
        if ((CLIENT_TOOLS as readonly string[]).includes(e.toolCallName)) {
          this.seen.set(e.toolCallId, { threadId, toolCallId: e.toolCallId, name: e.toolCallName, args: '' });
        }
        return;
      case 'TOOL_CALL_ARGS': {
        const c = this.seen.get(e.toolCallId);
        if (c) c.args += e.delta;
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

  private async report(c: ClientToolCallInfo, result: ClientToolResult | null): Promise<void> {
    this.set(c.toolCallId, { kind: 'running' });
    try {
      await this.transport.call('CompleteClientTool', c.threadId, c.toolCallId, result);
      this.set(c.toolCallId, { kind: 'done' });
      this.seen.delete(c.toolCallId);
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

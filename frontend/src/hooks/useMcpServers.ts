// The MCP tool catalog: every configured server's status and tools, so a
// tool block or an approval card can say "Echo — Everything" instead of
// `everything__echo`. One store per transport, shared by every component:
// ListMCPServers is called when the first component subscribes, again on
// each "mcp" event (a status, the tools or the configuration changed) and
// after the event stream reconnects (events may have been missed).

import { useSyncExternalStore } from 'react';
import type { Transport } from '../transport';
import { toJunctureError } from '../transport';
import type { McpServerStatus, McpToolInfo } from '../transport/contract';

export interface McpToolEntry {
  /** The server's own title for the tool (its name when it gives none). */
  title: string;
  /** The tool's name on its server. */
  toolName: string;
  serverName: string;
  /** The server's title (its configured name when it gives none). */
  serverTitle: string;
  info: McpToolInfo;
}

export interface McpCatalog {
  servers: readonly McpServerStatus[];
  /** By model name (`<server>__<tool>`). */
  tools: ReadonlyMap<string, McpToolEntry>;
  /** Server titles by configured name. */
  serverTitles: ReadonlyMap<string, string>;
  /** ListMCPServers answered at least once (or failed). */
  loaded: boolean;
  error: string | null;
}

export const EMPTY_CATALOG: McpCatalog = {
  servers: [],
  tools: new Map(),
  serverTitles: new Map(),
  loaded: false,
  error: null,
};

export function buildCatalog(servers: readonly McpServerStatus[]): McpCatalog {
  const tools = new Map<string, McpToolEntry>();
  const serverTitles = new Map<string, string>();
  for (const s of servers) {
    const serverTitle = s.title || s.name;
    serverTitles.set(s.name, serverTitle);
    for (const t of s.tools) {
      tools.set(t.modelName, { title: t.title || t.name, toolName: t.name, serverName: s.name, serverTitle, info: t });
    }
  }
  return { servers, tools, serverTitles, loaded: true, error: null };
}

type Listener = () => void;

export class McpCatalogStore {
  private snapshot: McpCatalog = EMPTY_CATALOG;
  private listeners = new Set<Listener>();
  private offEvents: (() => void)[] = [];
  private seq = 0;
  private inFlight: Promise<void> | null = null;
  private again = false;

  constructor(private readonly transport: Transport) {}

  getSnapshot = (): McpCatalog => this.snapshot;

  subscribe = (l: Listener): (() => void) => {
    this.listeners.add(l);
    if (this.listeners.size === 1) this.start();
    return () => {
      this.listeners.delete(l);
      if (this.listeners.size === 0) this.stop();
    };
  };

  /** Reads the servers again (coalesced: at most one call in flight, one queued). */
  refresh = (): Promise<void> => {
    if (this.inFlight) {
      this.again = true;
      return this.inFlight;
    }
    const my = ++this.seq;
    this.inFlight = this.transport
      .call('ListMCPServers')
      .then(
        (servers) => {
          if (my === this.seq) this.set(buildCatalog(servers));
        },
        (e: unknown) => {
          if (my !== this.seq) return;
          const error = toJunctureError(e).message;
          if (this.snapshot.loaded && this.snapshot.error === error) return;
          this.set({ ...this.snapshot, loaded: true, error });
        },
      )
      .finally(() => {
        this.inFlight = null;
        if (this.again) {
          this.again = false;
          void this.refresh();
        }
      });
    return this.inFlight;
  };

  private start(): void {
    this.offEvents = [
      this.transport.subscribe('mcp', () => void this.refresh()),
      this.transport.subscribe('connection', (c) => {
        if (c.state === 'reconnected') void this.refresh();
      }),
    ];
    void this.refresh();
  }

  private stop(): void {
    for (const off of this.offEvents) off();
    this.offEvents = [];
  }

  private set(next: McpCatalog): void {
    this.snapshot = next;
    for (const l of [...this.listeners]) l();
  }
}

const stores = new WeakMap<Transport, McpCatalogStore>();

/** The shared store of a transport. */
export function mcpCatalogStore(transport: Transport): McpCatalogStore {
  let s = stores.get(transport);
  if (!s) {
    s = new McpCatalogStore(transport);
    stores.set(transport, s);
  }
  return s;
}

const noSubscribe = () => () => {};
const emptySnapshot = () => EMPTY_CATALOG;

/** The MCP catalog; empty without a transport (components rendered outside the app). */
export function useMcpServers(transport: Transport | null): McpCatalog {
  const store = transport ? mcpCatalogStore(transport) : null;
  return useSyncExternalStore(store ? store.subscribe : noSubscribe, store ? store.getSnapshot : emptySnapshot);
}

/** How to show a tool's name: the MCP title and server when the catalog knows it. */
export function toolDisplay(cat: McpCatalog, modelName: string): { title: string; server?: string } {
  const e = cat.tools.get(modelName);
  return e ? { title: e.title, server: e.serverTitle } : { title: modelName };
}

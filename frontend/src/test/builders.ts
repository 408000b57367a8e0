import type {
  Interrupt,
  McpConfigView,
  McpServerEntry,
  McpServerStatus,
  McpToolInfo,
  Message,
  Settings,
  SettingsView,
  Thread,
  ThreadView,
} from '../transport/contract';
import type { JsonObject } from '../transport/json';
import { JunctureError } from '../transport/errors';

export function thread(id: string, title = `Thread ${id}`, updatedAt = Date.now()): Thread {
  return { id, title, pinned: false, createdAt: updatedAt - 1000, updatedAt, options: { systemPrompt: '' } };
}

const LOREM =
  'Here is a paragraph with **bold** text, a [link](https://example.org) and `inline code`. It goes on for a while so that rows have different heights.';

/** A long conversation: alternating user / assistant messages with Markdown, code and tool calls. */
export function bigThreadView(id: string, n: number): ThreadView {
  const messages: Message[] = [];
  for (let i = 0; i < n; i++) {
    const user = i % 2 === 0;
    const m: Message = {
      id: `${id}-m${i}`,
      threadId: id,
      role: user ? 'user' : 'assistant',
      content: user
        ? `Question number ${i}: can you help with item ${i}?`
        : `${LOREM}\n\n${'- point\n'.repeat(1 + (i % 4))}\n${i % 10 === 1 ? '```js\nconst x = ' + i + ';\n```\n' : ''}`,
      status: 'complete',
      createdAt: 1_700_000_000_000 + i * 1000,
    };
    if (!user && i % 20 === 3) {
      m.toolCalls = [{ id: `${id}-tc${i}`, name: 'read_file', arguments: `{"path":"file${i}.txt"}` }];
    }
    messages.push(m);
  }
  return { ...emptyView(thread(id, 'Big thread')), messages };
}

/**
 * The chat list and each chat by id, as the fake transport answers them for
 * a window holding views (an unknown id is not-found).
 */
export function threadResponders(views: Record<string, ThreadView>) {
  const threads = Object.values(views).map((v) => v.thread);
  return {
    ListThreads: () => ({ threads: threads.map((x) => ({ ...x, running: false, waiting: 0 })), nextCursor: '' }),
    GetThread: (id: string) => {
      const v = views[id];
      if (!v) throw new JunctureError('not-found', 'no such thread');
      return v;
    },
  };
}

/**
 * Saved settings as the tests' window has them (a local Ollama at
 * 127.0.0.1:11434, llama3.1, /home/ada, write tools off); over replaces
 * fields, sources says where each came from.
 */
export function settingsView(over: Partial<Settings> = {}, sources: SettingsView['sources'] = {}): SettingsView {
  return {
    settings: {
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: '',
      model: 'llama3.1',
      workspace: '/home/ada',
      loopGuard: 25,
      theme: 'system',
      enableWriteTools: false,
      modelAcceptsImages: false,
      ...over,
    },
    sources,
  };
}

export function emptyView(t: Thread): ThreadView {
  return {
    thread: t,
    messages: [],
    running: false,
    queued: [],
    interrupts: [],
    interruptKinds: {},
    clientTools: [],
    toolStates: {},
    answered: [],
    eventSeq: 0,
    editedArgs: {},
    usage: { total: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, answers: 0, unreported: 0 },
  };
}

// ---------------------------------------------------------------- MCP

/** A ready MCP server with the given tools (title and readOnly optional). */
export function mcpServer(
  name: string,
  tools: { name: string; title?: string; readOnly?: boolean; destructive?: boolean; claimsReadOnly?: boolean }[] = [],
  extra: Partial<McpServerStatus> = {},
): McpServerStatus {
  return {
    name,
    transport: 'stdio',
    status: 'ready',
    tools: tools.map((t) => {
      const info: McpToolInfo = {
        name: t.name,
        modelName: `${name}__${t.name}`,
        readOnly: t.readOnly ?? false,
        destructive: t.destructive ?? false,
      };
      if (t.title) info.title = t.title;
      if (t.claimsReadOnly) info.claimsReadOnly = true;
      return info;
    }),
    ...extra,
  };
}

export function mcpConfigView(servers: McpServerEntry[] = [], extra: Partial<McpConfigView> = {}): McpConfigView {
  return {
    path: '/home/ada/.config/juncture/mcp.json',
    text: JSON.stringify({ mcpServers: Object.fromEntries(servers.map((s) => [s.name, s.config])) }, null, 2),
    servers,
    claudeDesktopPath: '/home/ada/.config/Claude/claude_desktop_config.json',
    ...extra,
  };
}

/** A generic interrupt bound to a running tool call, as Go sends an MCP server's prompt. */
export function mcpPrompt(
  id: string,
  prompt: Record<string, unknown>,
  responseSchema: JsonObject,
  toolCallId = 'tc-mcp',
): Interrupt {
  return {
    id,
    reason: 'mcp_prompt',
    toolCallId,
    responseSchema,
    metadata: {
      'tanstack:interruptBinding': { v: 1, kind: 'generic', interruptId: id, interruptedRunId: 'run-1', generation: 0 },
      'juncture:prompt': prompt,
    },
  };
}

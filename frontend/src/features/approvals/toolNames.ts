import type { McpCatalog } from '../../hooks/useMcpServers';
import type { RememberScope } from '../../transport/contract';

/** How a tool is named on the card: an MCP tool by its server's title for it. */
export interface ToolNames {
  /** The tool's title (its model name for built-in tools). */
  title: string;
  /** The MCP server's title, when it is an MCP tool. */
  server?: string;
}

export function namesOf(cat: McpCatalog, modelName: string): ToolNames {
  const e = cat.tools.get(modelName);
  return e ? { title: e.title, server: e.serverTitle } : { title: modelName };
}

function serverTitle(cat: McpCatalog, name: string | undefined, fallback: string | undefined): string {
  if (name && cat.serverTitles.has(name)) return cat.serverTitles.get(name)!;
  return fallback || name || 'this server';
}

/** An "Always allow" choice in words. */
export function ruleLabel(tool: string, r: RememberScope, names: ToolNames, cat: McpCatalog): string {
  switch (r.scope) {
    case 'tool':
      return `Every ${tool} call`;
    case 'command-prefix':
      return `Commands starting with “${r.pattern ?? ''}”`;
    case 'folder':
      return `${tool} inside ${r.pattern ?? 'this folder'}`;
    case 'file':
      return `${tool} on this file only (${r.pattern ?? ''})`;
    case 'thread':
      return `${tool} in this chat only`;
    case 'tool-identity':
      return `Always allow ${names.title}`;
    case 'server':
      return `Always allow every tool of ${serverTitle(cat, r.pattern, names.server)}`;
    case 'command-glob':
      return `Commands matching “${r.pattern ?? ''}”`;
    case 'folder-glob':
      return `${tool} of “${r.glob ?? '*'}” files under ${r.pattern ?? 'this folder'}`;
    case 'host':
      return `${tool} to ${r.pattern ?? 'this host'} only`;
    case 'arg-equals':
      return `${names.title} when ${r.arg ?? 'the argument'} is “${r.pattern ?? ''}”`;
    case 'arg-prefix':
      return `${names.title} when ${r.arg ?? 'the argument'} starts with “${r.pattern ?? ''}”`;
    case 'server-tools':
      return `Tools of ${serverTitle(cat, r.pattern, names.server)} named “${r.glob ?? '*'}”`;
  }
}

// What MCP servers offer beyond tools (README "MCP servers"): prompts as
// "/" commands, completions, resources to attach, log levels. The
// generated wire types, and parsers that narrow a stranger's lists (a
// server named these, so every field is checked and defaulted).

import type * as G from './contract.gen';
import { arr, bool, isObject, isString, isStringArray, num, str } from './json';

export type PromptInfo = G.PromptInfo;
export type PromptList = G.PromptList;
export type PromptText = G.PromptText;
export type Completion = G.Completion;
export type CompleteRequest = G.MCPCompleteRequest;
export type ResourceInfo = G.ResourceInfo;
export type TemplateInfo = G.TemplateInfo;
export type ResourceCatalog = G.ResourceCatalog;
export type ResourceRead = G.ResourceRead;
export type OfferProblem = G.OfferProblem;

/** MCP's log levels, least severe first ("" leaves it to the server). */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

function problems(o: Record<string, unknown>): OfferProblem[] {
  return arr(o, 'problems')
    .filter(isObject)
    .map((p) => ({ server: str(p, 'server'), message: str(p, 'message') }));
}

function parsePrompt(u: unknown): PromptInfo | null {
  if (!isObject(u) || !isString(u.name) || !isString(u.server)) return null;
  return {
    server: u.server,
    serverTitle: str(u, 'serverTitle', u.server),
    name: u.name,
    title: str(u, 'title'),
    description: str(u, 'description'),
    completes: bool(u, 'completes'),
    arguments: arr(u, 'arguments')
      .filter(isObject)
      .filter((a) => isString(a.name))
      .map((a) => ({ name: str(a, 'name'), title: str(a, 'title'), description: str(a, 'description'), required: bool(a, 'required') })),
  };
}

export function parsePromptList(u: unknown): PromptList {
  if (!isObject(u)) return { prompts: [], problems: [] };
  return { prompts: arr(u, 'prompts').map(parsePrompt).filter((p): p is PromptInfo => p !== null), problems: problems(u) };
}

function parseFiles(o: Record<string, unknown>): G.ResourceFile[] {
  return arr(o, 'files')
    .filter(isObject)
    .filter((f) => isString(f.data) && isString(f.name))
    .map((f) => ({ uri: str(f, 'uri'), name: str(f, 'name'), mimeType: str(f, 'mimeType', 'application/octet-stream'), data: str(f, 'data'), size: num(f, 'size') }));
}

function notes(o: Record<string, unknown>): string[] {
  const n = o.notes;
  return isStringArray(n) ? n : [];
}

export function parsePromptText(u: unknown): PromptText {
  if (!isObject(u)) return { text: '', files: [], notes: [] };
  return { text: str(u, 'text'), files: parseFiles(u), notes: notes(u) };
}

export function parseCompletion(u: unknown): Completion {
  if (!isObject(u)) return { values: [], hasMore: false, cut: false };
  const values = isStringArray(u.values) ? u.values.slice(0, 100) : [];
  return { values, total: num(u, 'total'), hasMore: bool(u, 'hasMore'), cut: bool(u, 'cut') };
}

function parseResource(u: unknown): ResourceInfo | null {
  if (!isObject(u) || !isString(u.uri)) return null;
  return { server: str(u, 'server'), uri: u.uri, name: str(u, 'name', u.uri), title: str(u, 'title'), description: str(u, 'description'), mimeType: str(u, 'mimeType'), size: num(u, 'size') };
}

function parseTemplate(u: unknown): TemplateInfo | null {
  if (!isObject(u) || !isString(u.uriTemplate)) return null;
  return {
    server: str(u, 'server'),
    uriTemplate: u.uriTemplate,
    name: str(u, 'name', u.uriTemplate),
    title: str(u, 'title'),
    description: str(u, 'description'),
    mimeType: str(u, 'mimeType'),
    variables: isStringArray(u.variables) ? u.variables : [],
    completes: bool(u, 'completes'),
  };
}

export function parseResourceCatalog(u: unknown): ResourceCatalog {
  if (!isObject(u)) return { servers: [], problems: [] };
  const servers = arr(u, 'servers')
    .filter(isObject)
    .filter((s) => isString(s.server))
    .map((s) => ({
      server: str(s, 'server'),
      title: str(s, 'title', str(s, 'server')),
      resources: arr(s, 'resources').map(parseResource).filter((r): r is ResourceInfo => r !== null),
      templates: arr(s, 'templates').map(parseTemplate).filter((t): t is TemplateInfo => t !== null),
    }));
  return { servers, problems: problems(u) };
}

export function parseResourceRead(u: unknown): ResourceRead {
  if (!isObject(u)) return { files: [], notes: [] };
  return { files: parseFiles(u), notes: notes(u) };
}

export function parseLogLevels(u: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(u)) return out;
  for (const [k, v] of Object.entries(u)) if (isString(v)) out[k] = v;
  return out;
}

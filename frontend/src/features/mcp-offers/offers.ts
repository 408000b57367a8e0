// Pure logic of the composer's MCP commands: which prompts "/" offers for
// what is typed, what a prompt's argument form still needs, and server
// files turned into composer attachments (they go through SendInput like
// any file, so Go checks them the same way).

import { kindOf, type PendingFile } from '../../lib/attachments';
import type { PromptInfo, ResourceInfo, TemplateInfo } from '../../transport/mcpOffers';

/** The query after a leading "/" (a command being typed), or null. */
export function slashQuery(text: string): string | null {
  if (!text.startsWith('/')) return null;
  const q = text.slice(1);
  if (/[\n]/.test(q) || q.length > 80) return null;
  return q;
}

/** Prompts matching a query: by name, title, server or description; the name's prefix first. */
export function matchPrompts(prompts: readonly PromptInfo[], query: string, limit = 50): PromptInfo[] {
  const q = query.trim().toLowerCase();
  if (!q) return prompts.slice(0, limit);
  const scored: [number, PromptInfo][] = [];
  for (const p of prompts) {
    const name = p.name.toLowerCase();
    const title = (p.title ?? '').toLowerCase();
    let score = -1;
    if (name.startsWith(q) || title.startsWith(q)) score = 0;
    else if (name.includes(q) || title.includes(q)) score = 1;
    else if (p.serverTitle.toLowerCase().includes(q) || p.server.toLowerCase().includes(q) || (p.description ?? '').toLowerCase().includes(q)) score = 2;
    if (score >= 0) scored.push([score, p]);
  }
  return scored
    .sort((a, b) => a[0] - b[0])
    .slice(0, limit)
    .map(([, p]) => p);
}

/** The label of a prompt in the menu. */
export function promptLabel(p: PromptInfo): string {
  return p.title || p.name;
}

/** The required arguments not filled in yet (by name). */
export function missingArgs(p: PromptInfo, values: Readonly<Record<string, string>>): string[] {
  return p.arguments.filter((a) => a.required && !(values[a.name] ?? '').trim()).map((a) => a.name);
}

/** The arguments to send: filled-in values only (an empty optional one is left out). */
export function argsToSend(values: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (v.trim() !== '') out[k] = v;
  return out;
}

/** The other arguments already filled in: the context of a completion. */
export function knownArgs(values: Readonly<Record<string, string>>, except: string): Record<string, string> {
  const out = argsToSend(values);
  delete out[except];
  return out;
}

/** Resources and templates whose name, title, URI or description match a query. */
export function filterResources<T extends ResourceInfo | TemplateInfo>(items: readonly T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...items];
  return items.filter((r) => {
    const uri = 'uri' in r ? r.uri : r.uriTemplate;
    return [r.name, r.title ?? '', uri, r.description ?? ''].some((s) => s.toLowerCase().includes(q));
  });
}

let seq = 0;

function headBytes(b64: string): Uint8Array {
  try {
    const bin = atob(b64.slice(0, 10924)); // 8 KiB of bytes
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return new Uint8Array();
  }
}

/** A file a server gave (base64) as a composer attachment. */
export function pendingFromServer(f: { name: string; mimeType: string; data: string; size: number }): PendingFile {
  const kind = kindOf(f.name, f.mimeType, headBytes(f.data));
  const p: PendingFile = { key: `mcp${++seq}`, name: f.name, mimeType: f.mimeType, size: f.size, kind, data: f.data };
  if (kind === 'image') p.previewUrl = `data:${f.mimeType};base64,${f.data}`;
  return p;
}

// Classifies pending AG-UI interrupts the way TanStack's client does
// (tanstack-interrupts.md §6.3, §17): ownership comes only from a valid
// `tanstack:interruptBinding`; anything else is "unbound" — shown as a
// status line, never as a form, and never blocking the composer.

import type { Interrupt, RememberScope, RememberScopeKind } from '../transport/contract';
import { RULE_SCOPES } from '../transport/contract';
import { isNumber, isObject, isString, tryParseJson, type JsonValue } from '../transport/json';
import type { ToolCallView } from './types';

export const BINDING_KEY = 'tanstack:interruptBinding';
export const PREVIEW_KEY = 'juncture:preview';
export const SUGGESTED_RULES_KEY = 'juncture:suggestedRules';

export interface Binding {
  kind: 'tool-approval' | 'client-tool-execution' | 'generic';
  interruptId: string;
  toolName?: string;
  toolCallId?: string;
  originalArgs?: unknown;
  interruptedRunId: string;
  generation: number;
  expiresAt?: string;
}

/** `juncture:preview`: kind "diff" | "command" | "json", or `{error}` when Go could not build it. */
export interface Preview {
  kind: string;
  title: string;
  body: string;
  folder: string;
  /** What the call's program can write and reach ("sandbox: landlock (…)"), for calls that start one. */
  sandbox?: string;
  error?: string;
}

export type ClassifiedInterrupt =
  | {
      kind: 'approval';
      interrupt: Interrupt;
      toolCallId: string;
      toolName: string;
      args: unknown;
      argsText: string;
      preview?: Preview;
      suggestedRules: RememberScope[];
      canEditArgs: boolean;
      /** Where a deny reason goes in the payload, if anywhere. */
      reasonField: 'payload' | 'reason' | null;
    }
  | { kind: 'question'; interrupt: Interrupt; schema: Record<string, unknown> | undefined }
  | { kind: 'unbound'; interrupt: Interrupt; why: string };

const nonEmpty = (v: unknown): v is string => isString(v) && v.length > 0;

/** `readInterruptBinding` (opened form), §6.3. Returns null for "not ours". */
export function readBinding(it: Interrupt): Binding | null {
  const raw = it.metadata?.[BINDING_KEY];
  if (!isObject(raw)) return null;
  if (raw.interruptId !== it.id || !nonEmpty(raw.interruptId)) return null;
  if (raw.v !== undefined && raw.v !== 1) return null;
  if (isString(raw.responseSchemaHash) && raw.responseSchemaHash === '') return null;
  if (isString(raw.expiresAt) && !Number.isFinite(Date.parse(raw.expiresAt))) return null;
  if (!nonEmpty(raw.interruptedRunId)) return null;
  if (!isNumber(raw.generation) || !Number.isInteger(raw.generation) || raw.generation < 0) return null;
  const base = {
    interruptId: raw.interruptId,
    interruptedRunId: raw.interruptedRunId,
    generation: raw.generation,
    ...(isString(raw.expiresAt) ? { expiresAt: raw.expiresAt } : {}),
  };
  if (raw.kind === 'generic') {
    const firstParty =
      isString(raw.definitionId) || isString(raw.key) || isString(raw.payloadSchemaHash) || 'batchIndex' in raw;
    if (firstParty) {
      if (!nonEmpty(raw.definitionId) || !nonEmpty(raw.key)) return null;
      if (!isNumber(raw.batchIndex) || !Number.isInteger(raw.batchIndex) || raw.batchIndex < 0) return null;
    }
    return { kind: 'generic', ...base };
  }
  if (!nonEmpty(raw.responseSchemaHash) || !nonEmpty(raw.toolName) || !nonEmpty(raw.toolCallId)) return null;
  if (raw.kind === 'client-tool-execution') {
    if (!nonEmpty(raw.outputSchemaHash)) return null;
    return { kind: 'client-tool-execution', ...base, toolName: raw.toolName, toolCallId: raw.toolCallId };
  }
  if (raw.kind === 'tool-approval') {
    if (!nonEmpty(raw.inputSchemaHash) || !nonEmpty(raw.approvalSchemaHash)) return null;
    return {
      kind: 'tool-approval',
      ...base,
      toolName: raw.toolName,
      toolCallId: raw.toolCallId,
      originalArgs: raw.originalArgs,
    };
  }
  return null;
}

function parsePreview(v: unknown): Preview | undefined {
  if (!isObject(v)) return undefined;
  const s = (k: string) => (isString(v[k]) ? v[k] : '');
  const p: Preview = { kind: s('kind'), title: s('title'), body: s('body'), folder: s('folder') };
  if (s('error')) p.error = s('error');
  if (s('sandbox')) p.sandbox = s('sandbox');
  return p.body || p.title || p.error ? p : undefined;
}

// Every scope Go offers (contract.gen's RULE_SCOPES): a list of its own
// here once dropped the argument scopes (command glob, folder glob, host,
// argument equals / starts with) before they reached the card.
function isRuleScope(v: unknown): v is RememberScopeKind {
  return isString(v) && (RULE_SCOPES as readonly string[]).includes(v);
}

/** Scopes of MCP tools' rules (`juncture:suggestedRules` of an MCP call's approval). */
export function isMcpRule(r: RememberScope): boolean {
  return r.scope === 'tool-identity' || r.scope === 'server';
}

function parseRules(v: unknown): RememberScope[] {
  if (!Array.isArray(v)) return [];
  const out: RememberScope[] = [];
  for (const r of v) {
    if (!isObject(r)) continue;
    if (!isRuleScope(r.scope)) continue;
    const rule: RememberScope = { scope: r.scope };
    if (isString(r.pattern) && r.pattern) rule.pattern = r.pattern;
    // An argument rule names its argument, a folder or server rule its glob:
    // without them Go refuses the choice (it matches the offered rule exactly).
    if (isString(r.arg) && r.arg) rule.arg = r.arg;
    if (isString(r.glob) && r.glob) rule.glob = r.glob;
    out.push(rule);
  }
  return out;
}

/** The approve / reject envelopes of a §9.2 approval schema, when it has that shape. */
function envelopes(schema: Record<string, unknown> | undefined): {
  approve?: Record<string, unknown>;
  reject?: Record<string, unknown>;
  flat?: Record<string, unknown>;
} {
  if (!schema) return {};
  if (Array.isArray(schema.oneOf)) {
    const out: { approve?: Record<string, unknown>; reject?: Record<string, unknown> } = {};
    for (const env of schema.oneOf) {
      if (!isObject(env) || !isObject(env.properties)) continue;
      const approved = env.properties.approved;
      if (isObject(approved) && approved.const === true) out.approve = env;
      if (isObject(approved) && approved.const === false) out.reject = env;
    }
    return out;
  }
  return { flat: schema };
}

function declares(env: Record<string, unknown> | undefined, key: string): boolean {
  return !!env && isObject(env.properties) && key in env.properties;
}

function isOpen(env: Record<string, unknown> | undefined): boolean {
  return !!env && env.additionalProperties !== false;
}

function argsOf(it: Interrupt, b: Binding, call: ToolCallView | undefined): { args: unknown; text: string } {
  const fromMeta = it.metadata?.input;
  const candidates: unknown[] = [fromMeta, b.originalArgs];
  for (const c of candidates) {
    if (c !== undefined) return { args: c, text: JSON.stringify(c, null, 2) };
  }
  if (call?.args) {
    const p = tryParseJson(call.args);
    if (p.ok) return { args: p.value, text: JSON.stringify(p.value, null, 2) };
    return { args: call.args, text: call.args };
  }
  return { args: {}, text: '{}' };
}

export function classifyInterrupt(it: Interrupt, toolCalls: Record<string, ToolCallView>): ClassifiedInterrupt {
  const b = readBinding(it);
  if (!b) {
    return { kind: 'unbound', interrupt: it, why:
        it.metadata !== undefined && BINDING_KEY in it.metadata
          ? 'It was recorded in a form this version of Juncture cannot answer; it stays until its owner settles it, and never blocks you.'
          : 'It belongs to another program and cannot be answered here.',
    };
  }
  if (b.kind === 'tool-approval') {
    const toolCallId = b.toolCallId ?? '';
    if (it.toolCallId !== undefined && it.toolCallId !== toolCallId) {
      return { kind: 'unbound', interrupt: it, why: 'The approval does not match its tool call.' };
    }
    const call = toolCalls[toolCallId];
    const { args, text } = argsOf(it, b, call);
    const env = envelopes(it.responseSchema);
    const canEditArgs = env.flat
      ? declares(env.flat, 'editedArgs') || isOpen(env.flat)
      : env.approve
        ? declares(env.approve, 'editedArgs')
        : true;
    let reasonField: 'payload' | 'reason' | null = null;
    const rej = env.reject ?? env.flat;
    if (declares(rej, 'payload')) reasonField = 'payload';
    else if (declares(rej, 'reason')) reasonField = 'reason';
    else if (!it.responseSchema || isOpen(rej)) reasonField = 'reason';
    const preview = parsePreview(it.metadata?.[PREVIEW_KEY]);
    const c: ClassifiedInterrupt = {
      kind: 'approval',
      interrupt: it,
      toolCallId,
      toolName: b.toolName || call?.name || 'tool',
      args,
      argsText: text,
      suggestedRules: parseRules(it.metadata?.[SUGGESTED_RULES_KEY]),
      canEditArgs,
      reasonField,
    };
    if (preview) c.preview = preview;
    return c;
  }
  if (b.kind === 'generic') return { kind: 'question', interrupt: it, schema: it.responseSchema };
  return {
    kind: 'unbound',
    interrupt: it,
    why: 'Juncture runs this action itself; no answer is needed here.',
  };
}

export function approvalPayload(
  c: Extract<ClassifiedInterrupt, { kind: 'approval' }>,
  decision: { approved: true; editedArgs?: JsonValue } | { approved: false; reason?: string },
): JsonValue {
  if (decision.approved) {
    return decision.editedArgs !== undefined ? { approved: true, editedArgs: decision.editedArgs } : { approved: true };
  }
  const reason = decision.reason?.trim();
  // A reject branch with a schema requires the payload object (Juncture's
  // DenialReasonSchema): send {} when no reason was given.
  if (c.reasonField === 'payload') return { approved: false, payload: reason ? { reason } : {} };
  if (!reason || !c.reasonField) return { approved: false };
  return { approved: false, reason };
}

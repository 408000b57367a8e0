// Types of docs/contract.md and the parsers that narrow unknown JSON to them.
// Parsers are lenient on optional fields and strict on the ones the UI needs.

import {
  arr,
  bool,
  isObject,
  isString,
  isStringArray,
  num,
  obj,
  optStr,
  str,
  type JsonValue,
} from './json';
import { JunctureError } from './errors';

export type Role = 'user' | 'assistant' | 'tool' | 'system';
export type MessageStatus = 'complete' | 'streaming' | 'interrupted' | 'error';
export type ToolState =
  | 'awaiting-approval'
  | 'running'
  | 'done'
  | 'failed'
  | 'denied'
  | 'interrupted'
  | 'interrupted-mid-run'
  | 'pending-client';

export const TOOL_STATES: readonly ToolState[] = [
  'awaiting-approval',
  'running',
  'done',
  'failed',
  'denied',
  'interrupted',
  'interrupted-mid-run',
  'pending-client',
];

export interface Thread {
  id: string;
  title: string;
  pinned: boolean;
  createdAt: number;
  updatedAt: number;
}

/**
 * A thread as `ListThreads` lists it: the thread's fields plus what it is
 * doing when the list was read. `waiting` counts pending interrupts
 * (approvals, questions; unbound ones included) and pending client tool calls.
 */
export interface ThreadListItem extends Thread {
  running: boolean;
  waiting: number;
}

export interface ToolCallRecord {
  id: string;
  name: string;
  arguments: string;
}

export interface Message {
  id: string;
  threadId: string;
  runId?: string;
  role: Role;
  content: string;
  reasoning?: string;
  toolCalls?: ToolCallRecord[];
  toolCallId?: string;
  toolName?: string;
  isError?: boolean;
  status: MessageStatus;
  error?: string;
  createdAt: number;
}

/** AG-UI 1.0 Interrupt (agui-1.0.md §5.1). */
export interface Interrupt {
  id: string;
  reason: string;
  message?: string;
  toolCallId?: string;
  responseSchema?: Record<string, unknown>;
  expiresAt?: string;
  metadata?: Record<string, unknown>;
  subagentRunId?: string;
}

/** Go `history.ClientToolCall`. */
export interface ClientToolCall {
  toolCallId: string;
  threadId: string;
  runId: string;
  toolName: string;
  arguments: string;
  state: string;
  result?: string;
  createdAt: number;
}

export interface ThreadView {
  thread: Thread;
  messages: Message[];
  running: boolean;
  queued: string[];
  interrupts: Interrupt[];
  clientTools: ClientToolCall[];
  toolStates: Record<string, ToolState>;
}

export interface Status {
  mode: 'desktop' | 'browser';
  configured: boolean;
  endpoint: string;
  model: string;
  detected?: string;
  problem?: string;
}

export type Theme = 'system' | 'light' | 'dark';

export interface Settings {
  baseUrl: string;
  apiKey: string;
  model: string;
  workspace: string;
  loopGuard: number;
  theme: Theme;
  enableWriteTools: boolean;
}

export type SettingsField = keyof Settings;
export type SettingSource = 'environment' | 'saved' | 'default' | 'detected';

export interface SettingsView {
  settings: Settings;
  sources: Partial<Record<SettingsField, SettingSource>>;
}

export interface SearchHitPart {
  text: string;
  match: boolean;
}

export interface SearchHit {
  threadId: string;
  threadTitle: string;
  messageId: string;
  role: Role;
  parts: SearchHitPart[];
  createdAt: number;
}

export interface Resolution {
  interruptId: string;
  status: 'resolved' | 'cancelled';
  payload?: JsonValue;
}

export interface RememberScope {
  scope: 'tool' | 'command-prefix' | 'folder';
  pattern?: string;
}

export interface ClientToolResult {
  content: string;
  isError?: boolean;
}

export interface PermissionRule {
  id: string;
  tool: string;
  scope: string;
  pattern?: string;
  createdAt: number;
}

export interface SendInputResult {
  threadId: string;
  queued: boolean;
}

export interface ThreadPage {
  threads: ThreadListItem[];
  nextCursor: string;
}

export interface ExportResult {
  filename: string;
  content: string;
}

export interface TestConnectionResult {
  ok: boolean;
  message: string;
  models: string[];
}

// ---------------------------------------------------------------- parsers

function bad(what: string): JunctureError {
  return new JunctureError('bad-response', `Unexpected ${what} from Juncture`);
}

function asRole(v: unknown): Role {
  return v === 'user' || v === 'assistant' || v === 'tool' || v === 'system' ? v : 'system';
}

function asStatus(v: unknown): MessageStatus {
  return v === 'streaming' || v === 'interrupted' || v === 'error' ? v : 'complete';
}

export function isToolState(v: unknown): v is ToolState {
  return typeof v === 'string' && (TOOL_STATES as readonly string[]).includes(v);
}

export function parseNull(_u: unknown): null {
  return null;
}

export function parseThread(u: unknown): Thread {
  if (!isObject(u) || !isString(u.id)) throw bad('thread');
  return {
    id: u.id,
    title: str(u, 'title'),
    pinned: bool(u, 'pinned'),
    createdAt: num(u, 'createdAt'),
    updatedAt: num(u, 'updatedAt', num(u, 'createdAt')),
  };
}

/** A list item; `running`/`waiting` default to idle when an older server leaves them out. */
export function parseThreadListItem(u: unknown): ThreadListItem {
  const t = parseThread(u);
  const o = u as Record<string, unknown>;
  const waiting = num(o, 'waiting');
  return { ...t, running: bool(o, 'running'), waiting: waiting > 0 ? Math.floor(waiting) : 0 };
}

/** Tool calls arrive as `{id,name,arguments}` (contract) or AG-UI `{id,function:{name,arguments}}`. */
export function parseToolCallRecord(u: unknown): ToolCallRecord | null {
  if (!isObject(u) || !isString(u.id)) return null;
  const fn = obj(u, 'function');
  if (fn) return { id: u.id, name: str(fn, 'name'), arguments: str(fn, 'arguments') };
  return { id: u.id, name: str(u, 'name'), arguments: str(u, 'arguments') };
}

export function parseMessage(u: unknown): Message {
  if (!isObject(u) || !isString(u.id)) throw bad('message');
  const m: Message = {
    id: u.id,
    threadId: str(u, 'threadId'),
    role: asRole(u.role),
    content: str(u, 'content'),
    status: asStatus(u.status),
    createdAt: num(u, 'createdAt'),
  };
  const runId = optStr(u, 'runId');
  if (runId) m.runId = runId;
  const reasoning = optStr(u, 'reasoning');
  if (reasoning) m.reasoning = reasoning;
  const calls = arr(u, 'toolCalls')
    .map(parseToolCallRecord)
    .filter((c): c is ToolCallRecord => c !== null);
  if (calls.length) m.toolCalls = calls;
  const toolCallId = optStr(u, 'toolCallId');
  if (toolCallId) m.toolCallId = toolCallId;
  const toolName = optStr(u, 'toolName');
  if (toolName) m.toolName = toolName;
  if (u.isError === true) m.isError = true;
  const error = optStr(u, 'error');
  if (error) m.error = error;
  return m;
}

export function parseInterrupt(u: unknown): Interrupt | null {
  if (!isObject(u) || !isString(u.id)) return null;
  const it: Interrupt = { id: u.id, reason: str(u, 'reason') };
  const message = optStr(u, 'message');
  if (message !== undefined) it.message = message;
  const toolCallId = optStr(u, 'toolCallId');
  if (toolCallId !== undefined) it.toolCallId = toolCallId;
  const rs = obj(u, 'responseSchema');
  if (rs) it.responseSchema = rs;
  const exp = optStr(u, 'expiresAt');
  if (exp !== undefined) it.expiresAt = exp;
  const md = obj(u, 'metadata');
  if (md) it.metadata = md;
  const sub = optStr(u, 'subagentRunId');
  if (sub !== undefined) it.subagentRunId = sub;
  return it;
}

export function parseInterrupts(u: unknown): Interrupt[] {
  return (Array.isArray(u) ? u : []).map(parseInterrupt).filter((i): i is Interrupt => i !== null);
}

export function parseClientToolCall(u: unknown): ClientToolCall | null {
  if (!isObject(u) || !isString(u.toolCallId)) return null;
  const c: ClientToolCall = {
    toolCallId: u.toolCallId,
    threadId: str(u, 'threadId'),
    runId: str(u, 'runId'),
    toolName: str(u, 'toolName'),
    arguments: str(u, 'arguments', '{}'),
    state: str(u, 'state', 'pending'),
    createdAt: num(u, 'createdAt'),
  };
  const result = optStr(u, 'result');
  if (result !== undefined) c.result = result;
  return c;
}

export function parseThreadView(u: unknown): ThreadView {
  if (!isObject(u)) throw bad('thread view');
  const toolStates: Record<string, ToolState> = {};
  const ts = obj(u, 'toolStates');
  if (ts) {
    for (const [k, v] of Object.entries(ts)) if (isToolState(v)) toolStates[k] = v;
  }
  return {
    thread: parseThread(u.thread),
    messages: arr(u, 'messages').map(parseMessage),
    running: bool(u, 'running'),
    queued: isStringArray(u.queued) ? u.queued : [],
    interrupts: parseInterrupts(u.interrupts),
    clientTools: arr(u, 'clientTools')
      .map(parseClientToolCall)
      .filter((c): c is ClientToolCall => c !== null),
    toolStates,
  };
}

export function parseStatus(u: unknown): Status {
  if (!isObject(u)) throw bad('status');
  const s: Status = {
    mode: u.mode === 'desktop' ? 'desktop' : 'browser',
    configured: bool(u, 'configured'),
    endpoint: str(u, 'endpoint'),
    model: str(u, 'model'),
  };
  const detected = optStr(u, 'detected');
  if (detected) s.detected = detected;
  const problem = optStr(u, 'problem');
  if (problem) s.problem = problem;
  return s;
}

function asTheme(v: unknown): Theme {
  return v === 'light' || v === 'dark' ? v : 'system';
}

export function parseSettings(u: unknown): Settings {
  if (!isObject(u)) throw bad('settings');
  return {
    baseUrl: str(u, 'baseUrl'),
    apiKey: str(u, 'apiKey'),
    model: str(u, 'model'),
    workspace: str(u, 'workspace'),
    loopGuard: num(u, 'loopGuard', 25),
    theme: asTheme(u.theme),
    enableWriteTools: bool(u, 'enableWriteTools'),
  };
}

const SETTINGS_FIELDS: readonly SettingsField[] = [
  'baseUrl',
  'apiKey',
  'model',
  'workspace',
  'loopGuard',
  'theme',
  'enableWriteTools',
];

export function isSettingsField(k: string): k is SettingsField {
  return (SETTINGS_FIELDS as readonly string[]).includes(k);
}

export function parseSettingsView(u: unknown): SettingsView {
  if (!isObject(u)) throw bad('settings');
  const sources: Partial<Record<SettingsField, SettingSource>> = {};
  const src = obj(u, 'sources');
  if (src) {
    for (const [k, v] of Object.entries(src)) {
      if (isSettingsField(k) && (v === 'environment' || v === 'saved' || v === 'default' || v === 'detected')) {
        sources[k] = v;
      }
    }
  }
  return { settings: parseSettings(u.settings), sources };
}

export function parseSearchHits(u: unknown): SearchHit[] {
  if (!Array.isArray(u)) return [];
  const hits: SearchHit[] = [];
  for (const h of u) {
    if (!isObject(h) || !isString(h.threadId)) continue;
    hits.push({
      threadId: h.threadId,
      threadTitle: str(h, 'threadTitle'),
      messageId: str(h, 'messageId'),
      role: asRole(h.role),
      parts: arr(h, 'parts')
        .filter(isObject)
        .map((p) => ({ text: str(p, 'text'), match: bool(p, 'match') })),
      createdAt: num(h, 'createdAt'),
    });
  }
  return hits;
}

export function parseSendInputResult(u: unknown): SendInputResult {
  if (!isObject(u)) throw bad('SendInput result');
  return { threadId: str(u, 'threadId'), queued: bool(u, 'queued') };
}

export function parseThreadPage(u: unknown): ThreadPage {
  if (!isObject(u)) throw bad('thread list');
  return { threads: arr(u, 'threads').map(parseThreadListItem), nextCursor: str(u, 'nextCursor') };
}

export function parseExportResult(u: unknown): ExportResult {
  if (!isObject(u) || !isString(u.content)) throw bad('export');
  return { filename: str(u, 'filename', 'conversation.txt'), content: u.content };
}

export function parseTestConnection(u: unknown): TestConnectionResult {
  if (!isObject(u)) throw bad('connection test result');
  return {
    ok: bool(u, 'ok'),
    message: str(u, 'message'),
    models: isStringArray(u.models) ? u.models : [],
  };
}

export function parsePermissionRules(u: unknown): PermissionRule[] {
  if (!Array.isArray(u)) return [];
  const out: PermissionRule[] = [];
  for (const r of u) {
    if (!isObject(r) || !isString(r.id)) continue;
    const rule: PermissionRule = {
      id: r.id,
      tool: str(r, 'tool'),
      scope: str(r, 'scope'),
      createdAt: num(r, 'createdAt'),
    };
    const pattern = optStr(r, 'pattern');
    if (pattern) rule.pattern = pattern;
    out.push(rule);
  }
  return out;
}

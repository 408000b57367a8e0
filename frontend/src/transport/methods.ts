// The method map: argument tuples and result parsers for every contract
// method. `Transport.call` is typed from it, and every result is narrowed
// from `unknown` by the parser before it reaches a component. Both are
// checked against Go's method set (contract.gen.ts `Methods`): every bound
// method is listed, each tuple fits Go's arguments and each parser returns
// Go's result type.

import type { AttachmentInput, LedgerFilter, Methods, PermissionRule } from './contract.gen';
import { parseCount, parseLedgerEntries, parseLedgerReport, parsePermissionRule, parseRuleViews } from './grants';
import {
  parseAnswerResult,
  parseExportResult,
  parseImportSummary,
  parseMcpConfigView,
  parseNull,
  parseServerStatuses,
  parseString,
  parsePermissionRules,
  parseSearchHits,
  parseSendInputResult,
  parseAttachmentData,
  parseSettingsView,
  parseStatus,
  parseTestConnection,
  parseThread,
  parseThreadPage,
  parseThreadView,
  type AnswerBatch,
  type ClientToolResult,
  type McpServerConfig,
  type RememberScope,
  type Resolution,
  type Settings,
} from './contract';
import { parseConversationImport, type ConversationFormat } from './imports';
import { parseCompletion, parseLogLevels, parsePromptList, parsePromptText, parseResourceCatalog, parseResourceRead, type CompleteRequest } from './mcpOffers';
import { parseEndpoint, parseEndpoints, parsePreset, parsePresets, parseStringList, parseThreadOptions, type Endpoint, type Preset, type ThreadOptionsInput } from './endpoints';

export interface MethodArgs {
  Status: [];
  /** The one way the window answers: approvals, questions and client tool results (docs/contract.md). */
  Answer: [threadId: string, batch: AnswerBatch];
  /** Files (data in base64) are optional: the two-argument form sends text only. */
  SendInput: [threadId: string, text: string, attachments?: AttachmentInput[]];
  GetAttachment: [threadId: string, id: string];
  Interrupt: [threadId: string];
  /** Continues the interrupted last answer in place (no message of the person). */
  ContinueAnswer: [threadId: string];
  EditMessage: [threadId: string, messageId: string, text: string];
  Regenerate: [threadId: string, messageId: string];
  SelectBranch: [threadId: string, messageId: string];
  RemoveQueued: [threadId: string, index: number];
  /** Conversions onto Answer kept for other clients; the window does not call them. */
  ResolveInterrupts: [threadId: string, resolutions: Resolution[]];
  RespondPermission: [threadId: string, toolCallId: string, allow: boolean, remember: RememberScope | null];
  CompleteClientTool: [threadId: string, toolCallId: string, result: ClientToolResult | null];
  /** presetId "" starts from the person's default (the "default" preset). */
  NewThread: [presetId: string];
  ListThreads: [cursor: string, limit: number];
  GetThread: [threadId: string];
  RenameThread: [threadId: string, title: string];
  PinThread: [threadId: string, pinned: boolean];
  DeleteThread: [threadId: string];
  DeleteAllHistory: [];
  ImportThread: [content: string];
  /** A ChatGPT or Claude conversations.json; a malformed file fails with details {line, column}. */
  ImportConversations: [format: ConversationFormat, content: string];
  SearchHistory: [query: string, limit: number];
  ExportThread: [threadId: string, format: 'markdown' | 'json'];
  SaveExport: [threadId: string, format: 'markdown' | 'json'];
  Notify: [title: string, body: string];
  GetSettings: [];
  SaveSettings: [settings: Settings];
  TestConnection: [settings: Settings];
  ListPermissionRules: [];
  RevokePermissionRule: [id: string];
  ListRules: [];
  SetRuleDuration: [id: string, duration: string];
  AddRule: [rule: PermissionRule];
  ExportRules: [];
  ImportRules: [text: string];
  ListLedger: [filter: LedgerFilter];
  VerifyLedger: [];
  ExportLedger: [format: 'jsonl' | 'csv'];
  ClearLedger: [confirm: string];
  /** MCP servers (docs/contract.md "MCP servers"): mcp.json is the source of truth. */
  ListMCPServers: [];
  GetMCPConfig: [];
  /** Add (previousName "") or replace / rename one server; masked secrets sent back keep the stored ones. */
  SaveMCPServer: [previousName: string, name: string, config: McpServerConfig];
  DeleteMCPServer: [name: string];
  SetMCPServerEnabled: [name: string, enabled: boolean];
  /** The raw editor; a text that does not parse fails with details {line, column}. */
  SaveMCPConfigText: [text: string];
  ImportClaudeConfig: [text: string];
  RestartMCPServer: [name: string];
  MCPServerLog: [name: string];
  /** Endpoints, presets and per-thread options (README "Endpoints, models and presets"). */
  ListEndpoints: [];
  /** id "" adds; a masked apiKey keeps the stored key; isDefault makes it the default. */
  SaveEndpoint: [endpoint: Endpoint];
  DeleteEndpoint: [id: string];
  /** GET {base}/models of an endpoint ("" = the default). */
  ListModels: [endpointId: string];
  ListPresets: [];
  SavePreset: [preset: Preset];
  DeletePreset: [id: string];
  /** Absent fields stay as they are; effective from the thread's next model call. */
  SetThreadOptions: [threadId: string, options: ThreadOptionsInput];
  /** What MCP servers offer beyond tools (transport/mcpOffers.ts). */
  ListMCPPrompts: [];
  GetMCPPrompt: [server: string, name: string, args: Record<string, string>];
  CompleteMCP: [request: CompleteRequest];
  ListMCPResources: [];
  /** name: the name the list showed ("" for the URI's last segment). */
  ReadMCPResource: [server: string, uri: string, name: string];
  ReadMCPResourceTemplate: [server: string, template: string, vars: Record<string, string>];
  MCPLogLevels: [];
  /** level "" leaves it to the server. */
  SetMCPLogLevel: [server: string, level: string];
}

/** SaveExport: the path written, or "" when the person cancelled the dialog. */
function parseSavedPath(u: unknown): string {
  if (typeof u !== 'string') throw new Error('SaveExport: expected a path string');
  return u;
}

export const resultParsers = {
  Status: parseStatus,
  Answer: parseAnswerResult,
  SendInput: parseSendInputResult,
  GetAttachment: parseAttachmentData,
  Interrupt: parseNull,
  ContinueAnswer: parseNull,
  EditMessage: parseSendInputResult,
  Regenerate: parseNull,
  SelectBranch: parseThreadView,
  RemoveQueued: parseNull,
  ResolveInterrupts: parseNull,
  RespondPermission: parseNull,
  CompleteClientTool: parseNull,
  NewThread: parseThread,
  ListThreads: parseThreadPage,
  GetThread: parseThreadView,
  RenameThread: parseNull,
  PinThread: parseNull,
  DeleteThread: parseNull,
  DeleteAllHistory: parseNull,
  ImportThread: parseThread,
  ImportConversations: parseConversationImport,
  SearchHistory: parseSearchHits,
  ExportThread: parseExportResult,
  SaveExport: parseSavedPath,
  Notify: parseNull,
  GetSettings: parseSettingsView,
  SaveSettings: parseSettingsView,
  TestConnection: parseTestConnection,
  ListPermissionRules: parsePermissionRules,
  RevokePermissionRule: parseNull,
  ListRules: parseRuleViews,
  SetRuleDuration: parseNull,
  AddRule: parsePermissionRule,
  ExportRules: parseString,
  ImportRules: parseCount,
  ListLedger: parseLedgerEntries,
  VerifyLedger: parseLedgerReport,
  ExportLedger: parseString,
  ClearLedger: parseNull,
  ListMCPServers: parseServerStatuses,
  GetMCPConfig: parseMcpConfigView,
  SaveMCPServer: parseMcpConfigView,
  DeleteMCPServer: parseMcpConfigView,
  SetMCPServerEnabled: parseMcpConfigView,
  SaveMCPConfigText: parseMcpConfigView,
  ImportClaudeConfig: parseImportSummary,
  RestartMCPServer: parseNull,
  MCPServerLog: parseString,
  ListEndpoints: parseEndpoints,
  SaveEndpoint: parseEndpoint,
  DeleteEndpoint: parseNull,
  ListModels: parseStringList,
  ListPresets: parsePresets,
  SavePreset: parsePreset,
  DeletePreset: parseNull,
  SetThreadOptions: parseThreadOptions,
  ListMCPPrompts: parsePromptList,
  GetMCPPrompt: parsePromptText,
  CompleteMCP: parseCompletion,
  ListMCPResources: parseResourceCatalog,
  ReadMCPResource: parseResourceRead,
  ReadMCPResourceTemplate: parseResourceRead,
  MCPLogLevels: parseLogLevels,
  SetMCPLogLevel: parseNull,
} satisfies { [M in keyof Methods]: (u: unknown) => Methods[M]['result'] };

type Assert<T extends true> = T;
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
/** Every Go method has an argument tuple, and no other method is listed. */
export type MethodArgsCoverGo = Assert<SameKeys<MethodArgs, Methods>>;
/** Each argument tuple fits the Go method's parameters (an optional trailing one is sent as absent: nil in Go). */
export type MethodArgsFitGo = Assert<{ [M in keyof MethodArgs]: Required<MethodArgs[M]> } extends { [M in keyof Methods]: Methods[M]['args'] } ? true : false>;

export type MethodName = keyof MethodArgs;
export type Result<M extends MethodName> = ReturnType<(typeof resultParsers)[M]>;

export const METHOD_NAMES = Object.keys(resultParsers) as MethodName[];

export function isMethodName(s: string): s is MethodName {
  return Object.prototype.hasOwnProperty.call(resultParsers, s);
}

export function parseResult<M extends MethodName>(method: M, raw: unknown): Result<M> {
  const parser: (u: unknown) => unknown = resultParsers[method];
  return parser(raw) as Result<M>;
}

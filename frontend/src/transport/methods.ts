// The method map. Every bound Go method, its arguments and its result type
// come from Go (contract.gen.ts `Methods`), and its result parser too
// (parse.gen.ts `resultParsers`): a method added in Go is callable with
// nothing written here. This file keeps only what the window narrows:
// arguments it sends in a tighter form, and results it reads with its own
// defaults. `Transport.call` is typed from the merged map, and every result
// is narrowed from `unknown` by its parser before it reaches a component.

import type { AttachmentInput, Methods } from './contract.gen';
import { resultParsers as generatedParsers } from './parse.gen';
import { parseSettingsView, parseStatus, parseThreadView, type Settings } from './contract';
import type { ConversationFormat } from './imports';

/** Arguments the window sends in a narrower form than Go declares. */
interface ArgOverrides {
  /** Files (data in base64) are optional: the two-argument form sends text only. */
  SendInput: [threadId: string, text: string, attachments?: AttachmentInput[]];
  /** A ChatGPT or Claude conversations.json; a malformed file fails with details {line, column}. */
  ImportConversations: [format: ConversationFormat, content: string];
  ExportThread: [threadId: string, format: 'markdown' | 'json'];
  SaveExport: [threadId: string, format: 'markdown' | 'json'];
  SaveSettings: [settings: Settings];
  TestConnection: [settings: Settings];
}

export type MethodArgs = { [M in keyof Methods]: M extends keyof ArgOverrides ? ArgOverrides[M] : Methods[M]['args'] };

/** SaveExport: the path written, or "" when the person cancelled the dialog. */
function parseSavedPath(u: unknown): string {
  if (typeof u !== 'string') throw new Error('SaveExport: expected a path string');
  return u;
}

export const resultParsers = {
  ...generatedParsers,
  Status: parseStatus,
  GetThread: parseThreadView,
  SelectBranch: parseThreadView,
  GetSettings: parseSettingsView,
  SaveSettings: parseSettingsView,
  SaveExport: parseSavedPath,
} satisfies { [M in keyof Methods]: (u: unknown) => Methods[M]['result'] };

type Assert<T extends true> = T;
/** Each narrowed argument tuple fits the Go method's parameters (an optional trailing one is sent as absent: nil in Go). */
export type MethodArgsFitGo = Assert<{ [M in keyof ArgOverrides]: Required<ArgOverrides[M]> } extends { [M in keyof ArgOverrides]: Methods[M]['args'] } ? true : false>;

export type MethodName = keyof Methods;
export type Result<M extends MethodName> = ReturnType<(typeof resultParsers)[M]>;

export const METHOD_NAMES = Object.keys(resultParsers) as MethodName[];

export function isMethodName(s: string): s is MethodName {
  return Object.prototype.hasOwnProperty.call(resultParsers, s);
}

export function parseResult<M extends MethodName>(method: M, raw: unknown): Result<M> {
  const parser: (u: unknown) => unknown = resultParsers[method];
  return parser(raw) as Result<M>;
}

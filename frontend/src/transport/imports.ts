// ImportConversations (README "History and durability"): what importing a
// ChatGPT or Claude conversations.json added, narrowed from the wire.

import type * as G from './contract.gen';
import { JunctureError } from './errors';
import { isObject, isStringArray, num } from './json';

export type ConversationImport = G.ConversationImport;

/** The formats ImportConversations reads; "auto" tells them apart by shape. */
export type ConversationFormat = 'auto' | 'chatgpt' | 'claude';

export function parseConversationImport(u: unknown): ConversationImport {
  if (!isObject(u)) throw new JunctureError('bad-response', 'Unexpected import summary from Juncture');
  return {
    threads: num(u, 'threads'),
    messages: num(u, 'messages'),
    alreadyImported: num(u, 'alreadyImported'),
    skippedMessages: num(u, 'skippedMessages'),
    emptyConversations: num(u, 'emptyConversations'),
    threadIds: isStringArray(u.threadIds) ? u.threadIds : [],
  };
}

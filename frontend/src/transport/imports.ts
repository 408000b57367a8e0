// ImportConversations (README "History and durability"): what importing a
// ChatGPT or Claude conversations.json added, narrowed from the wire.

import type * as G from './contract.gen';

export { parseConversationImport } from './parse.gen';

export type ConversationImport = G.ConversationImport;

/** The formats ImportConversations reads; "auto" tells them apart by shape. */
export type ConversationFormat = 'auto' | 'chatgpt' | 'claude';

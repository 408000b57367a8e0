// What MCP servers offer beyond tools (README "MCP servers"): prompts as
// "/" commands, completions, resources to attach, log levels. The
// generated wire types, and parsers that narrow a stranger's lists (a
// server named these, so every field is checked and defaulted).

import type * as G from './contract.gen';

export { parsePromptList, parsePromptText, parseCompletion, parseResourceCatalog, parseResourceRead } from './parse.gen';

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

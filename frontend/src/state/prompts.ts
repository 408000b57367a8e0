// Mid-call prompts from MCP servers (docs/contract.md "MCP servers"): a
// generic interrupt bound to the running tool call whose metadata
// `juncture:prompt` says what the server asks — a form (question), a page
// to open (url) or permission to ask the model (sampling). Anything that
// does not read as one stays an ordinary question.

import type { Interrupt } from '../transport/contract';
import { isNumber, isObject, isString } from '../transport/json';
import type { ClassifiedInterrupt } from './interrupts';

export const PROMPT_KEY = 'juncture:prompt';

export type PromptKind = 'question' | 'url' | 'sampling';

export interface SamplingMessage {
  role: string;
  text: string;
}

export interface Prompt {
  kind: PromptKind;
  /** Who asks, as the person reads it (the server's title). */
  source: string;
  message: string;
  /** url: the page the server asks the person to open. */
  url: string;
  /** sampling: what the server would send to the model. */
  messages: SamplingMessage[];
  maxTokens?: number;
  systemPrompt?: string;
  model?: string;
}

export type PromptItem = Extract<ClassifiedInterrupt, { kind: 'question' }> & { prompt: Prompt };

/** The prompt an interrupt carries, or null when it is not an MCP prompt. */
export function readPrompt(it: Interrupt): Prompt | null {
  const raw = it.metadata?.[PROMPT_KEY];
  if (!isObject(raw)) return null;
  const kind = raw.kind;
  if (kind !== 'question' && kind !== 'url' && kind !== 'sampling') return null;
  const p: Prompt = {
    kind,
    source: isString(raw.source) && raw.source.trim() ? raw.source.trim() : 'A tool server',
    message: isString(raw.message) ? raw.message : (it.message ?? ''),
    url: isString(raw.url) ? raw.url : '',
    messages: [],
  };
  const d = isObject(raw.details) ? raw.details : {};
  if (Array.isArray(d.messages)) {
    for (const m of d.messages) {
      if (isObject(m) && isString(m.text)) p.messages.push({ role: isString(m.role) ? m.role : 'user', text: m.text });
    }
  }
  if (isNumber(d.maxTokens) && d.maxTokens > 0) p.maxTokens = d.maxTokens;
  if (isString(d.systemPrompt) && d.systemPrompt) p.systemPrompt = d.systemPrompt;
  if (isString(d.model) && d.model) p.model = d.model;
  if (kind === 'url' && !p.url) return null;
  return p;
}

/** A question item that is an MCP prompt, with the prompt read. */
export function asPromptItem(item: ClassifiedInterrupt): PromptItem | null {
  if (item.kind !== 'question') return null;
  const prompt = readPrompt(item.interrupt);
  return prompt ? { ...item, prompt } : null;
}

/** The card's heading: "<source> asks", "… wants you to open a page", "… wants to ask the model". */
export function promptHeading(p: Prompt): string {
  switch (p.kind) {
    case 'question':
      return `${p.source} asks`;
    case 'url':
      return `${p.source} wants you to open a page`;
    case 'sampling':
      return `${p.source} wants to ask the model`;
  }
}

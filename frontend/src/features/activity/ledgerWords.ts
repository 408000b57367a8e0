// The ledger in words: a kind, a transport, an entry's one-line summary.
import type { LedgerEntry, SearchHit, ThreadView } from '../../transport/contract.gen';
import type { Transport } from '../../transport';
import { tryParseJson, isObject, isString } from '../../transport/json';
import { DURATION_LABELS, isRuleDuration } from '../approvals/ruleWords';

/** Go's history.Ledger* kinds, in the order the filter lists them. */
export const LEDGER_KINDS: readonly { kind: string; label: string }[] = [
  { kind: 'approved', label: 'Approved once' },
  { kind: 'approved-edited', label: 'Approved with edits' },
  { kind: 'allowed-by-rule', label: 'Allowed by a rule' },
  { kind: 'denied', label: 'Denied' },
  { kind: 'denied-by-rule', label: 'Refused by a rule' },
  { kind: 'answered', label: 'Question answered' },
  { kind: 'client-action', label: 'Window action' },
  { kind: 'sampling', label: 'Server asked the model' },
  { kind: 'url-confirmation', label: 'Server’s page' },
  { kind: 'stopped', label: 'Stopped while waiting' },
  { kind: 'outcome', label: 'What the call did' },
  { kind: 'rule-created', label: 'Rule created' },
  { kind: 'rule-changed', label: 'Rule changed' },
  { kind: 'rule-expired', label: 'Rule expired' },
  { kind: 'rule-revoked', label: 'Rule revoked' },
  { kind: 'chat-deleted', label: 'Chat deleted' },
  { kind: 'ledger-cleared', label: 'Ledger cleared' },
];

export function kindLabel(kind: string): string {
  return LEDGER_KINDS.find((k) => k.kind === kind)?.label ?? kind;
}

/** How a decision arrived. */
export function transportLabel(t: string | undefined): string {
  switch (t) {
    case 'window':
      return 'the window';
    case 'browser':
      return 'a browser';
    case 'agui':
      return 'an AG-UI client';
    case 'runtime':
      return 'Juncture (a rule, an expiry)';
    default:
      return t ?? '';
  }
}

/** The tone of a kind: let through, refused, or neither. */
export function kindTone(kind: string): 'allow' | 'deny' | 'other' {
  if (kind === 'approved' || kind === 'approved-edited' || kind === 'allowed-by-rule') return 'allow';
  if (kind === 'denied' || kind === 'denied-by-rule' || kind === 'stopped') return 'deny';
  return 'other';
}

/** What a rule covers, in the words Settings › Rules uses (Go's history scopes). */
export function ruleLine(rule: Record<string, unknown>): string | null {
  const str = (k: string): string => (isString(rule[k]) ? (rule[k] as string) : '');
  const scope = str('scope');
  if (!scope || !str('tool')) return null;
  const pattern = str('pattern');
  const covers = ((): string => {
    switch (scope) {
      case 'tool':
        return 'every call';
      case 'command-prefix':
        return `commands starting with “${pattern}”`;
      case 'command-glob':
        return `commands matching “${pattern}”`;
      case 'folder':
        return `inside ${pattern}`;
      case 'folder-glob':
        return `inside ${pattern}, paths matching “${str('glob')}”`;
      case 'file':
        return `on ${pattern} only`;
      case 'thread':
        return 'in one chat';
      case 'host':
        return `to ${pattern} only`;
      case 'arg-equals':
        return `when ${str('arg')} is “${pattern}”`;
      case 'arg-prefix':
        return `when ${str('arg')} starts with “${pattern}”`;
      case 'server':
        return `every tool of ${pattern || str('tool').replace(/^mcp:/, '')}`;
      case 'server-tools':
        return `tools of ${pattern} named like “${str('glob')}”`;
      case 'tool-identity':
        return 'while its server keeps the tool as it was';
      default:
        return scope;
    }
  })();
  const effect = str('effect') === 'deny' ? 'Never' : 'Allow';
  const duration = str('duration');
  const label = duration && isRuleDuration(duration) ? DURATION_LABELS[duration] : '';
  const until = label ? ` · ${label.charAt(0).toLowerCase()}${label.slice(1)}` : '';
  return `${effect}: ${covers}${until}`;
}

/** The entry's arguments on one line (the command, path or address first; a rule in words). */
export function argsLine(e: LedgerEntry): string {
  if (!e.arguments) return '';
  const p = tryParseJson(e.arguments);
  if (p.ok && isObject(p.value) && e.kind.startsWith('rule-')) {
    const words = ruleLine(p.value);
    if (words) return words;
  }
  if (p.ok && isObject(p.value)) {
    for (const k of ['command', 'path', 'url', 'description', 'message']) {
      const v = p.value[k];
      if (isString(v) && v) return v;
    }
  }
  return e.arguments.length > 160 ? `${e.arguments.slice(0, 160)}…` : e.arguments;
}

/** The chat message holding a call, as a search hit the window can open; null when the chat or call is gone. */
export async function hitOfCall(transport: Transport, threadId: string, callId: string): Promise<SearchHit | null> {
  let v: ThreadView;
  try {
    v = await transport.call('GetThread', threadId);
  } catch {
    return null;
  }
  const m =
    v.messages.find((x) => x.toolCalls?.some((c) => c.id === callId)) ?? v.messages.find((x) => x.toolCallId === callId);
  return { threadId, threadTitle: v.thread.title, messageId: m?.id ?? '', role: m?.role ?? '', parts: [], createdAt: 0, rank: 0 };
}

// The ledger in words: a kind, a transport, an entry's one-line summary.
import type { LedgerEntryView, SearchHit, ThreadView } from '../../transport/contract.gen';
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

/**
 * A rule's change in words: what the rule covers in Go's sentence (the
 * entry's `rule`, the one Settings › Rules shows), then how long it holds.
 */
export function ruleLine(e: LedgerEntryView): string | null {
  if (!e.rule) return null;
  const p = tryParseJson(e.arguments ?? '');
  const duration = p.ok && isObject(p.value) && isString(p.value.duration) ? p.value.duration : '';
  const label = duration && isRuleDuration(duration) ? DURATION_LABELS[duration] : '';
  const until = label ? ` · ${label.charAt(0).toLowerCase()}${label.slice(1)}` : '';
  return `${e.rule}${until}`;
}

/** The entry's arguments on one line (the command, path or address first; a rule in words). */
export function argsLine(e: LedgerEntryView): string {
  if (!e.arguments) return '';
  const words = ruleLine(e);
  if (words) return words;
  const p = tryParseJson(e.arguments);
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

// What the person decided on one card, and the ItemAnswer it becomes. Each
// decision is sent at once in one `Answer` call (docs/contract.md): the Go
// runtime keeps partial answers, records "Always allow" rules (`remember`,
// inside the item) only when the whole batch is accepted, and continues
// the run by itself once every pending item has an answer. Nothing here
// decides when a batch is complete.

import type { AnswerBatch, ClientToolAnswer, ItemAnswer, RememberScope } from '../transport/contract';
import type { JsonValue } from '../transport/json';
import { approvalPayload, type ClassifiedInterrupt } from './interrupts';

export type Decision =
  | { kind: 'approve'; editedArgs?: JsonValue; remember?: RememberScope }
  | { kind: 'deny'; reason?: string; remember?: RememberScope }
  | { kind: 'answer'; payload: JsonValue }
  /** An MCP server's request the person turned down (cancel = dismissed without saying). */
  | { kind: 'decline' }
  | { kind: 'cancel' };

/** The ItemAnswer of one decision; an approval's "Always allow" rides in `remember`. */
export function toItemAnswer(item: ClassifiedInterrupt, d: Decision): ItemAnswer {
  const interruptId = item.interrupt.id;
  if (d.kind === 'cancel') return { interruptId, status: 'cancelled' };
  if (d.kind === 'decline') return { interruptId, status: 'cancelled', metadata: { action: 'decline' } };
  if (d.kind === 'answer') return { interruptId, status: 'resolved', payload: d.payload };
  if (item.kind !== 'approval') {
    // A decision made on a non-approval item is sent as a plain answer.
    return { interruptId, status: 'resolved', payload: d.kind === 'approve' };
  }
  if (d.kind === 'approve') {
    const a: { approved: true; editedArgs?: JsonValue } = { approved: true };
    if (d.editedArgs !== undefined) a.editedArgs = d.editedArgs;
    const out: ItemAnswer = { interruptId, status: 'resolved', payload: approvalPayload(item, a) };
    if (d.remember) out.remember = d.remember;
    return out;
  }
  const r: { approved: false; reason?: string } = { approved: false };
  if (d.reason) r.reason = d.reason;
  const out: ItemAnswer = { interruptId, status: 'resolved', payload: approvalPayload(item, r) };
  if (d.remember) out.remember = d.remember; // a "Never allow" rule rides with the denial
  return out;
}

/** One Answer call carrying the given decisions (usually one). */
export function answerBatch(decisions: readonly { item: ClassifiedInterrupt; decision: Decision }[]): AnswerBatch {
  return { answers: decisions.map(({ item, decision }) => toItemAnswer(item, decision)), clientResults: [] };
}

/** An Answer call that reports one action the window ran (or that the person cancelled). */
export function clientResultBatch(r: ClientToolAnswer): AnswerBatch {
  return { answers: [], clientResults: [r] };
}

/** Answers that cancel every actionable item. */
export function cancelAll(items: readonly ClassifiedInterrupt[]): ItemAnswer[] {
  return items.filter((i) => i.kind !== 'unbound').map((i) => ({ interruptId: i.interrupt.id, status: 'cancelled' }));
}

export function decisionLabel(d: Decision): string {
  switch (d.kind) {
    case 'approve':
      return d.remember ? 'Always allowed' : d.editedArgs !== undefined ? 'Approved with edits' : 'Approved';
    case 'deny':
      return d.remember ? 'Never allowed' : 'Denied';
    case 'answer':
      return 'Answered';
    case 'decline':
      return 'Declined';
    case 'cancel':
      return 'Skipped';
  }
}

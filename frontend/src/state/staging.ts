// Local, per-item resolutions of a pending interrupt batch, and how they go
// out: remembered approvals through RespondPermission (which records the
// rule), everything else in ONE ResolveInterrupts call.

import type { RememberScope, Resolution } from '../transport/contract';
import type { JsonValue } from '../transport/json';
import { approvalPayload, type ClassifiedInterrupt } from './interrupts';

export type Staged =
  | { kind: 'approve'; editedArgs?: JsonValue; remember?: RememberScope }
  | { kind: 'deny'; reason?: string }
  | { kind: 'answer'; payload: JsonValue }
  | { kind: 'cancel' };

export interface Submission {
  permissions: { toolCallId: string; allow: boolean; remember: RememberScope }[];
  resolutions: Resolution[];
}

export function toResolution(item: ClassifiedInterrupt, s: Staged): Resolution {
  const interruptId = item.interrupt.id;
  if (s.kind === 'cancel') return { interruptId, status: 'cancelled' };
  if (s.kind === 'answer') return { interruptId, status: 'resolved', payload: s.payload };
  if (item.kind !== 'approval') {
    // A decision staged on a non-approval item is sent as a plain answer.
    return { interruptId, status: 'resolved', payload: s.kind === 'approve' };
  }
  if (s.kind === 'approve') {
    const d: { approved: true; editedArgs?: JsonValue } = { approved: true };
    if (s.editedArgs !== undefined) d.editedArgs = s.editedArgs;
    return { interruptId, status: 'resolved', payload: approvalPayload(item, d) };
  }
  const d: { approved: false; reason?: string } = { approved: false };
  if (s.reason) d.reason = s.reason;
  return { interruptId, status: 'resolved', payload: approvalPayload(item, d) };
}

/** Null until every actionable item is staged. */
export function buildSubmission(
  items: readonly ClassifiedInterrupt[],
  staged: Readonly<Record<string, Staged>>,
): Submission | null {
  const actionable = items.filter((i) => i.kind !== 'unbound');
  if (!actionable.length || actionable.some((i) => !staged[i.interrupt.id])) return null;
  const sub: Submission = { permissions: [], resolutions: [] };
  for (const item of actionable) {
    const s = staged[item.interrupt.id]!;
    if (item.kind === 'approval' && s.kind === 'approve' && s.remember) {
      sub.permissions.push({ toolCallId: item.toolCallId, allow: true, remember: s.remember });
    } else {
      sub.resolutions.push(toResolution(item, s));
    }
  }
  return sub;
}

/** Resolutions that cancel every actionable item (Stop on a paused run). */
export function cancelAll(items: readonly ClassifiedInterrupt[]): Resolution[] {
  return items.filter((i) => i.kind !== 'unbound').map((i) => ({ interruptId: i.interrupt.id, status: 'cancelled' }));
}

// Local, per-item resolutions of a pending interrupt batch, and how they go
// out. "Always allow" goes through RespondPermission, which stores the rule
// and stages that answer on the Go side; Go resumes by itself once every
// item has a RespondPermission answer. Otherwise the complete batch —
// remembered approvals included — goes in ONE ResolveInterrupts call (which
// replaces anything staged on the Go side).

import type { RememberScope, Resolution } from '../transport/contract';
import type { JsonValue } from '../transport/json';
import { approvalPayload, type ClassifiedInterrupt } from './interrupts';

export type Staged =
  | { kind: 'approve'; editedArgs?: JsonValue; remember?: RememberScope }
  | { kind: 'deny'; reason?: string }
  | { kind: 'answer'; payload: JsonValue }
  | { kind: 'cancel' };

export interface Submission {
  /** RespondPermission calls, in order, before `resolutions`. */
  permissions: { toolCallId: string; allow: boolean; remember: RememberScope }[];
  /** The complete batch for ResolveInterrupts; empty when the permissions answer everything. */
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
  let allRemembered = true;
  for (const item of actionable) {
    const s = staged[item.interrupt.id]!;
    if (item.kind === 'approval' && s.kind === 'approve' && s.remember) {
      sub.permissions.push({ toolCallId: item.toolCallId, allow: true, remember: s.remember });
    } else {
      allRemembered = false;
    }
  }
  if (!allRemembered) sub.resolutions = actionable.map((item) => toResolution(item, staged[item.interrupt.id]!));
  return sub;
}

/** Resolutions that cancel every actionable item (Stop on a paused run). */
export function cancelAll(items: readonly ClassifiedInterrupt[]): Resolution[] {
  return items.filter((i) => i.kind !== 'unbound').map((i) => ({ interruptId: i.interrupt.id, status: 'cancelled' }));
}

// Runs raw SSE bytes through @ag-ui/client 1.0's own pipeline, the way
// tools/agui-conformance/validate-sse.mjs does:
//   parseSSEStream (framing) -> EventSchemas (per event)
//   -> enforceEvents -> transformChunks -> verifyEvents (sequence)
// plus the spec rule verifyEvents leaves out: the stream ends with
// RUN_FINISHED or RUN_ERROR.
import { Subject, from, lastValueFrom, toArray } from 'rxjs';
import { EventSchemas } from '@ag-ui/core/schemas';
import { parseSSEStream, enforceEvents, transformChunks, verifyEvents } from '@ag-ui/client';

const issuesText = (issues) => issues.map((is) => `${is.path.join('.') || '(root)'}: ${is.message}`).join('; ');

// verifySSE returns { events, accepted, failures, warnings }. failures lists
// every problem; warnings are the fields enforceEvents stripped because the
// 1.0 schema does not declare them (validate-sse.mjs --strict fails those).
export async function verifySSE(raw) {
  const bytes = typeof raw === 'string' ? new TextEncoder().encode(raw) : new Uint8Array(raw);
  const failures = [];
  const warnings = [];
  let events;
  try {
    // parseSSEStream subscribes at once and multicasts: feed it after the
    // consumer subscribed.
    const http$ = new Subject();
    const pending = lastValueFrom(parseSSEStream(http$).pipe(toArray()));
    http$.next({ type: 'headers', status: 200, headers: new Headers({ 'content-type': 'text/event-stream' }) });
    http$.next({ type: 'data', data: bytes });
    http$.complete();
    events = await pending;
  } catch (e) {
    return { events: [], accepted: 0, failures: [`framing: ${e.message}`], warnings };
  }
  events.forEach((ev, i) => {
    const r = EventSchemas.safeParse(ev);
    if (!r.success) failures.push(`schema #${i} ${ev?.type ?? '?'}: ${issuesText(r.error.issues)}`);
  });
  let accepted = 0;
  const origWarn = console.warn;
  console.warn = (...a) => warnings.push(a.join(' '));
  try {
    const out = await lastValueFrom(from(events).pipe(enforceEvents(), transformChunks(), verifyEvents(), toArray()));
    accepted = out.length;
  } catch (e) {
    failures.push(`sequence: ${Array.isArray(e?.issues) ? issuesText(e.issues) : String(e?.message ?? e)}`);
  } finally {
    console.warn = origWarn;
  }
  const last = events.at(-1);
  if (!last || (last.type !== 'RUN_FINISHED' && last.type !== 'RUN_ERROR')) {
    failures.push(`terminal: stream ends with ${last?.type ?? 'nothing'}, not RUN_FINISHED/RUN_ERROR`);
  }
  return { events, accepted, failures, warnings };
}

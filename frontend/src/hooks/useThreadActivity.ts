import { useEffect, useState } from 'react';
import { afterPaintWithin } from '../lib/afterPaint';
import type { Transport } from '../transport';
import type { ThreadListItem } from '../transport/contract';

export type Activity = 'running' | 'awaiting';

/** What the last live run event said about a thread (`null`: nothing runs or waits), and when. */
export interface LiveActivity {
  activity: Activity | null;
  /** activityClock() when the event arrived. */
  at: number;
}

/** Monotonic clock shared by live events and list loads (which of the two is newer). */
export function activityClock(): number {
  return performance.now();
}

/**
 * What live events said about a thread since its list was loaded
 * (`listedAt`: activityClock() when the list request started), or
 * `undefined` when none is newer than the list.
 */
export function liveActivity(live: LiveActivity | undefined, listedAt: number): Activity | null | undefined {
  return live && live.at >= listedAt ? live.activity : undefined;
}

/**
 * The indicator a sidebar item shows: a live state newer than the list wins
 * (`null`: live events say nothing runs or waits); otherwise the list's own
 * `running` / `waiting`.
 */
export function threadActivity(
  thread: Pick<ThreadListItem, 'running' | 'waiting'>,
  live: Activity | null | undefined,
): Activity | null {
  if (live !== undefined) return live;
  if (thread.running) return 'running';
  if (thread.waiting > 0) return 'awaiting';
  return null;
}

/**
 * The longest an end waits for its frame (a hidden window paints none):
 * as in the chat's own staging (features/chat/useRunEndStaged).
 */
const END_HOLD_LIMIT_MS = 500;

/**
 * What live run events say about each thread (sidebar indicators).
 *
 * A run's end reaches the sidebar one painted frame late (lib/afterPaint).
 * Its RUN_FINISHED arrives 15–40 ms after Stop, often before the frame that
 * shows the composer's Send has been painted; applied at once, the item's
 * running dot going away (and its title widening) joined that frame, and
 * WebKitGTK painted the box around both, from the sidebar to the composer
 * (bench/README.md, "Stop on the screen: the composer's layout"). A start
 * is shown at once, and an end never overwrites a later event.
 */
export function useThreadActivity(transport: Transport): ReadonlyMap<string, LiveActivity> {
  const [map, setMap] = useState<ReadonlyMap<string, LiveActivity>>(new Map());
  useEffect(() => {
    const pending = new Set<() => void>();
    // Which event is later is decided by arrival, not by `at`: WebKit
    // coarsens performance.now(), and an end followed by a start in the
    // same tick read the same time (the held end then hid the start).
    let arrivals = 0;
    const latest = new Map<string, number>();
    const put = (threadId: string, entry: LiveActivity) => setMap((m) => new Map(m).set(threadId, entry));
    const off = transport.subscribe('agui', ({ threadId, event }) => {
      let next: Activity | null | undefined;
      if (event.type === 'RUN_STARTED') next = 'running';
      else if (event.type === 'RUN_FINISHED')
        next =
          event.outcome.type === 'interrupt' ||
          (event.outcome.type === 'success' && event.outcome.pendingToolCallIds.length > 0)
            ? 'awaiting'
            : null;
      else if (event.type === 'RUN_ERROR') next = null;
      if (next === undefined) return;
      const entry: LiveActivity = { activity: next, at: activityClock() };
      const arrival = ++arrivals;
      latest.set(threadId, arrival);
      if (next === 'running') {
        put(threadId, entry);
        return;
      }
      const cancel = afterPaintWithin(() => {
        pending.delete(cancel);
        // An event that came after this end (a start, another end) wins.
        if (latest.get(threadId) === arrival) put(threadId, entry);
      }, END_HOLD_LIMIT_MS);
      pending.add(cancel);
    });
    return () => {
      off();
      for (const cancel of pending) cancel();
      pending.clear();
    };
  }, [transport]);
  return map;
}

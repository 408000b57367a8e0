import { useEffect, useState } from 'react';
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

/** What live run events say about each thread (sidebar indicators). */
export function useThreadActivity(transport: Transport): ReadonlyMap<string, LiveActivity> {
  const [map, setMap] = useState<ReadonlyMap<string, LiveActivity>>(new Map());
  useEffect(
    () =>
      transport.subscribe('agui', ({ threadId, event }) => {
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
        setMap((m) => new Map(m).set(threadId, entry));
      }),
    [transport],
  );
  return map;
}

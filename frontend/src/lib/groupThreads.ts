import type { Thread } from '../transport/contract';

export interface ThreadGroup<T extends Thread = Thread> {
  label: 'Pinned' | 'Today' | 'Yesterday' | 'Previous 7 days' | 'Older';
  threads: T[];
}

function startOfDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** Pinned first, then by last activity: Today / Yesterday / Previous 7 days / Older. */
export function groupThreads<T extends Thread>(threads: readonly T[], now = Date.now()): ThreadGroup<T>[] {
  const today = startOfDay(now);
  const yesterday = startOfDay(today - 1);
  const weekAgo = today - 7 * 24 * 3600 * 1000;
  const groups: ThreadGroup<T>[] = [
    { label: 'Pinned', threads: [] },
    { label: 'Today', threads: [] },
    { label: 'Yesterday', threads: [] },
    { label: 'Previous 7 days', threads: [] },
    { label: 'Older', threads: [] },
  ];
  const sorted = [...threads].sort((a, b) => b.updatedAt - a.updatedAt);
  for (const t of sorted) {
    const g = t.pinned
      ? groups[0]!
      : t.updatedAt >= today
        ? groups[1]!
        : t.updatedAt >= yesterday
          ? groups[2]!
          : t.updatedAt >= weekAgo
            ? groups[3]!
            : groups[4]!;
    g.threads.push(t);
  }
  return groups.filter((g) => g.threads.length > 0);
}

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Transport } from '../transport';
import { toJunctureError, type JunctureError } from '../transport';
import type { Thread, ThreadListItem } from '../transport/contract';
import { activityClock } from './useThreadActivity';

const PAGE = 50;

export interface ThreadList {
  threads: ThreadListItem[];
  /**
   * activityClock() when the request of the list shown started: live run
   * events newer than this override the items' `running` / `waiting`.
   */
  listedAt: number;
  hasMore: boolean;
  loading: boolean;
  error: JunctureError | null;
  refresh: () => void;
  loadMore: () => void;
  /** Optimistic local edits (Go confirms through the `threads` event). */
  patch: (id: string, p: Partial<Thread>) => void;
  /** A thread the window knows better (new or renamed); keeps the item's running / waiting. */
  upsert: (t: Thread) => void;
}

export function useThreadList(transport: Transport): ThreadList {
  const [threads, setThreads] = useState<ThreadListItem[]>([]);
  const [listedAt, setListedAt] = useState(0);
  const [cursor, setCursor] = useState('');
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<JunctureError | null>(null);
  const countRef = useRef(0);
  countRef.current = threads.length;
  const seq = useRef(0);

  const refresh = useCallback(() => {
    const my = ++seq.current;
    const at = activityClock();
    setLoading(true);
    transport
      .call('ListThreads', '', Math.max(PAGE, countRef.current))
      .then((page) => {
        if (my !== seq.current) return;
        setThreads(page.threads);
        setListedAt(at);
        setCursor(page.nextCursor);
        setError(null);
      })
      .catch((e: unknown) => {
        if (my === seq.current) setError(toJunctureError(e));
      })
      .finally(() => {
        if (my === seq.current) setLoading(false);
      });
  }, [transport]);

  const loadMore = useCallback(() => {
    if (!cursor) return;
    const my = ++seq.current;
    setLoading(true);
    transport
      .call('ListThreads', cursor, PAGE)
      .then((page) => {
        if (my !== seq.current) return;
        setThreads((prev) => {
          const have = new Set(prev.map((t) => t.id));
          return [...prev, ...page.threads.filter((t) => !have.has(t.id))];
        });
        setCursor(page.nextCursor);
      })
      .catch((e: unknown) => {
        if (my === seq.current) setError(toJunctureError(e));
      })
      .finally(() => {
        if (my === seq.current) setLoading(false);
      });
  }, [transport, cursor]);

  useEffect(() => {
    refresh();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const soon = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(refresh, 150);
    };
    const offThreads = transport.subscribe('threads', soon);
    const offConn = transport.subscribe('connection', ({ state }) => {
      if (state === 'reconnected') soon();
    });
    return () => {
      if (timer) clearTimeout(timer);
      offThreads();
      offConn();
    };
  }, [transport, refresh]);

  const patch = useCallback((id: string, p: Partial<Thread>) => {
    setThreads((prev) => prev.map((t) => (t.id === id ? { ...t, ...p } : t)));
  }, []);

  const upsert = useCallback((t: Thread) => {
    setThreads((prev) =>
      prev.some((x) => x.id === t.id)
        ? prev.map((x) => (x.id === t.id ? { ...x, ...t } : x))
        : [{ running: false, waiting: 0, ...t }, ...prev],
    );
  }, []);

  // One object while nothing in it changes: App's callbacks depend on it, and
  // App re-renders on every streamed frame (the memoised sidebar must not).
  const hasMore = cursor !== '';
  return useMemo(
    () => ({ threads, listedAt, hasMore, loading, error, refresh, loadMore, patch, upsert }),
    [threads, listedAt, hasMore, loading, error, refresh, loadMore, patch, upsert],
  );
}

import { useEffect, useState } from 'react';
import type { Transport } from '../transport';

export type Activity = 'running' | 'awaiting';

/** Which threads are running or waiting for decisions (sidebar indicators). */
export function useThreadActivity(transport: Transport): ReadonlyMap<string, Activity> {
  const [map, setMap] = useState<ReadonlyMap<string, Activity>>(new Map());
  useEffect(
    () =>
      transport.subscribe('agui', ({ threadId, event }) => {
        let next: Activity | null | undefined;
        if (event.type === 'RUN_STARTED') next = 'running';
        else if (event.type === 'RUN_FINISHED') next = event.outcome.type === 'interrupt' ? 'awaiting' : null;
        else if (event.type === 'RUN_ERROR') next = null;
        if (next === undefined) return;
        setMap((m) => {
          if ((m.get(threadId) ?? null) === next) return m;
          const copy = new Map(m);
          if (next) copy.set(threadId, next);
          else copy.delete(threadId);
          return copy;
        });
      }),
    [transport],
  );
  return map;
}

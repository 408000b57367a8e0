import { useCallback, useEffect, useRef, useState } from 'react';
import { toJunctureError } from '../transport';

/** One async action's slot: run it, whether it is running, and what its last run failed with. */
export interface AsyncAction<A extends unknown[], T> {
  /**
   * Runs the action: busy while it runs, the error cleared at the start and
   * set from what it throws. Resolves to its value, or undefined when it failed
   * (it never rejects: the failure is in `error`).
   */
  run: (...args: A) => Promise<T | undefined>;
  busy: boolean;
  error: string | null;
  /** For checks made before the action (a form's own validation) and for clearing it. */
  setError: (e: string | null) => void;
}

export interface AsyncActionOptions<A extends unknown[]> {
  /** The error as the person reads it (given the run's arguments); Juncture's message by default. */
  describe?: (e: unknown, ...args: A) => string;
}

const message = (e: unknown, ..._args: unknown[]) => toJunctureError(e).message;

/**
 * The loading/error/saving slot written once: `const save = useAsyncAction(fn)`
 * then `save.run()`, `save.busy`, `save.error`. A run after unmount sets nothing.
 */
export function useAsyncAction<A extends unknown[], T>(fn: (...args: A) => Promise<T>, opts: AsyncActionOptions<A> = {}): AsyncAction<A, T> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The newest fn and describe, so run keeps one identity across renders.
  const describe: (e: unknown, ...args: A) => string = opts.describe ?? message;
  const latest = useRef({ fn, describe });
  latest.current = { fn, describe };
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(async (...args: A): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await latest.current.fn(...args);
    } catch (e) {
      if (mounted.current) setError(latest.current.describe(e, ...args));
      return undefined;
    } finally {
      if (mounted.current) setBusy(false);
    }
  }, []);

  return { run, busy, error, setError };
}

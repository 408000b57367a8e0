import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/preact';
import { useAsyncAction } from './useAsyncAction';

describe('useAsyncAction', () => {
  it('is busy while the action runs and gives its value', async () => {
    let resolve!: (v: number) => void;
    const { result } = renderHook(() => useAsyncAction((n: number) => new Promise<number>((r) => (resolve = (v) => r(v + n)))));
    let p!: Promise<number | undefined>;
    act(() => {
      p = result.current.run(1);
    });
    expect(result.current.busy).toBe(true);
    await act(async () => {
      resolve(41);
      expect(await p).toBe(42);
    });
    expect(result.current.busy).toBe(false);
    expect(result.current.error).toBeNull();
  });

  it('keeps what a failed run threw as its error, and clears it when run again', async () => {
    let fail = true;
    const { result } = renderHook(() =>
      useAsyncAction(async () => {
        if (fail) throw new Error('the disk is full');
        return 'ok';
      }),
    );
    await act(async () => {
      expect(await result.current.run()).toBeUndefined();
    });
    expect(result.current.error).toBe('the disk is full');
    expect(result.current.busy).toBe(false);
    fail = false;
    await act(async () => {
      expect(await result.current.run()).toBe('ok');
    });
    expect(result.current.error).toBeNull();
  });

  it('words the error with describe', async () => {
    const { result } = renderHook(() =>
      useAsyncAction(
        async () => {
          throw new Error('no');
        },
        { describe: (e) => `Could not: ${(e as Error).message}` },
      ),
    );
    await act(async () => {
      await result.current.run();
    });
    expect(result.current.error).toBe('Could not: no');
  });

  it('keeps one run across renders', () => {
    const { result, rerender } = renderHook(({ n }) => useAsyncAction(async () => n), { initialProps: { n: 1 } });
    const first = result.current.run;
    rerender({ n: 2 });
    expect(result.current.run).toBe(first);
  });
});

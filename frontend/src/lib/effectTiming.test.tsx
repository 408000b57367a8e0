import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'preact';
import { useEffect, useState } from 'react';
import { chainedFlushLimit } from './effectTiming';

afterEach(() => vi.restoreAllMocks());

// An effect that sets state on every render: a bug, but it must cost a
// render per frame (as with Preact's default timing), never hang the page.
function Runaway({ renders }: { renders: { n: number } }) {
  const [n, setN] = useState(0);
  renders.n++;
  useEffect(() => {
    setN(n + 1);
  }, [n]);
  return <p>{n}</p>;
}

describe('effectTiming', () => {
  it('runs effects before the next task, and a runaway effect lets tasks run after the limit instead of hanging', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const renders = { n: 0 };
    // Preact's own render, not testing-library's: its act() flushes effects until none are left, forever here.
    const host = document.createElement('div');
    render(<Runaway renders={renders} />, host);
    // Without the limit this timer would never run: each effect flush queues the next as a microtask.
    await new Promise((r) => setTimeout(r, 0));
    expect(renders.n).toBeGreaterThan(chainedFlushLimit / 2);
    expect(renders.n).toBeLessThan(chainedFlushLimit * 3);
    expect(error).toHaveBeenCalledWith(expect.stringContaining('effects kept scheduling effects'));
    // From then on, once a frame (jsdom's frames are ~16 ms), not a new chain of a thousand each time.
    const before = renders.n;
    await new Promise((r) => setTimeout(r, 200));
    expect(renders.n - before).toBeLessThan(40);
    expect(error).toHaveBeenCalledTimes(1);
    render(null, host);
    // The runaway gone, effects run before the next task again.
    await new Promise((r) => setTimeout(r, 100));
    const seen: string[] = [];
    function Once() {
      useEffect(() => {
        seen.push('effect');
      }, []);
      return null;
    }
    render(<Once />, document.createElement('div'));
    await Promise.resolve();
    seen.push('microtask');
    expect(seen).toEqual(['effect', 'microtask']);
  });

  it('still runs ordinary effects in the same task as their commit', async () => {
    await new Promise((r) => setTimeout(r, 100)); // any earlier chain ended, and its last flush (a frame later) ran
    const seen: string[] = [];
    function Focus() {
      useEffect(() => {
        seen.push('effect');
      }, []);
      return null;
    }
    render(<Focus />, document.createElement('div'));
    await Promise.resolve();
    await Promise.resolve();
    seen.push('microtasks done');
    await new Promise((r) => setTimeout(r, 0));
    expect(seen[0]).toBe('effect');
  });
});

describe('effectTiming: the end of a chain', () => {
  it('keeps a runaway at one render per frame after the limit, and says so once', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const renders = { n: 0 };
    const host = document.createElement('div');
    render(<Runaway renders={renders} />, host);
    await new Promise((r) => setTimeout(r, 0));
    const atLimit = renders.n;
    // A few frames: each may run the runaway's flush once (one render), never another chain of a thousand.
    for (let f = 0; f < 4; f++) await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    await new Promise((r) => setTimeout(r, 50));
    render(null, host);
    expect(renders.n - atLimit).toBeLessThan(chainedFlushLimit / 2);
    expect(error).toHaveBeenCalledTimes(1);
    await new Promise((r) => setTimeout(r, 100)); // its last flush ran
  });

  it('is seen even when the chain began under fake timers (a test that fakes setTimeout, then gives it back)', async () => {
    const seen: string[] = [];
    function Effect({ n }: { n: number }) {
      useEffect(() => {
        seen.push(`effect ${n}`);
      }, [n]);
      return null;
    }
    const host = document.createElement('div');
    vi.useFakeTimers();
    try {
      render(<Effect n={0} />, host); // a chain starts while setTimeout is the fake one
      await Promise.resolve();
    } finally {
      vi.useRealTimers(); // its pending fake timers are dropped
    }
    // Ordinary work, one commit per task, as many tasks as the limit allows chained flushes.
    for (let n = 1; n <= chainedFlushLimit + 1; n++) {
      render(<Effect n={n} />, host);
      await new Promise((r) => setTimeout(r, 0));
    }
    seen.length = 0;
    render(<Effect n={-1} />, host);
    await Promise.resolve();
    await Promise.resolve();
    seen.push('microtasks done');
    expect(seen[0]).toBe('effect -1');
    render(null, host);
  });
});

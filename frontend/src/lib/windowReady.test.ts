import { afterEach, describe, expect, it, vi } from 'vitest';
import { announceWindowReady, WINDOW_READY_EVENT } from './windowReady';

// A task later: the message lib/afterPaint.ts posts from the frame's callback.
const nextTasks = () => new Promise((r) => setTimeout(r, 20));

// Waits (real time, up to 2 s) until check passes. Not vi.waitFor: with
// fake timers it advances them by its interval on every check, and with
// requestAnimationFrame faked that runs three frames a check, so an
// announcement made frames too late (or in a later frame's callback,
// before any task) passed as well.
async function until(check: () => void): Promise<void> {
  const end = Date.now() + 2000;
  for (;;) {
    try {
      check();
      return;
    } catch (e) {
      if (Date.now() > end) throw e;
    }
    await new Promise((r) => setTimeout(r, 1));
  }
}

describe('announceWindowReady', () => {
  afterEach(() => {
    vi.useRealTimers();
    delete window.runtime;
  });

  it('tells the desktop once, after the next frame was painted, never before', async () => {
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame'] });
    const emit = vi.fn();
    window.runtime = { EventsEmit: emit };
    announceWindowReady();
    await nextTasks();
    expect(emit).not.toHaveBeenCalled(); // no frame yet
    vi.advanceTimersToNextFrame();
    expect(emit).not.toHaveBeenCalled(); // the frame itself: not painted yet
    // a posted MessageChannel message, which Node may deliver after a 20 ms
    // timer on a loaded machine: wait for it rather than for a fixed time,
    // with no further frame
    await until(() => expect(emit).toHaveBeenCalledTimes(1));
    expect(emit).toHaveBeenCalledWith(WINDOW_READY_EVENT);
    vi.advanceTimersToNextFrame();
    await nextTasks();
    expect(emit).toHaveBeenCalledTimes(1);
  });

  it('sends nothing once cancelled (an unmounted App), before or after the frame, and nothing in the browser', async () => {
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame'] });
    const emit = vi.fn();
    window.runtime = { EventsEmit: emit };
    announceWindowReady()();
    vi.advanceTimersToNextFrame();
    const cancel = announceWindowReady();
    vi.advanceTimersToNextFrame();
    cancel(); // the frame ran, its task not yet
    await nextTasks();
    expect(emit).not.toHaveBeenCalled();
    delete window.runtime;
    announceWindowReady();
    vi.advanceTimersToNextFrame();
    await expect(nextTasks()).resolves.toBeUndefined();
  });
});

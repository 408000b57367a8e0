import { afterEach, describe, expect, it, vi } from 'vitest';
import { announceWindowReady, WINDOW_READY_EVENT } from './windowReady';

// A task later: the message lib/afterPaint.ts posts from the frame's callback.
const nextTasks = () => new Promise((r) => setTimeout(r, 20));

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
    // timer on a loaded machine: wait for it rather than for a fixed time
    await vi.waitFor(() => expect(emit).toHaveBeenCalledTimes(1));
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

import { afterEach, describe, expect, it, vi } from 'vitest';
import { announceWindowReady, WINDOW_READY_EVENT } from './windowReady';

describe('announceWindowReady', () => {
  afterEach(() => {
    vi.useRealTimers();
    delete window.runtime;
  });

  it('tells the desktop once, after the next frame was painted, never before', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    const emit = vi.fn();
    window.runtime = { EventsEmit: emit };
    announceWindowReady();
    expect(emit).not.toHaveBeenCalled();
    vi.advanceTimersToNextFrame();
    expect(emit).not.toHaveBeenCalled(); // the frame itself: not painted yet
    vi.advanceTimersByTime(1);
    expect(emit).toHaveBeenCalledTimes(1);
    expect(emit).toHaveBeenCalledWith(WINDOW_READY_EVENT);
    vi.advanceTimersByTime(1000);
    expect(emit).toHaveBeenCalledTimes(1);
  });

  it('sends nothing once cancelled (an unmounted App), and nothing in the browser', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    const emit = vi.fn();
    window.runtime = { EventsEmit: emit };
    announceWindowReady()();
    vi.advanceTimersByTime(1000);
    expect(emit).not.toHaveBeenCalled();
    delete window.runtime;
    announceWindowReady();
    expect(() => vi.advanceTimersByTime(1000)).not.toThrow();
  });
});

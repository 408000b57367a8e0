import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/preact';
import { FakeTransport } from '../test/fakeTransport';
import { afterPaintRan } from '../test/effects';
import { useThreadActivity, type LiveActivity } from './useThreadActivity';
import type { AguiEvent } from '../transport/agui';

let seen: ReadonlyMap<string, LiveActivity> = new Map();
function Probe({ t }: { t: FakeTransport }) {
  seen = useThreadActivity(t);
  return null;
}

const started = (threadId: string, runId: string) => ({ type: 'RUN_STARTED', threadId, runId }) as AguiEvent;
const ended = (threadId: string, runId: string) =>
  ({ type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'cancelled' } }) as AguiEvent;
const interrupted = (threadId: string, runId: string) =>
  ({ type: 'RUN_FINISHED', threadId, runId, outcome: { type: 'interrupt' } }) as AguiEvent;

describe('useThreadActivity under attack', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  const cases: { name: string; clock: 'real' | 'coarse' }[] = [
    { name: 'a fine clock', clock: 'real' },
    // WebKit coarsens performance.now(): an end and the start after it can read the same time.
    { name: 'a coarse clock (end and start in one tick)', clock: 'coarse' },
  ];
  for (const { name, clock } of cases) {
    it(`end, start: the start stays, with ${name}`, async () => {
      if (clock === 'coarse') vi.spyOn(performance, 'now').mockReturnValue(1000);
      const t = new FakeTransport();
      render(<Probe t={t} />);
      act(() => t.emit('agui', { threadId: 'th-1', event: started('th-1', 'r1'), seq: 1 }));
      act(() => t.emit('agui', { threadId: 'th-1', event: ended('th-1', 'r1'), seq: 2 }));
      act(() => t.emit('agui', { threadId: 'th-1', event: started('th-1', 'r2'), seq: 3 }));
      await act(() => afterPaintRan());
      expect(seen.get('th-1')?.activity).toBe('running');
    });

    it(`end, start, end: the last end wins, with ${name}`, async () => {
      if (clock === 'coarse') vi.spyOn(performance, 'now').mockReturnValue(1000);
      const t = new FakeTransport();
      render(<Probe t={t} />);
      act(() => t.emit('agui', { threadId: 'th-1', event: started('th-1', 'r1'), seq: 1 }));
      act(() => t.emit('agui', { threadId: 'th-1', event: interrupted('th-1', 'r1'), seq: 2 }));
      act(() => t.emit('agui', { threadId: 'th-1', event: started('th-1', 'r2'), seq: 3 }));
      act(() => t.emit('agui', { threadId: 'th-1', event: ended('th-1', 'r2'), seq: 4 }));
      expect(seen.get('th-1')?.activity).toBe('running');
      await act(() => afterPaintRan());
      expect(seen.get('th-1')?.activity).toBe(null);
    });
  }

  it('events for two threads do not mix', async () => {
    const t = new FakeTransport();
    render(<Probe t={t} />);
    act(() => t.emit('agui', { threadId: 'a', event: started('a', 'r1'), seq: 1 }));
    act(() => t.emit('agui', { threadId: 'b', event: started('b', 'r2'), seq: 2 }));
    act(() => t.emit('agui', { threadId: 'a', event: ended('a', 'r1'), seq: 3 }));
    act(() => t.emit('agui', { threadId: 'b', event: interrupted('b', 'r2'), seq: 4 }));
    act(() => t.emit('agui', { threadId: 'a', event: started('a', 'r3'), seq: 5 }));
    await act(() => afterPaintRan());
    expect(seen.get('a')?.activity).toBe('running');
    expect(seen.get('b')?.activity).toBe('awaiting');
  });

  it('a hidden page (no frames) still applies the end within the limit', async () => {
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);
    const t = new FakeTransport();
    render(<Probe t={t} />);
    act(() => t.emit('agui', { threadId: 'th-1', event: started('th-1', 'r1'), seq: 1 }));
    act(() => t.emit('agui', { threadId: 'th-1', event: ended('th-1', 'r1'), seq: 2 }));
    expect(seen.get('th-1')?.activity).toBe('running');
    await act(() => new Promise((r) => setTimeout(r, 600)));
    expect(seen.get('th-1')?.activity).toBe(null);
  });

  it('unmounted mid-hold on a hidden page: nothing is applied after the limit', async () => {
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);
    const t = new FakeTransport();
    const { unmount } = render(<Probe t={t} />);
    act(() => t.emit('agui', { threadId: 'th-1', event: started('th-1', 'r1'), seq: 1 }));
    act(() => t.emit('agui', { threadId: 'th-1', event: ended('th-1', 'r1'), seq: 2 }));
    const before = seen;
    const errors = vi.spyOn(console, 'error');
    unmount();
    await new Promise((r) => setTimeout(r, 600));
    expect(seen).toBe(before);
    expect(errors).not.toHaveBeenCalled();
  });
});

import { afterEach, describe, expect, it } from 'vitest';
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

const started: AguiEvent = { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r1' } as AguiEvent;
const cancelled: AguiEvent = { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r1', outcome: { type: 'cancelled' } } as AguiEvent;

describe('useThreadActivity', () => {
  afterEach(() => cleanup());

  it('shows a start at once and an end one painted frame later', async () => {
    const t = new FakeTransport();
    render(<Probe t={t} />);
    act(() => t.emit('agui', { threadId: 'th-1', event: started, seq: 1 }));
    expect(seen.get('th-1')?.activity).toBe('running');
    // The end waits for the frame in flight (the composer's Send) to be painted.
    act(() => t.emit('agui', { threadId: 'th-1', event: cancelled, seq: 2 }));
    expect(seen.get('th-1')?.activity).toBe('running');
    await afterPaintRan();
    expect(seen.get('th-1')?.activity).toBe(null);
  });

  it('never lets a held end overwrite a start that came after it', async () => {
    const t = new FakeTransport();
    render(<Probe t={t} />);
    act(() => t.emit('agui', { threadId: 'th-1', event: started, seq: 1 }));
    act(() => t.emit('agui', { threadId: 'th-1', event: cancelled, seq: 2 }));
    act(() => t.emit('agui', { threadId: 'th-1', event: { ...started, runId: 'r2' } as AguiEvent, seq: 3 }));
    await afterPaintRan();
    expect(seen.get('th-1')?.activity).toBe('running');
  });

  it('drops what it holds when it is unmounted', async () => {
    const t = new FakeTransport();
    const { unmount } = render(<Probe t={t} />);
    act(() => t.emit('agui', { threadId: 'th-1', event: started, seq: 1 }));
    act(() => t.emit('agui', { threadId: 'th-1', event: cancelled, seq: 2 }));
    const before = seen;
    unmount();
    await afterPaintRan();
    expect(seen).toBe(before);
  });
});

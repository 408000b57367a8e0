import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render } from '@testing-library/preact';
import { useRunEndStaged } from './useRunEndStaged';
import { threadReducer } from '../../state/threadReducer';
import { emptyThreadState, type ThreadState } from '../../state/types';
import { deriveThread } from '../../state/derive';
import { thread } from '../../test/builders';
import type { AguiEvent } from '../../transport/agui';

// Animation frames run when the test says; a task posted from one runs after it (lib/afterPaint).
let frames: FrameRequestCallback[] = [];
beforeEach(() => {
  frames = [];
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => frames.push(cb));
  vi.spyOn(window, 'cancelAnimationFrame').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

async function paintFrame() {
  await act(async () => {
    const q = frames;
    frames = [];
    for (const cb of q) cb(performance.now());
    await new Promise((r) => setTimeout(r, 20)); // the posted task (a MessageChannel message)
  });
}

const events = (s: ThreadState, ...evs: AguiEvent[]) => threadReducer(s, { type: 'events', events: evs });

function start(): ThreadState {
  let s = threadReducer(emptyThreadState('th-1'), { type: 'reset', threadId: 'th-1', thread: thread('th-1') });
  s = events(
    s,
    { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r' },
    { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'Hello' },
  );
  expect(deriveThread(s).status).toBe('running');
  return s;
}

/** What the chat would show: the shown status and text, next to the live status the composer reads. */
function Probe({ state }: { state: ThreadState }) {
  const live = deriveThread(state);
  const shown = useRunEndStaged(state, live);
  const last = shown.state.messages[shown.state.messages.length - 1];
  return (
    <p>
      <span data-testid="composer">{live.status}</span>
      <span data-testid="shown">{shown.view.status}</span>
      <span data-testid="text">{last?.content ?? ''}</span>
      <span data-testid="thread">{shown.state.threadId ?? ''}</span>
    </p>
  );
}

describe('useRunEndStaged', () => {
  it("shows a run's end one painted frame after the composer's Send, and the live state after it", async () => {
    const running = start();
    const { getByTestId, rerender } = render(<Probe state={running} />);
    expect(getByTestId('shown').textContent).toBe('running');
    // The last tokens and the cancelled end come in one batch.
    const ended = events(
      running,
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: ', world' },
      { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r', outcome: { type: 'cancelled' } },
    );
    expect(deriveThread(ended).status).not.toBe('running');
    rerender(<Probe state={ended} />);
    // The frame that answers Esc: the composer has the end, nothing else moved.
    expect(getByTestId('composer').textContent).toBe(deriveThread(ended).status);
    expect(getByTestId('shown').textContent).toBe('running');
    expect(getByTestId('text').textContent).toBe('Hello');
    // An update during the hold does not cut it short.
    const later = { ...ended };
    rerender(<Probe state={later} />);
    expect(getByTestId('shown').textContent).toBe('running');
    await paintFrame();
    expect(getByTestId('shown').textContent).toBe(deriveThread(ended).status);
    expect(getByTestId('text').textContent).toBe('Hello, world');
  });

  it('holds nothing while a run streams or after it ended', async () => {
    const running = start();
    const { getByTestId, rerender } = render(<Probe state={running} />);
    const more = events(running, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: '!' });
    rerender(<Probe state={more} />);
    expect(getByTestId('text').textContent).toBe('Hello!'); // every token shown in its own frame
    expect(frames).toHaveLength(0);
    const done = events(more, { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r', outcome: { type: 'success', pendingToolCallIds: [] } });
    rerender(<Probe state={done} />);
    await paintFrame();
    expect(getByTestId('shown').textContent).toBe('idle');
    const next = { ...done };
    rerender(<Probe state={next} />);
    expect(getByTestId('shown').textContent).toBe('idle');
    expect(frames).toHaveLength(0);
  });

  it('forgets a hold when the chat unmounts before the frame', async () => {
    const running = start();
    const { rerender, unmount } = render(<Probe state={running} />);
    rerender(<Probe state={events(running, { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r', outcome: { type: 'success', pendingToolCallIds: [] } })} />);
    unmount();
    await paintFrame(); // no state update on an unmounted component
  });
});

describe('useRunEndStaged: what a hold must not cover', () => {
  it("never shows the chat left behind: a switch away from a running chat shows the new chat at once", () => {
    const running = start();
    const { getByTestId, rerender } = render(<Probe state={running} />);
    // Another chat opened (useThread resets the state for it): its status is idle, not running.
    const other = threadReducer(emptyThreadState('th-2'), { type: 'reset', threadId: 'th-2', thread: thread('th-2') });
    rerender(<Probe state={other} />);
    expect(getByTestId('thread').textContent).toBe('th-2');
    expect(getByTestId('shown').textContent).toBe(deriveThread(other).status);
    expect(getByTestId('text').textContent).toBe('');
    // New chat (no thread at all): the same.
    rerender(<Probe state={running} />);
    rerender(<Probe state={emptyThreadState(null)} />);
    expect(getByTestId('thread').textContent).toBe('');
    expect(getByTestId('text').textContent).toBe('');
  });

  it('drops a hold when another chat opens before its frame (the held state is the old chat\'s)', () => {
    const running = start();
    const { getByTestId, rerender } = render(<Probe state={running} />);
    rerender(<Probe state={events(running, { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r', outcome: { type: 'success', pendingToolCallIds: [] } })} />);
    expect(getByTestId('shown').textContent).toBe('running'); // held
    const other = threadReducer(emptyThreadState('th-2'), { type: 'reset', threadId: 'th-2', thread: thread('th-2') });
    rerender(<Probe state={other} />);
    expect(getByTestId('thread').textContent).toBe('th-2');
    expect(getByTestId('text').textContent).toBe('');
  });

  it('holds nothing in a hidden tab (no frame is painted there, so the end would wait until the tab is shown)', () => {
    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    const running = start();
    const { getByTestId, rerender } = render(<Probe state={running} />);
    const ended = events(running, { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r', outcome: { type: 'success', pendingToolCallIds: [] } });
    rerender(<Probe state={ended} />);
    expect(getByTestId('shown').textContent).toBe('idle');
    hidden.mockRestore();
  });

  it('ends a hold whose frame never comes (the tab was hidden just after the end): animation frames stop there', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const running = start();
      const { getByTestId, rerender } = render(<Probe state={running} />);
      const ended = events(running, { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r', outcome: { type: 'success', pendingToolCallIds: [] } });
      rerender(<Probe state={ended} />);
      expect(getByTestId('shown').textContent).toBe('running');
      // No frame is ever painted (frames are never run here).
      await act(async () => {
        await vi.advanceTimersByTimeAsync(2000);
      });
      expect(getByTestId('shown').textContent).toBe('idle');
    } finally {
      vi.useRealTimers();
    }
  });
});

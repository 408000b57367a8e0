import { describe, expect, it, vi } from 'vitest';
import { act, render } from '@testing-library/preact';
import { useEffect, useReducer } from 'react';
import { EventBatcher, coalesce, type FrameScheduler } from './batcher';
import { threadReducer } from './threadReducer';
import { emptyThreadState } from './types';
import type { AguiEvent } from '../transport/agui';

function manualScheduler() {
  const cbs = new Map<number, () => void>();
  let next = 1;
  const s: FrameScheduler & { frame: () => void; size: () => number } = {
    request(cb) {
      const h = next++;
      cbs.set(h, cb);
      return h;
    },
    cancel(h) {
      cbs.delete(h);
    },
    frame() {
      const all = [...cbs.values()];
      cbs.clear();
      for (const cb of all) cb();
    },
    size: () => cbs.size,
  };
  return s;
}

const delta = (i: number): AguiEvent => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: `t${i} ` });

describe('EventBatcher', () => {
  it('applies a frame\'s events inside inFrame (flushSync in the window: committed before that frame paints), a direct flush as it is', () => {
    const sched = manualScheduler();
    const seen: string[] = [];
    const b = new EventBatcher(
      () => seen.push('dispatch'),
      sched,
      (apply) => {
        seen.push('inFrame');
        apply();
      },
    );
    b.push(delta(1));
    b.push(delta(2));
    sched.frame();
    expect(seen).toEqual(['inFrame', 'dispatch']);
    b.push(delta(3));
    b.flush(); // Stop, a run's end: applied at once, the frame callback cancelled
    sched.frame();
    expect(seen).toEqual(['inFrame', 'dispatch', 'dispatch']);
    expect(sched.size()).toBe(0);
  });

  it('applies many deltas in one dispatch per frame, coalesced', () => {
    const sched = manualScheduler();
    const dispatch = vi.fn();
    const b = new EventBatcher(dispatch, sched);
    for (let i = 0; i < 1000; i++) b.push(delta(i));
    expect(dispatch).not.toHaveBeenCalled();
    expect(sched.size()).toBe(1); // one frame requested, not 1000
    sched.frame();
    expect(dispatch).toHaveBeenCalledTimes(1);
    const batch = dispatch.mock.calls[0]![0] as AguiEvent[];
    expect(batch).toHaveLength(1);
    expect(batch[0]).toMatchObject({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm' });
    expect((batch[0] as { delta: string }).delta.split(' ').length - 1).toBe(1000);
  });

  it('keeps order and does not merge across other events or entities', () => {
    const events: AguiEvent[] = [
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: '1' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: '2' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 't', delta: '{' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 't', delta: '}' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'b', delta: 'x' },
      { type: 'TEXT_MESSAGE_END', messageId: 'a' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'b', delta: 'y' },
    ];
    expect(coalesce(events)).toEqual([
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: '12' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 't', delta: '{}' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'b', delta: 'x' },
      { type: 'TEXT_MESSAGE_END', messageId: 'a' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'b', delta: 'y' },
    ]);
  });

  it('flush() applies immediately and clear() drops the queue', () => {
    const sched = manualScheduler();
    const dispatch = vi.fn();
    const b = new EventBatcher(dispatch, sched);
    b.push(delta(1));
    b.flush();
    expect(dispatch).toHaveBeenCalledTimes(1);
    expect(sched.size()).toBe(0);
    b.push(delta(2));
    b.clear();
    sched.frame();
    expect(dispatch).toHaveBeenCalledTimes(1);
  });

  it('many deltas cause one render', () => {
    const sched = manualScheduler();
    let renders = 0;
    let push: ((e: AguiEvent) => void) | null = null;
    function Probe() {
      const [s, dispatch] = useReducer(threadReducer, null, () => emptyThreadState('th'));
      renders++;
      useEffect(() => {
        const b = new EventBatcher((events) => dispatch({ type: 'events', events }), sched);
        push = (e) => b.push(e);
      }, []);
      return <p data-testid="text">{s.messages[0]?.content ?? ''}</p>;
    }
    const { getByTestId } = render(<Probe />);
    const before = renders;
    act(() => {
      push!({ type: 'RUN_STARTED', threadId: 'th', runId: 'r' });
      push!({ type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' });
      for (let i = 0; i < 500; i++) push!(delta(i));
    });
    expect(renders).toBe(before); // nothing rendered before the frame
    act(() => sched.frame());
    expect(renders).toBe(before + 1);
    expect(getByTestId('text').textContent).toMatch(/^t0 t1 .* t499 $/);
  });
});

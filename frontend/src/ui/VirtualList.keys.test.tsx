// preact/debug warns about children sharing a key, as React does: loaded
// here, in a file of its own, so that the warning can be asked for.
import 'preact/debug';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render } from '@testing-library/preact';
import { VirtualList } from './VirtualList';
import { FakeRO } from '../test/fakeResizeObserver';

interface Item {
  id: string;
  text: string;
}

const list = (xs: readonly Item[]) => <VirtualList items={xs} getKey={(i) => i.id} renderItem={(i) => <p>{i.text}</p>} estimateHeight={() => 50} />;
const rows = (container: Element) => [...container.querySelectorAll<HTMLElement>('.vlist-row')];
const texts = (container: Element) => rows(container).map((r) => r.textContent);
const observer = () => FakeRO.all.find((o) => o.observed.size > 0)!;

// An imported thread may hold two messages with the same id: the list must
// still show each once, measure each as itself, and warn about nothing.
describe('VirtualList: items that share a key', () => {
  let warn: ReturnType<typeof vi.spyOn>;
  let error: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    FakeRO.all = [];
    vi.stubGlobal('ResizeObserver', FakeRO);
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    error = vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const A = { id: 'm1', text: 'first with m1' };
  const B = { id: 'm2', text: 'between' };
  const A2 = { id: 'm1', text: 'second with m1' };
  const C = { id: 'm3', text: 'last' };
  const A3 = { id: 'm1', text: 'third with m1' };

  it('shows every row once, in order, through inserts, removals and moves, with no warning', () => {
    const { container, rerender } = render(list([A, B, A2, C]));
    expect(texts(container)).toEqual(['first with m1', 'between', 'second with m1', 'last']);
    const steps: Item[][] = [
      [A, B, A2, A3, C], // a third one
      [{ id: 'm0', text: 'new first' }, A, B, A2, A3, C], // one inserted before them all
      [A2, A, C, A3], // moved about, one removed
      [A, C], // the others gone
      [A, { id: 'm1~2', text: 'named like a copy' }, A2, A3], // a key like the one a copy gets
      [A, A2, A3, B, C],
    ];
    for (const xs of steps) {
      rerender(list(xs));
      expect(texts(container)).toEqual(xs.map((x) => x.text));
    }
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });

  it('measures each row as itself: one growing moves the rows after it, not its namesake', () => {
    const { container } = render(list([A, B, A2, C]));
    act(() => observer().resize(rows(container)[0]!, 200));
    expect(rows(container).map((el) => el.style.transform)).toEqual(['translateY(0px)', 'translateY(200px)', 'translateY(250px)', 'translateY(300px)']);
    act(() => observer().resize(rows(container)[2]!, 80));
    expect(rows(container).map((el) => el.style.transform)).toEqual(['translateY(0px)', 'translateY(200px)', 'translateY(250px)', 'translateY(330px)']);
  });

  it('keeps observing a row when its namesake goes', () => {
    const { container, rerender } = render(list([A, B, A2, C]));
    rerender(list([A, B, C]));
    expect(texts(container)).toEqual(['first with m1', 'between', 'last']);
    const ro = observer();
    expect(rows(container).filter((el) => !ro.observed.has(el)).map((el) => el.textContent)).toEqual([]);
    act(() => ro.resize(rows(container)[0]!, 200));
    expect(rows(container).map((el) => el.style.transform)).toEqual(['translateY(0px)', 'translateY(200px)', 'translateY(250px)']);
  });
});

// A thread imported with no ids at all gives every item one key: the rows'
// keys are worked out at every layout (each streamed frame, each
// measurement), so finding them must not take a pass over the earlier
// namesakes per item (10,000 items: 50 million probes, seconds a frame).
describe('VirtualList: many items that share one key', () => {
  beforeEach(() => {
    FakeRO.all = [];
    vi.stubGlobal('ResizeObserver', FakeRO);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('lays out 20,000 namesakes in linear time, each row keyed apart', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({ id: 'same', text: `item ${i}` }));
    const started = performance.now();
    const { container } = render(list(many));
    const took = performance.now() - started;
    const keys = rows(container).map((el) => el.dataset.vkey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.at(-1)).toBe('same~20000'); // shown at the bottom
    // Linear is a few milliseconds; quadratic is many seconds. The bound is
    // loose for a busy machine.
    expect(took).toBeLessThan(1500);
  });
});

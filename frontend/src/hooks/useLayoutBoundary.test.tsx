import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render } from '@testing-library/preact';
import { useRef, useState } from 'react';
import { useLayoutBoundary } from './useLayoutBoundary';
import { FakeRO } from '../test/fakeResizeObserver';

function Box() {
  const outer = useRef<HTMLElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  useLayoutBoundary(outer, inner);
  return (
    <section ref={outer} data-testid="outer">
      <div ref={inner} data-testid="inner">
        text
      </div>
    </section>
  );
}

/** A part of the box with its own state (ImagesAsk answered "No", a picker's search): it renders alone. */
let hideChild: () => void = () => {};
function Child() {
  const [shown, setShown] = useState(true);
  hideChild = () => setShown(false);
  return shown ? <p>a question</p> : null;
}

function BoxWithChild() {
  const outer = useRef<HTMLElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  useLayoutBoundary(outer, inner);
  return (
    <section ref={outer} data-testid="outer">
      <div ref={inner} data-testid="inner">
        <Child />
        text
      </div>
    </section>
  );
}

/** jsdom lays nothing out: the inner box reports height() px high. */
function mockInnerHeight(height: () => number) {
  return vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    return { height: this.dataset.testid === 'inner' ? height() : 0 } as DOMRect;
  });
}

describe('useLayoutBoundary', () => {
  beforeEach(() => {
    FakeRO.all = [];
  });
  afterEach(() => vi.unstubAllGlobals());

  it('marks the outer box a boundary at once and follows the inner box’s height', () => {
    vi.stubGlobal('ResizeObserver', FakeRO);
    const { getByTestId, unmount } = render(<Box />);
    const outer = getByTestId('outer');
    const inner = getByTestId('inner');
    // In the commit, before any observation: the first paint has the boundary.
    expect(outer.hasAttribute('data-boundary')).toBe(true);
    expect(outer.style.getPropertyValue('--boundary-h')).toBe('0px');
    const ro = FakeRO.all.at(-1)!;
    expect([...ro.observed]).toEqual([inner]);
    // Its border box: padding added alone (a card's room above the composer) changes no content box.
    expect(ro.options).toEqual({ box: 'border-box' });
    // Heights the engine reports without a render of the owner (a window resized).
    act(() => ro.resize(inner, 84.5, 600));
    expect(outer.style.getPropertyValue('--boundary-h')).toBe('84.5px');
    act(() => ro.resize(inner, 130));
    expect(outer.style.getPropertyValue('--boundary-h')).toBe('130px');
    unmount();
    expect(ro.observed.size).toBe(0);
    expect(outer.hasAttribute('data-boundary')).toBe(false);
    expect(outer.style.getPropertyValue('--boundary-h')).toBe('');
  });

  it('leaves the box as it is without ResizeObserver', () => {
    vi.stubGlobal('ResizeObserver', undefined);
    const { getByTestId } = render(<Box />);
    expect(getByTestId('outer').hasAttribute('data-boundary')).toBe(false);
    expect(getByTestId('outer').style.getPropertyValue('--boundary-h')).toBe('');
  });

  it('takes the height again in the commit of every render of the owner', () => {
    vi.stubGlobal('ResizeObserver', FakeRO);
    let h = 40;
    const rect = mockInnerHeight(() => h);
    try {
      const { getByTestId, rerender } = render(<Box />);
      const outer = getByTestId('outer');
      expect(outer.style.getPropertyValue('--boundary-h')).toBe('40px');
      h = 64; // a line typed: the owner renders, and its commit has the new height
      rerender(<Box />);
      expect(outer.style.getPropertyValue('--boundary-h')).toBe('64px');
    } finally {
      rect.mockRestore();
    }
  });

  it('keeps the boundary across renders of the owner (Preact never sets data-boundary)', () => {
    vi.stubGlobal('ResizeObserver', FakeRO);
    const { getByTestId, rerender } = render(<Box />);
    const ro = FakeRO.all.at(-1)!;
    act(() => ro.resize(getByTestId('inner'), 60));
    rerender(<Box />);
    expect(getByTestId('outer').hasAttribute('data-boundary')).toBe(true);
    // Measured again in the commit (jsdom lays nothing out: 0).
    expect(getByTestId('outer').style.getPropertyValue('--boundary-h')).toBe('0px');
    expect(FakeRO.all).toHaveLength(1);
  });

  // A height taken only by the ResizeObserver reaches the list above (observed
  // at a shallower depth) a frame late, with "ResizeObserver loop completed
  // with undelivered notifications": what changes the inner box without a
  // render of the owner is measured before the frame's layout.
  it.each<[string, () => void | Promise<void>]>([
    ['a part of it renders alone', async () => {
      act(() => hideChild());
      await Promise.resolve(); // the MutationObserver's microtask
    }],
    ['the window is resized', () => {
      window.dispatchEvent(new Event('resize'));
    }],
  ])('takes the height before the frame when %s', async (_, change) => {
    vi.stubGlobal('ResizeObserver', FakeRO);
    let h = 90;
    const rect = mockInnerHeight(() => h);
    try {
      const { getByTestId, unmount } = render(<BoxWithChild />);
      const outer = getByTestId('outer');
      expect(outer.style.getPropertyValue('--boundary-h')).toBe('90px');
      h = 60;
      await change();
      expect(outer.style.getPropertyValue('--boundary-h')).toBe('60px');
      unmount();
      h = 30;
      window.dispatchEvent(new Event('resize'));
      expect(outer.style.getPropertyValue('--boundary-h')).toBe('');
    } finally {
      rect.mockRestore();
    }
  });
});

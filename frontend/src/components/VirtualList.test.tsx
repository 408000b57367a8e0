import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render } from '@testing-library/react';
import { VirtualList } from './VirtualList';

// jsdom has no layout: a fake ResizeObserver lets the test report sizes.
class FakeRO {
  static all: FakeRO[] = [];
  observed = new Set<Element>();
  constructor(public cb: ResizeObserverCallback) {
    FakeRO.all.push(this);
  }
  observe(el: Element) {
    this.observed.add(el);
  }
  unobserve(el: Element) {
    this.observed.delete(el);
  }
  disconnect() {
    this.observed.clear();
  }
  resize(el: Element, h: number) {
    const entry = { target: el, borderBoxSize: [{ blockSize: h, inlineSize: 100 }] } as unknown as ResizeObserverEntry;
    this.cb([entry], this as unknown as ResizeObserver);
  }
}

const items = Array.from({ length: 500 }, (_, i) => ({ id: `k${i}`, text: `row ${i}` }));

function rows(container: HTMLElement) {
  return [...container.querySelectorAll<HTMLElement>('.vlist-row')];
}

describe('VirtualList', () => {
  beforeEach(() => {
    FakeRO.all = [];
    vi.stubGlobal('ResizeObserver', FakeRO);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('mounts only rows near the viewport, starting at the bottom', () => {
    const { container } = render(
      <VirtualList items={items} getKey={(i) => i.id} renderItem={(i) => <p>{i.text}</p>} estimateHeight={() => 50} />,
    );
    const r = rows(container);
    expect(r.length).toBeGreaterThan(10);
    expect(r.length).toBeLessThan(80);
    expect(r[r.length - 1]!.textContent).toBe('row 499');
  });

  it('observes rows mounted in the first commit and re-lays out when one grows', () => {
    const { container } = render(
      <VirtualList items={items.slice(0, 3)} getKey={(i) => i.id} renderItem={(i) => <p>{i.text}</p>} estimateHeight={() => 50} />,
    );
    const ro = FakeRO.all.find((o) => o.observed.size > 0)!;
    const r = rows(container);
    expect(r.every((el) => ro.observed.has(el))).toBe(true);
    expect(r.map((el) => el.style.transform)).toEqual(['translateY(0px)', 'translateY(50px)', 'translateY(100px)']);
    act(() => ro.resize(r[0]!, 120));
    expect(rows(container).map((el) => el.style.transform)).toEqual([
      'translateY(0px)',
      'translateY(120px)',
      'translateY(170px)',
    ]);
  });
});

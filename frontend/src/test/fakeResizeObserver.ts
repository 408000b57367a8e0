// jsdom has no layout: a fake ResizeObserver lets a test report sizes.
// Stub it with vi.stubGlobal('ResizeObserver', FakeRO) and reset FakeRO.all
// before each test.
export class FakeRO {
  static all: FakeRO[] = [];
  observed = new Set<Element>();
  /** The options of the last observe() call. */
  options: ResizeObserverOptions | undefined;
  constructor(public cb: ResizeObserverCallback) {
    FakeRO.all.push(this);
  }
  observe(el: Element, options?: ResizeObserverOptions) {
    this.observed.add(el);
    this.options = options;
  }
  unobserve(el: Element) {
    this.observed.delete(el);
  }
  disconnect() {
    this.observed.clear();
  }
  /** Reports el's border box as h px high (and `width` wide). */
  resize(el: Element, h: number, width = 100) {
    const entry = { target: el, borderBoxSize: [{ blockSize: h, inlineSize: width }] } as unknown as ResizeObserverEntry;
    this.cb([entry], this as unknown as ResizeObserver);
  }
}

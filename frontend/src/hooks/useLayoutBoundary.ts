import { useLayoutEffect, type RefObject } from 'react';

/**
 * Makes `outer` a layout boundary whose height follows `inner`'s: `outer`
 * gets `data-boundary` and the CSS variable `--boundary-h` (the inner box's
 * border-box height), and its stylesheet gives it `contain: size layout;
 * height: var(--boundary-h)`. `outer` must have no vertical padding or
 * border of its own (they belong on `inner`), so the two heights are one.
 *
 * Why (issue 26, bench/README "Stop on the screen: the composer's layout"):
 * a change of layout inside a box whose height is `auto` is laid out again
 * up to the nearest relayout boundary. For the composer that was the chat
 * column, a flex column; laying it out again, WebKitGTK repaints its items
 * whole: the frame that turns Stop into Send repainted 828 × 719 px (the
 * whole conversation, in software, then copied by the app and drawn by GTK)
 * for a 34 px button, and every key typed into the composer did the same.
 * With size and layout containment the composer's own changes stay inside
 * it; only a change of its height (a new line, a file attached) reaches the
 * column, from the ResizeObserver's callback, which runs after layout and
 * before the paint, so no frame shows the old height.
 *
 * Without ResizeObserver (jsdom in tests, an old engine) nothing is set and
 * `outer` lays out as a plain box.
 */
export function useLayoutBoundary(outer: RefObject<HTMLElement | null>, inner: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const o = outer.current;
    const i = inner.current;
    if (!o || !i || typeof ResizeObserver === 'undefined') return;
    let last = -1;
    const follow = (h: number) => {
      if (h === last) return;
      last = h;
      o.style.setProperty('--boundary-h', `${h}px`);
      if (!('boundary' in o.dataset)) o.dataset.boundary = '';
    };
    // The first height now, in the commit: the first paint has the boundary.
    follow(i.getBoundingClientRect().height);
    const ro = new ResizeObserver((entries) => {
      for (const e of entries) {
        const box = e.borderBoxSize?.[0];
        follow(box ? box.blockSize : e.target.getBoundingClientRect().height);
      }
    });
    // The border box: a change of padding alone (a card's room above the
    // composer) leaves the content box as it was and would not be reported.
    ro.observe(i, { box: 'border-box' });
    return () => {
      ro.disconnect();
      delete o.dataset.boundary;
      o.style.removeProperty('--boundary-h');
    };
  }, [outer, inner]);
}

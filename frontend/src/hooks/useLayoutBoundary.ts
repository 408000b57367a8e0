import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * Makes `outer` a layout boundary whose height follows `inner`'s: `outer`
 * gets `data-boundary` and the CSS variable `--boundary-h` (the inner box's
 * border-box height), and its stylesheet gives it `contain: size layout`
 * and a height of `--boundary-h` plus its own vertical padding (in CSS, so
 * that a padding set by a rule elsewhere takes effect in the same layout).
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
 * column.
 *
 * When the height is taken: after every render of the owner, in the commit
 * (the owner's own changes, such as a line typed, are laid out with the new
 * height in the same frame, and a script that reads the layout next sees
 * it); and from a ResizeObserver for what changes the inner box without a
 * render (the window's width wrapping a long draft, a font loaded).
 * ResizeObserver alone would lag where it matters: it delivers after
 * layout, and the list above, observed at a shallower depth, would learn
 * of its new height only in the next frame (and the browser reports
 * "ResizeObserver loop completed with undelivered notifications"). So what
 * changes the inner box without a render of the owner is measured before
 * the frame's layout too: a MutationObserver on the inner box (a part of it
 * with its own state renders alone: the images question answered, a
 * picker's search, a prompt argument's suggestions) and the window's
 * resize event (lines wrapped again; it runs before the frame's layout).
 * The ResizeObserver stays for the rest (a font loaded): it finds the
 * height already set when one of these took it.
 *
 * Without ResizeObserver (jsdom in tests, an old engine) nothing is set and
 * `outer` lays out as a plain box.
 */
export function useLayoutBoundary(outer: RefObject<HTMLElement | null>, inner: RefObject<HTMLElement | null>): void {
  const follow = useRef<((h: number) => void) | null>(null);
  useLayoutEffect(() => {
    const o = outer.current;
    const i = inner.current;
    if (!o || !i || typeof ResizeObserver === 'undefined') return;
    let last = -1;
    follow.current = (h: number) => {
      if (h === last) return;
      last = h;
      o.style.setProperty('--boundary-h', `${h}px`);
      if (!('boundary' in o.dataset)) o.dataset.boundary = '';
    };
    const ro = new ResizeObserver((entries) => {
      for (const e of entries) {
        const box = e.borderBoxSize?.[0];
        follow.current?.(box ? box.blockSize : e.target.getBoundingClientRect().height);
      }
    });
    // The border box: a change of the inner box's padding or border alone
    // leaves its content box as it was and would not be reported.
    ro.observe(i, { box: 'border-box' });
    // Mutations are delivered in a microtask after the change (a child's
    // commit), before the frame; reading the height there lays out early.
    const measure = () => follow.current?.(i.getBoundingClientRect().height);
    const mo = typeof MutationObserver === 'undefined' ? null : new MutationObserver(measure);
    mo?.observe(i, { childList: true, subtree: true, characterData: true, attributes: true });
    window.addEventListener('resize', measure);
    return () => {
      ro.disconnect();
      mo?.disconnect();
      window.removeEventListener('resize', measure);
      follow.current = null;
      delete o.dataset.boundary;
      o.style.removeProperty('--boundary-h');
    };
  }, [outer, inner]);
  // Every render of the owner (declared after the effect above, so the
  // first one already has it): the height now, in the commit.
  useLayoutEffect(() => {
    const i = inner.current;
    if (i) follow.current?.(i.getBoundingClientRect().height);
  });
}

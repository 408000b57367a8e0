import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type UIEvent } from 'react';
import { useDeferredValue } from '../lib/useDeferredValue';
import { flushSync } from 'react-dom';
import './VirtualList.css';

// A small windowing list for rows of variable height. Only rows near the
// viewport are mounted; each is measured with one shared ResizeObserver and
// the measured heights (kept by key) replace the estimate. The list sticks
// to the bottom while new content arrives unless the person scrolled up,
// and keeps what they are reading in place when rows above it resize.
//
// What a streamed frame repaints (issue 26). WebKitGTK draws the desktop
// window without GPU compositing and repaints the whole of a box whose own
// size changes. The list's extent used to be the height of the box holding
// the rows, set at every layout: each streamed line changed it, and the
// whole conversation on screen was repainted ~25 times a second even while
// the person read further up and nothing they saw changed. The extent is
// now given by a 1 px marker placed at the content's end (.vlist-end): a
// row that grows moves the marker, and only the row's new lines and the
// marker are repainted. Each row's layout is contained (VirtualList.css).
// Measured with bench/xstop -area -list (bench/README.md, "What a streamed
// frame repaints").

export interface VirtualListProps<T> {
  items: readonly T[];
  getKey: (item: T) => string;
  renderItem: (item: T, index: number) => ReactNode;
  estimateHeight?: (item: T) => number;
  /** Extra pixels rendered above and below the viewport. */
  overscan?: number;
  /** Scroll to this key (e.g. a search hit); `nonce` repeats a request. */
  scrollTo?: { key: string; nonce: number } | null;
  /** Changes when a different list is shown (thread switched): start at the bottom again. */
  resetKey?: string | null;
  /**
   * Changes when the same list shows other items in place (another version
   * of a conversation): the rows on screen are rendered at once and the
   * overscan right after, in a deferred render, so the new rows appear in
   * the next frame instead of waiting for rows nobody sees yet.
   */
  pathKey?: string;
  className?: string;
  label?: string;
  /** Padding below the last row, px. */
  bottomPadding?: number;
  onAtBottomChange?: (atBottom: boolean) => void;
  /**
   * Changes when the person sent a message: go to the bottom and follow it
   * (the answer streams in below), wherever the list was scrolled to.
   */
  followNonce?: number;
}

const DEFAULT_ESTIMATE = 120;
const BOTTOM_SLACK = 48;

/**
 * The list is at its bottom: the person scrolled there, or everything fits
 * (there is nothing below to jump to; "↓ Latest" would point at what is
 * already on screen). Asked where the list scrolls (its scroll handler),
 * never at every render: a render while the list is hidden (no layout, every
 * size 0) is not the person reaching the bottom.
 */
function nearBottom(el: HTMLElement): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_SLACK;
}

/** First index whose bottom edge is below `y`. */
function findFirst(offsets: Float64Array, n: number, y: number): number {
  let lo = 0;
  let hi = n - 1;
  let ans = n;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid + 1]! > y) {
      ans = mid;
      hi = mid - 1;
    } else lo = mid + 1;
  }
  return ans;
}

/**
 * A row's key: getKey's, or, for an item whose key an earlier item already
 * has (two messages with one id, from an imported thread), that key with a
 * count ("m1~2"), past any key the list already uses. Rows are told apart by
 * this key in the diff, the measured heights and the row refs: shared, the
 * namesakes took each other's height, and the diff warned about them and
 * could mix them up. The first keeps getKey's key, which scrollTo names.
 *
 * `next` is each shared key's next count to try, so the n-th namesake does
 * not count up past the n-1 before it: the keys are worked out at every
 * layout, and a thread whose items all share one key (imported without ids)
 * would take quadratic time. Each count skipped is a key in `seen`, so the
 * work is linear.
 */
function uniqueKey(key: string, seen: Set<string>, next: Map<string, number>): string {
  if (!seen.has(key)) {
    seen.add(key);
    return key;
  }
  let n = next.get(key) ?? 2;
  while (seen.has(`${key}~${n}`)) n++;
  const k = `${key}~${n}`;
  next.set(key, n + 1);
  seen.add(k);
  return k;
}

/** The items' own keys and the row keys made of them (uniqueKey). */
type RowKeys = { own: readonly string[]; rows: string[] };

/**
 * The row keys of items: the last ones when the items' own keys are the
 * same, in the same order. A streamed frame changes an item, not the keys,
 * so the layout it runs does not build the set of keys again.
 */
function rowKeys<T>(items: readonly T[], getKey: (item: T) => string, last: RowKeys | null): RowKeys {
  const own = items.map(getKey);
  if (last && last.own.length === own.length && own.every((k, i) => k === last.own[i])) return last;
  const seen = new Set<string>();
  const next = new Map<string, number>();
  return { own, rows: own.map((k) => uniqueKey(k, seen, next)) };
}

export function VirtualList<T>({
  items,
  getKey,
  renderItem,
  estimateHeight,
  overscan = 800,
  scrollTo,
  resetKey,
  pathKey = '',
  className,
  label,
  bottomPadding = 24,
  onAtBottomChange,
  followNonce = 0,
}: VirtualListProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const [version, setVersion] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(0);
  const atBottom = useRef(true);
  const [showJump, setShowJump] = useState(false);
  const pendingScroll = useRef<{ key: string; tries: number } | null>(null);
  const layoutRef = useRef<{ keys: string[]; offsets: Float64Array }>({ keys: [], offsets: new Float64Array(1) });
  const observer = useRef<ResizeObserver | null>(null);
  const rafRef = useRef<number | null>(null);
  // Where following last left the scroll position. While following, a
  // position above it and short of the end is the person's scroll (Home,
  // Page Up, the wheel), however small: WebKit animates a key's scroll over
  // frames and fires the scroll event only at the next frame, and following
  // then (a streamed frame, the render onScroll itself schedules) undid it
  // or cut its animation off within BOTTOM_SLACK of the end.
  const followedTop = useRef(0);
  const scrolledUp = (el: HTMLElement) =>
    el.scrollTop < followedTop.current - 1 && el.scrollTop < el.scrollHeight - el.clientHeight - 1;

  const setBottom = useCallback(
    (v: boolean) => {
      if (atBottom.current !== v) {
        atBottom.current = v;
        // Leaving the bottom: the render reads scrollTop from now on, and
        // following never kept it (the follow effect below).
        if (!v && scrollRef.current) setScrollTop(scrollRef.current.scrollTop);
        setShowJump(!v);
        onAtBottomChange?.(v);
      }
    },
    [onAtBottomChange],
  );

  // Layout: prefix sums of measured-or-estimated heights.
  const rowKeysRef = useRef<RowKeys | null>(null);
  const { keys, offsets, total } = useMemo(() => {
    const n = items.length;
    const ks = (rowKeysRef.current = rowKeys(items, getKey, rowKeysRef.current)).rows;
    const off = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) {
      const h = heights.current.get(ks[i]!) ?? (estimateHeight ? estimateHeight(items[i]!) : DEFAULT_ESTIMATE);
      off[i + 1] = off[i]! + h;
    }
    return { keys: ks, offsets: off, total: off[n]! };
  }, [items, getKey, estimateHeight, version]); // `version` bumps when a measurement changes
  layoutRef.current = { keys, offsets };

  // One ResizeObserver for every mounted row. Created on first use (rows
  // mount, and are observed, before effects run).
  const onResize = useCallback((entries: ResizeObserverEntry[]) => {
    let changed = false;
    let shift = 0;
    const el = scrollRef.current;
    const top = el?.scrollTop ?? 0;
    const { keys: ks, offsets: off } = layoutRef.current;
    for (const entry of entries) {
      const target = entry.target as HTMLElement;
      const key = target.dataset.vkey;
      if (!key) continue;
      const box = entry.borderBoxSize?.[0];
      const h = box ? box.blockSize : target.getBoundingClientRect().height;
      if (h <= 0) continue;
      const prev = heights.current.get(key);
      if (prev === h) continue;
      heights.current.set(key, h);
      changed = true;
      const idx = Number(target.dataset.vindex);
      if (prev !== undefined && ks[idx] === key && off[idx]! + prev <= top) shift += h - prev;
    }
    if (!changed) return;
    if (el && shift && !atBottom.current) el.scrollTop = top + shift;
    // ResizeObserver runs after layout and before paint: re-lay out now so
    // a row that grew (details opened, text streamed) never overlaps the next.
    flushSync(() => setVersion((v) => v + 1));
  }, []);

  const getObserver = useCallback((): ResizeObserver | null => {
    if (!observer.current && typeof ResizeObserver !== 'undefined') observer.current = new ResizeObserver(onResize);
    return observer.current;
  }, [onResize]);

  useEffect(() => {
    const ro = getObserver();
    // (Re)observe rows mounted before this effect (e.g. after a StrictMode remount).
    scrollRef.current?.querySelectorAll('.vlist-row').forEach((row) => ro?.observe(row));
    return () => {
      ro?.disconnect();
      observer.current = null;
    };
  }, [getObserver]);

  // One ref callback per row key, kept while the row is mounted. Preact
  // keeps a callback ref's cleanup on the function itself: one callback
  // shared by every row would, at each new row's mount, run the cleanup of
  // the row mounted before it and stop observing that row (a tool block
  // that grows once its view loads would then overlap the answer after it).
  // A row's own callback observes it at mount and unobserves it when called
  // with null at unmount.
  const rowRefs = useRef(new Map<string, (el: HTMLDivElement | null) => void>());
  const rowRef = useCallback(
    (key: string) => {
      let ref = rowRefs.current.get(key);
      if (ref) return ref;
      let mounted: HTMLDivElement | null = null;
      ref = (el: HTMLDivElement | null) => {
        if (!el) {
          // At the list's own unmount its observer is already gone: none is made to unobserve.
          if (mounted) observer.current?.unobserve(mounted);
          mounted = null;
          rowRefs.current.delete(key);
          return;
        }
        mounted = el;
        // Measure at mount (commit phase: the re-layout happens before paint).
        const h = el.getBoundingClientRect().height;
        if (h > 0 && heights.current.get(key) !== h) {
          heights.current.set(key, h);
          setVersion((v) => v + 1);
        }
        getObserver()?.observe(el);
      };
      rowRefs.current.set(key, ref);
      return ref;
    },
    [getObserver],
  );

  // Viewport size.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const update = () => setViewport(el.clientHeight);
    update();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // A different list: forget the scroll position, start at the bottom.
  useLayoutEffect(() => {
    atBottom.current = true;
    setShowJump(false);
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [resetKey]);

  // A message sent: to the bottom, and follow what comes (a search hit's
  // scroll, if one was pending, gives way).
  useLayoutEffect(() => {
    if (!followNonce) return;
    pendingScroll.current = null;
    setBottom(true);
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [followNonce, setBottom]);

  // Follow the bottom after every layout change while at the bottom.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const p = pendingScroll.current;
    if (p) {
      const i = keys.indexOf(p.key);
      if (i >= 0) {
        el.scrollTop = Math.max(0, offsets[i]! - 72);
        setScrollTop(el.scrollTop);
        p.tries += 1;
        if (p.tries > 3) {
          pendingScroll.current = null;
          // The hit's last scroll, as the scroll handler would see it (a
          // scroll that did not move fires no event: everything fits, say).
          if (nearBottom(el)) setBottom(true);
        }
      } else pendingScroll.current = null;
      return;
    }
    // Everything fits in a shown list (one cut back while scrolled to its
    // top fires no scroll event): nothing below to jump to. A hidden list
    // has no layout (every size 0): not the person reaching the bottom.
    if (!atBottom.current && el.clientHeight > 0 && el.scrollHeight - el.clientHeight < BOTTOM_SLACK) setBottom(true);
    if (atBottom.current && scrolledUp(el)) {
      // The person scrolled up since the list last followed: they left the
      // bottom (following now would undo their scroll).
      setBottom(false);
    } else if (atBottom.current) {
      const target = Math.max(0, el.scrollHeight - el.clientHeight);
      // Not kept in state here: the render reads the bottom from the layout
      // (effectiveTop), and a state update would render the list a second
      // time in every streamed frame. setBottom(false) takes the position.
      if (Math.abs(el.scrollTop - target) > 1) el.scrollTop = target;
      followedTop.current = el.scrollTop;
    }
  });

  // Scroll-to requests (search hits).
  useEffect(() => {
    if (!scrollTo) return;
    pendingScroll.current = { key: scrollTo.key, tries: 0 };
    setBottom(false);
    setVersion((v) => v + 1);
  }, [scrollTo, setBottom]);

  const onScroll = useCallback(
    (e: UIEvent<HTMLDivElement>) => {
      const el = e.currentTarget;
      if (pendingScroll.current && pendingScroll.current.tries > 0) pendingScroll.current = null;
      setBottom(!(atBottom.current && scrolledUp(el)) && nearBottom(el));
      if (atBottom.current) followedTop.current = el.scrollTop;
      if (rafRef.current === null) {
        rafRef.current = requestAnimationFrame(() => {
          rafRef.current = null;
          if (scrollRef.current) setScrollTop(scrollRef.current.scrollTop);
        });
      }
    },
    [setBottom],
  );

  useEffect(
    () => () => {
      if (rafRef.current !== null) cancelAnimationFrame(rafRef.current);
    },
    [],
  );

  const jumpToBottom = () => {
    const el = scrollRef.current;
    if (!el) return;
    setBottom(true);
    el.scrollTop = el.scrollHeight;
    setScrollTop(el.scrollTop);
  };

  // In the render right after pathKey changed, the deferred value still
  // holds the old key: no overscan until the deferred render catches up.
  // (Streaming changes items, not pathKey: rows are never remounted by it.)
  const settledPath = useDeferredValue(pathKey);
  const overscanNow = settledPath === pathKey ? overscan : 0;
  const n = items.length;
  const vh = viewport > 0 ? viewport : 800;
  const effectiveTop = atBottom.current ? Math.max(0, total - vh) : scrollTop;
  const first = Math.max(0, findFirst(offsets, n, effectiveTop - overscanNow));
  let last = first;
  while (last < n && offsets[last]! < effectiveTop + vh + overscanNow) last++;

  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    const it = items[i]!;
    const k = keys[i]!;
    rows.push(
      <div
        key={k}
        ref={rowRef(k)}
        className="vlist-row"
        data-vkey={k}
        data-vindex={i}
        style={{ transform: `translateY(${offsets[i]}px)` }}
      >
        {renderItem(it, i)}
      </div>,
    );
  }

  return (
    <div className={`vlist-wrap ${className ?? ''}`}>
      <div ref={scrollRef} className="vlist" onScroll={onScroll} role="log" aria-label={label} aria-live="off" tabIndex={0}>
        <div className="vlist-inner">
          {rows}
          <div className="vlist-end" aria-hidden="true" style={{ top: total + bottomPadding - 1 }} />
        </div>
      </div>
      {showJump && n > 0 && (
        <button type="button" className="vlist-jump" onClick={jumpToBottom} aria-label="Jump to latest message">
          ↓ Latest
        </button>
      )}
    </div>
  );
}

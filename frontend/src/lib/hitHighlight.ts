// Highlighting a search hit's words inside the message it opened, without
// touching the DOM React renders: the words are found in the message's text
// nodes and painted with the CSS Custom Highlight API (::highlight(search-hit)
// in ThreadView.css). Collapsed <details> around a match (a tool call, its
// result) are opened so the words can be seen.

export const HIGHLIGHT_NAME = 'search-hit';

interface HighlightRegistry {
  set(name: string, h: unknown): void;
  delete(name: string): void;
}

function registry(): HighlightRegistry | null {
  const css = (globalThis as { CSS?: { highlights?: HighlightRegistry } }).CSS;
  return css?.highlights && typeof (globalThis as { Highlight?: unknown }).Highlight === 'function' ? css.highlights : null;
}

const WORD = /[\p{L}\p{N}]/u; // as FTS5 unicode61 splits words

/** Every range of `root`'s text that equals one of `terms` (case-insensitive), in document order. */
export function findTermRanges(root: Node, terms: readonly string[]): Range[] {
  const wanted = terms.map((t) => t.toLowerCase()).filter(Boolean);
  if (!wanted.length) return [];
  const doc = root.ownerDocument ?? document;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const ranges: Range[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = (n.nodeValue ?? '').toLowerCase();
    if (!text.trim()) continue;
    // Longest terms first; a position is used once.
    const taken: [number, number][] = [];
    for (const w of [...wanted].sort((a, b) => b.length - a.length)) {
      for (let i = text.indexOf(w); i >= 0; i = text.indexOf(w, i + w.length)) {
        if (taken.some(([a, b]) => i < b && i + w.length > a)) continue;
        // Whole words only, as the search matched them ("art" is not in "start").
        if (WORD.test(text[i - 1] ?? '') || WORD.test(text[i + w.length] ?? '')) continue;
        taken.push([i, i + w.length]);
      }
    }
    taken.sort((a, b) => a[0] - b[0]);
    for (const [a, b] of taken) {
      const r = doc.createRange();
      r.setStart(n, a);
      r.setEnd(n, b);
      ranges.push(r);
    }
  }
  return ranges;
}

/** Opens every closed <details> between `node` and `root`; true when one was opened. */
export function openDetailsAround(node: Node, root: Element): boolean {
  let opened = false;
  for (let el = node.parentElement; el && el !== root.parentElement; el = el.parentElement) {
    if (el instanceof HTMLDetailsElement && !el.open) {
      el.open = true;
      opened = true;
    }
  }
  return opened;
}

/**
 * Finds `terms` in `root`, opens the collapsed blocks around the first match
 * up to `bound` (the message: a tool result sits in two <details>) and paints
 * every match. Returns the ranges (the first one is where to scroll).
 */
export function highlightTerms(root: Element, terms: readonly string[], bound: Element = root): Range[] {
  const ranges = findTermRanges(root, terms);
  if (!ranges.length) return ranges;
  openDetailsAround(ranges[0]!.startContainer, bound.contains(root) ? bound : root);
  const reg = registry();
  if (reg) {
    const H = (globalThis as unknown as { Highlight: new (...r: Range[]) => unknown }).Highlight;
    reg.set(HIGHLIGHT_NAME, new H(...ranges));
  }
  return ranges;
}

export function clearHighlight(): void {
  registry()?.delete(HIGHLIGHT_NAME);
}

/** Whether the browser paints highlights (else only the message flashes). */
export function highlightSupported(): boolean {
  return registry() !== null;
}

/**
 * Scrolls `scroller` so `range` sits about a third down its viewport, when
 * it is not already well inside it.
 */
export function scrollRangeIntoView(scroller: Element, range: Range): void {
  const r = rangeRect(range);
  if (!r) return;
  const box = scroller.getBoundingClientRect();
  if (!r.height && !r.width) return;
  const margin = 48;
  if (r.top >= box.top + margin && r.bottom <= box.bottom - margin) return;
  scroller.scrollTop += r.top - box.top - box.height / 3;
}

/**
 * The box of `range`, or of the element holding it where Range has no
 * getBoundingClientRect (jsdom, older engines); null when neither can say.
 */
function rangeRect(range: Range): DOMRect | null {
  if (typeof (range as Partial<Range>).getBoundingClientRect === 'function') return range.getBoundingClientRect();
  const node = range.startContainer;
  const el = node instanceof Element ? node : node.parentElement;
  return el && typeof el.getBoundingClientRect === 'function' ? el.getBoundingClientRect() : null;
}

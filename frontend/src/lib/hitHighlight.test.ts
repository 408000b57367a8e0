import { afterEach, describe, expect, it } from 'vitest';
import { findTermRanges, highlightTerms, openDetailsAround, scrollRangeIntoView } from './hitHighlight';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('findTermRanges', () => {
  it('finds whole words, case-insensitively, in every text node, in order', () => {
    const root = document.createElement('div');
    root.innerHTML = '<p>The <b>Aardvark</b> starts; an aardvark art.</p><pre>write_file aardvark</pre>';
    const ranges = findTermRanges(root, ['aardvark', 'art']);
    expect(ranges.map((r) => r.toString())).toEqual(['Aardvark', 'aardvark', 'art', 'aardvark']);
    // "art" inside "starts" is not a match; "write" in write_file is (FTS5 splits on "_").
    expect(findTermRanges(root, ['write']).map((r) => r.toString())).toEqual(['write']);
    expect(findTermRanges(root, [])).toEqual([]);
  });
});

describe('highlightTerms', () => {
  it('opens the collapsed blocks around the first match (tool call, then its result)', () => {
    const row = document.createElement('article');
    row.innerHTML =
      '<p>Calling the tool.</p><details class="tool-details"><summary>list_files</summary>' +
      '<details class="tool-result"><summary>Result</summary><pre>zephyr.txt\nnotes.md</pre></details></details>';
    document.body.append(row);
    const ranges = highlightTerms(row, ['zephyr']);
    expect(ranges).toHaveLength(1);
    expect([...row.querySelectorAll('details')].map((d) => d.open)).toEqual([true, true]);
    // Searching the result's <pre> only still opens both, up to the message.
    row.querySelectorAll('details').forEach((d) => (d.open = false));
    expect(highlightTerms(row.querySelector('pre')!, ['zephyr'], row)).toHaveLength(1);
    expect([...row.querySelectorAll('details')].map((d) => d.open)).toEqual([true, true]);
  });

  it('opens nothing outside the root, and says when it opened something', () => {
    const outer = document.createElement('details');
    outer.innerHTML = '<div><span>hello</span></div>';
    const root = outer.querySelector('div')!;
    expect(openDetailsAround(root.querySelector('span')!.firstChild!, root)).toBe(false);
    expect(outer.open).toBe(false);
  });
});

// Issue 19 #27: jsdom (and any engine without it) has no
// Range.getBoundingClientRect; scrolling to a hit then falls back to the
// element holding the words instead of rejecting.
describe('scrollRangeIntoView', () => {
  it('falls back to the element around the range when Range has no getBoundingClientRect', () => {
    const scroller = document.createElement('div');
    scroller.innerHTML = '<p>far below: <b>aardvark</b></p>';
    document.body.append(scroller);
    const [range] = findTermRanges(scroller, ['aardvark']);
    const box = { top: 0, bottom: 300, height: 300, width: 100, left: 0, right: 100 };
    scroller.getBoundingClientRect = () => box as DOMRect;
    scroller.querySelector('b')!.getBoundingClientRect = () => ({ ...box, top: 1000, bottom: 1020, height: 20 }) as DOMRect;
    // As in jsdom, whatever this environment provides.
    Object.defineProperty(range!, 'getBoundingClientRect', { value: undefined });
    expect(() => scrollRangeIntoView(scroller, range!)).not.toThrow();
    expect(scroller.scrollTop).toBe(900);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { findTermRanges, highlightTerms, openDetailsAround } from './hitHighlight';

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

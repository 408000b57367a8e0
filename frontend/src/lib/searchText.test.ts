import { describe, expect, it } from 'vitest';
import { focusSnippet, hitTerms, noteOpenedHit, openedHit, snippetCore, stripMarkdownParts } from './searchText';

const plain = (text: string) => ({ text, match: false });
const mark = (text: string) => ({ text, match: true });

describe('stripMarkdownParts', () => {
  it('drops quote, heading, strong, code and link syntax, keeping the marked words', () => {
    expect(
      stripMarkdownParts([
        plain('> The '),
        mark('write_file'),
        plain(' tool returned:\n\n# Notes\n**bold** and `code` and [the '),
        mark('docs'),
        plain('](https://example.org/x) here'),
      ]),
    ).toEqual([
      plain('The '),
      mark('write_file'),
      plain(' tool returned:\n\nNotes\nbold and code and the '),
      mark('docs'),
      plain(' here'),
    ]);
  });

  it('handles snippets cut inside the syntax and keeps snake_case and arithmetic', () => {
    expect(stripMarkdownParts([plain('…see docs](https://x.org) then _emph_ my_var 2 * 3 '), mark('ok')])).toEqual([
      plain('…see docs then emph my_var 2 * 3 '),
      mark('ok'),
    ]);
    expect(stripMarkdownParts([plain('…- item one\n- item '), mark('two'), plain(' **'), mark('bold')])).toEqual([
      plain('…item one\nitem '),
      mark('two'),
      plain(' '),
      mark('bold'),
    ]);
  });
});

describe('focusSnippet', () => {
  it('keeps the first match near the start: a long lead is cut at a word, behind "…"', () => {
    const lead = 'word '.repeat(30); // 150 characters before the match
    const out = focusSnippet([plain(lead), mark('aardvark'), plain(' and more')]);
    expect(out[0]!.text.startsWith('…')).toBe(true);
    expect(out[0]!.text.length).toBeLessThanOrEqual(57);
    expect(out[0]!.text).toMatch(/^…word /); // a whole word, not "ord"
    expect(out.slice(1)).toEqual([mark('aardvark'), plain(' and more')]);
  });

  it('leaves a short lead alone, folds line breaks, and keeps a single long token’s end', () => {
    expect(focusSnippet([plain('The\n\n'), mark('docs'), plain(' here')])).toEqual([plain('The '), mark('docs'), plain(' here')]);
    const path = `/home/ada/${'deep/'.repeat(20)}`;
    const out = focusSnippet([plain(path), mark('notes'), plain('.txt')]);
    expect(out[0]!.text).toBe(`…${path.slice(-56)}`);
    expect(focusSnippet([plain('no match at all')])).toEqual([plain('no match at all')]);
  });
});

describe('snippetCore and hitTerms', () => {
  it('strips the ellipses FTS5 adds and lists the matched words once, longest first', () => {
    const parts = [plain('…the '), mark('Aardvark'), plain(' and the '), mark('aardvark'), plain(' ate '), mark('ants'), plain('…')];
    expect(snippetCore(parts)).toBe('the Aardvark and the aardvark ate ants');
    expect(hitTerms(parts)).toEqual(['aardvark', 'ants']);
  });

  it('remembers the opened hit for its message only', () => {
    noteOpenedHit({ messageId: 'm1', parts: [plain('a '), mark('zephyr')] });
    expect(openedHit('m1')).toEqual({ messageId: 'm1', terms: ['zephyr'], snippet: 'a zephyr' });
    expect(openedHit('m2')).toBeNull();
  });
});

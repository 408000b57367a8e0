import { describe, expect, it } from 'vitest';
import { stripMarkdownParts } from './searchText';

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

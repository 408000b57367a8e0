// Most blocks of an answer use only CommonMark: a heading, a paragraph of
// plain prose, a list, a quote. The syntax extensions (GFM's tables,
// strikethrough, autolinks, footnotes and task items; TeX math) hook into
// micromark's tokenizer for every character and roughly double what a parse
// costs, and the last block of a streaming answer is parsed again every
// frame. A text in which none of them can start is parsed without them.
//
// The test is on characters each extension needs, and it errs only one
// way: a text that has one is parsed with every extension, as before
// (syntax.test.tsx renders random texts without them both ways, and
// checks that each extension's own samples are seen).

/**
 * Whether `text` may hold syntax that only an extension parses:
 * - GFM tables need `|`, or (one column, no pipes: "a\n:-") an aligned delimiter cell `:-` or `-:`; strikethrough `~`; footnotes `[^`; task items `[ ]`, `[x]` (any white space inside);
 * - GFM autolink literals need `://` (http, https), `www.` or `@` (email, mailto:, xmpp:);
 * - math needs `$`, or a backslash (`\(`, `\[`; plain CommonMark reads `\(` as an escape);
 * - a character reference (`&#46;`, `&commat;`) may decode into the text GFM
 *   finds autolink literals in (`www&#46;a.org` is linked): `&` before `#` or a letter.
 */
export function mayUseExtensions(text: string): boolean {
  return EXTENDED.test(text);
}

const EXTENDED = /[|~$@\\]|\[\^|\[[\sx]\]|:\/\/|www\.|&[#a-z]|:-|-:/i;

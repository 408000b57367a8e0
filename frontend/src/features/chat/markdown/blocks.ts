import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import { remarkMath } from '../../../lib/mathSyntax';
import { mayUseExtensions } from './syntax';

// A streamed answer is rendered block by block (Markdown.tsx): the text is
// cut where its top-level Markdown blocks start, the blocks before the last
// are final and rendered once (memoized), and only the last one is parsed
// and rendered again as text arrives. The cut points are found by the same
// parser ReactMarkdown uses (remark-parse with the same syntax extensions),
// on the complete lines of the open tail only, and only when a line has
// been completed: CommonMark
// closes a block for good once the next top-level block has started, so a
// block before the last never changes again. Rendering each piece alone
// gives what rendering the whole text gives (blocks.test.tsx checks it on
// random Markdown cut at random points), with one exception handled here:
// link reference and footnote definitions are global (a definition at the
// end changes a link at the start), so a text that has one is not cut.

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkMath);
// A text in which no extension's syntax can start is parsed without them (syntax.ts).
const plainParser = unified().use(remarkParse);

/** A definition line ("[x]: …", "[^x]: …"), also inside quotes and list items. */
const DEFINITION = /^[ \t>*+\-\d.)]*\[[^\]\n]+\]:/m;

export interface Split {
  /** The text these starts were found for. */
  text: string;
  /** Where each block starts (the first is 0); the last block is the open one. */
  starts: readonly number[];
}

interface Node {
  type: string;
  position?: { start: { offset?: number }; end: { offset?: number } };
  children?: Node[];
}

const CLOSING_FENCE = /(^|\n)[ \t>*+\-\d.)]*(`{3,}|~{3,})[ \t]*$/;

/** Whether a fenced code block in `n` has no closing fence (its end then depends on what follows). */
function openFence(n: Node, src: string): boolean {
  if (n.type === 'code') {
    const code = src.slice(n.position?.start.offset ?? 0, n.position?.end.offset ?? 0);
    return /^[`~]{3}/.test(code) && (code.indexOf('\n') < 0 || !CLOSING_FENCE.test(code));
  }
  return n.children?.some((c) => openFence(c, src)) ?? false;
}

/** Offsets where the top-level blocks of `src` start (a block after one with an open fence is not cut off). */
function blockStarts(src: string): number[] {
  const tree = (mayUseExtensions(src) ? parser : plainParser).parse(src) as Node;
  const out: number[] = [];
  let prevOpen = false;
  for (const c of tree.children ?? []) {
    if (!prevOpen || out.length === 0) out.push(c.position?.start.offset ?? 0);
    prevOpen = openFence(c, src);
  }
  return out;
}

const BLANK_LINE = /\n[ \t]*\n/;

/** An open fence at the start of a block: "```lang" (or ~~~), a plain language name, at column 0. */
const SIMPLE_FENCE = /^(`{3,}|~{3,})([A-Za-z0-9_+#.-]*)[ \t]*\n/;

export interface OpenFence {
  /** The language name ('' for none). */
  lang: string;
  /** The text of its <code> as the whole render gives it (remark's value plus the newline hast adds). */
  code: string;
}

/**
 * `block` (the last block of a streaming answer) as an open fenced code
 * block that can be shown without parsing: a top-level fence with a plain
 * language name (not mermaid: it draws), no closing fence yet and no
 * carriage return. Anything else is null and goes through the parser. The
 * whole render's <code> text is what follows the fence line, less one
 * trailing newline, plus the newline hast adds to a non-empty value
 * (blocks.test.tsx checks it against the whole render).
 */
export function openFenceBlock(block: string): OpenFence | null {
  const m = SIMPLE_FENCE.exec(block);
  if (!m || block.includes('\r')) return null;
  const lang = m[2]!;
  if (lang.toLowerCase() === 'mermaid') return null;
  const rest = block.slice(m[0].length);
  if (closes(rest, m[1]!)) return null;
  const value = rest.endsWith('\n') ? rest.slice(0, -1) : rest;
  return { lang, code: value ? `${value}\n` : '' };
}

/** Whether a line of `text` is a closing fence for `fence` (the same character, at least as long). */
function closes(text: string, fence: string): boolean {
  const c = fence[0] === '`' ? '`' : '~';
  if (!text.includes(c.repeat(3))) return false;
  const re = c === '`' ? /^ {0,3}(`{3,})[ \t]*$/gm : /^ {0,3}(~{3,})[ \t]*$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) if (m[1]!.length >= fence.length) return true;
  return false;
}

/**
 * The blocks of `text`, reusing `prev` (the split of an earlier text) when
 * `text` only appends to it: the finished blocks are kept and only the open
 * tail is parsed again, and only when the new part completes a line.
 */
export function splitBlocks(text: string, prev?: Split): Split {
  if (DEFINITION.test(text)) return { text, starts: [0] };
  let kept: readonly number[] = [];
  let tail = 0;
  if (prev && prev.starts.length > 0 && text.startsWith(prev.text)) {
    if (text.indexOf('\n', prev.text.length) < 0) return { text, starts: prev.starts };
    kept = prev.starts.slice(0, -1);
    tail = prev.starts[prev.starts.length - 1]!;
    // The open block is a fence that has not closed: nothing after it starts a block.
    if (openFenceBlock(text.slice(tail))) return { text, starts: prev.starts };
  }
  // Complete lines only: how a line starts a block can depend on the rest
  // of the line (a block is never cut at a line still being written).
  const end = text.lastIndexOf('\n') + 1;
  if (end <= tail) return { text, starts: [...kept, tail] };
  const src = text.slice(tail, end);
  const starts = [...kept, tail];
  // A block is cut off only after a blank line (below): with none in the
  // open tail, there is nothing to parse for.
  if (!BLANK_LINE.test(src)) return { text, starts };
  for (const at of blockStarts(src).slice(1)) {
    const o = src.lastIndexOf('\n', at - 1) + 1; // the start of its line (an indented fence starts at the spaces)
    // Only after a blank line: right after a block, micromark reads some
    // lines in "interrupt" mode ("2) x" after indented code is a paragraph,
    // alone it is a list), so a block that follows another directly is not
    // the same alone.
    if (/\n[ \t]*\n[ \t]*$/.test(src.slice(Math.max(0, o - 64), o))) starts.push(tail + o);
  }
  return { text, starts };
}

/** The text of a split's block i. */
export function blockText(s: Split, i: number): string {
  return s.text.slice(s.starts[i], s.starts[i + 1] ?? s.text.length);
}

/** The block texts of a split. */
export function blockTexts(s: Split): string[] {
  return s.starts.map((_, i) => blockText(s, i));
}

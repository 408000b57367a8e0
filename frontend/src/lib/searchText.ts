// Display helpers for search hits: snippets of assistant messages are
// Markdown source, shown as plain text (the syntax characters are dropped,
// the highlighted words kept).

import type { SearchHitPart } from '../transport/contract';

type Range = [number, number];

/** Syntax to drop: each rule returns the ranges of one match to remove. */
const RULES: [RegExp, (m: RegExpExecArray) => Range[]][] = [
  // [text](url) and ![alt](url): keep the text.
  [
    /(!?\[)([^\]\n]*)(\]\([^)\s]*(?:\s+"[^"\n]*")?\))/g,
    (m) => [
      [m.index, m.index + m[1]!.length],
      [m.index + m[1]!.length + m[2]!.length, m.index + m[0].length],
    ],
  ],
  // The end of a link whose start the snippet cut off, or the start of one it cut.
  [/\]\((?:[a-z]+:|\/|#)[^)\s]*\)?/gi, (m) => [[m.index, m.index + m[0].length]]],
  [/!?\[(?=[^\]\n]*$)/g, (m) => [[m.index, m.index + m[0].length]]],
  // <https://…> autolinks.
  [/<((?:https?|mailto):[^>\s]*)>/g, (m) => [[m.index, m.index + 1], [m.index + m[0].length - 1, m.index + m[0].length]]],
  // Block markers at the start of a line (after the snippet's "…" if any).
  [
    /^((?:…|\.\.\.)?[ \t]*)((?:>[ \t]?)+|#{1,6}[ \t]+|[-*+][ \t]+(?:\[[ xX]\][ \t]+)?|```[\w-]*|~~~[\w-]*)/gm,
    (m) => [[m.index + m[1]!.length, m.index + m[0].length]],
  ],
  // Horizontal rules.
  [/^[ \t]*([-*_])(?:[ \t]*\1){2,}[ \t]*$/gm, (m) => [[m.index, m.index + m[0].length]]],
  // Code spans, strong / strike markers.
  [/`+|\*\*+|__+|~~/g, (m) => [[m.index, m.index + m[0].length]]],
  // Single * or _ emphasis markers next to a word.
  [/(?<![\w*])[*_](?=[^\s*_])|(?<=[^\s*_])[*_](?![\w*])/g, (m) => [[m.index, m.index + 1]]],
];

/** Drops Markdown syntax from snippet parts; the text inside marks is kept, parts re-merged. */
export function stripMarkdownParts(parts: readonly SearchHitPart[]): SearchHitPart[] {
  const text = parts.map((p) => p.text).join('');
  const drop = new Uint8Array(text.length);
  for (const [re, ranges] of RULES) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m[0] === '') {
        re.lastIndex++;
        continue;
      }
      for (const [a, b] of ranges(m)) drop.fill(1, a, b);
    }
  }
  const out: SearchHitPart[] = [];
  let at = 0;
  for (const p of parts) {
    let kept = '';
    for (let i = 0; i < p.text.length; i++) if (!drop[at + i]) kept += p.text[i];
    at += p.text.length;
    if (!kept) continue;
    const last = out[out.length - 1];
    if (last && last.match === p.match) last.text += kept;
    else out.push({ text: kept, match: p.match });
  }
  return out;
}

const ELLIPSIS = '…';

/**
 * Keeps the first match near the start of a snippet: the sidebar shows three
 * lines at most, and an FTS5 snippet may open with many words before it (or a
 * long path or JSON in a tool result). Text before the first match is cut to
 * about `lead` characters at a word boundary, behind "…"; runs of white space
 * become one space. Parts without a match are returned as they are.
 */
export function focusSnippet(parts: readonly SearchHitPart[], lead = 56): SearchHitPart[] {
  const out = parts.map((p) => ({ text: p.text.replace(/\s+/g, ' '), match: p.match }));
  const first = out.findIndex((p) => p.match);
  if (first < 0) return out;
  const before = out.slice(0, first).map((p) => p.text).join('');
  if (before.length <= lead) return out;
  let cut = before.slice(before.length - lead);
  // Start at a word: drop the partial first word (unless that drops it all).
  // (A single long token, such as a path, keeps its end.)
  const sp = cut.search(/\s/);
  if (sp >= 0 && sp < cut.length - 1) cut = cut.slice(sp + 1);
  const head = `${ELLIPSIS}${cut}`;
  return [{ text: head, match: false }, ...out.slice(first)];
}

/** The snippet's own text: its parts joined, without the "…" FTS5 puts where it cut. */
export function snippetCore(parts: readonly SearchHitPart[]): string {
  return parts
    .map((p) => p.text)
    .join('')
    .replace(/^…+/, '')
    .replace(/…+$/, '')
    .trim();
}

/** The words a hit matched (its marked parts), each once, longest first. */
export function hitTerms(parts: readonly SearchHitPart[]): string[] {
  const seen = new Set<string>();
  for (const p of parts) {
    const t = p.text.trim();
    if (p.match && t) seen.add(t.toLowerCase());
  }
  return [...seen].sort((a, b) => b.length - a.length);
}

/**
 * The last search hit the person opened, by message id: the thread view reads
 * it to highlight the matched words (App passes only the message id along).
 */
export interface OpenedHit {
  messageId: string;
  terms: string[];
  snippet: string;
}

let opened: OpenedHit | null = null;

export function noteOpenedHit(hit: { messageId: string; parts: readonly SearchHitPart[] }): void {
  opened = { messageId: hit.messageId, terms: hitTerms(hit.parts), snippet: snippetCore(hit.parts) };
}

export function openedHit(messageId: string): OpenedHit | null {
  return opened && opened.messageId === messageId ? opened : null;
}

// The diff of a write_file call whose arguments the person edited on the
// approval card. Go's preview is a diff from the file on disk to the
// model's content; the file on disk is rebuilt from that diff and the
// model's content (lines outside the hunks are the same in both), and the
// diff is taken again against the edited content. Go stays the authority:
// the write itself reads the file again.

import type { Preview } from '../state/interrupts';
import { isObject, isString } from '../transport/json';

/** Context lines around each hunk, as Go's UnifiedDiff. */
const CONTEXT = 3;
/** Past this many line pairs the middle is shown replaced whole (a correct diff, not a minimal one). */
const MAX_CELLS = 4_000_000;
const NO_NEWLINE = '\\ No newline at end of file';

/** Lines that keep their "\n" (a last line without one differs from the same line with one). */
export function splitLines(s: string): string[] {
  if (s === '') return [];
  return s.split(/(?<=\n)/);
}

/**
 * The old text of a unified diff from oldText to newText, given newText;
 * null when the diff does not fit newText (truncated, or not a diff).
 */
export function oldFromDiff(diff: string, newText: string): string | null {
  const rows = diff.replace(/\n$/, '').split('\n');
  const b = splitLines(newText);
  const out: string[] = [];
  let at = 0; // next line of b not yet copied
  let i = 0;
  while (i < rows.length && !rows[i]!.startsWith('@@')) i++;
  if (i === rows.length) return null;
  while (i < rows.length) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(rows[i]!);
    if (!m) return null;
    // A count left out is 1 (diff -u writes "@@ -1 +1,2 @@").
    const aCount = Number(m[2] ?? 1);
    const bCount = Number(m[4] ?? 1);
    const bStart = bCount === 0 ? Number(m[3]) : Number(m[3]) - 1;
    if (bStart < at || bStart > b.length) return null;
    out.push(...b.slice(at, bStart));
    at = bStart;
    i++;
    const olds: string[] = [];
    const news: string[] = [];
    let lastKind = '';
    const strip = (list: string[]) => {
      list[list.length - 1] = list[list.length - 1]!.replace(/\n$/, '');
    };
    for (; i < rows.length && !rows[i]!.startsWith('@@'); i++) {
      const r = rows[i]!;
      if (r === NO_NEWLINE) {
        if (lastKind === ' ' || lastKind === '-') strip(olds);
        if (lastKind === ' ' || lastKind === '+') strip(news);
        if (!lastKind) return null;
        continue;
      }
      const body = r.slice(1) + '\n';
      lastKind = r[0] ?? '';
      if (lastKind === ' ') {
        olds.push(body);
        news.push(body);
      } else if (lastKind === '-') olds.push(body);
      else if (lastKind === '+') news.push(body);
      else return null;
    }
    if (news.length !== bCount || olds.length !== aCount) return null;
    for (let k = 0; k < news.length; k++) if (b[at + k] !== news[k]) return null;
    out.push(...olds);
    at += news.length;
  }
  out.push(...b.slice(at));
  return out.join('');
}

type Op = { kind: ' ' | '-' | '+'; a: number; b: number };

function diffOps(a: string[], b: string[]): Op[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const ops: Op[] = [];
  for (let i = 0; i < pre; i++) ops.push({ kind: ' ', a: i, b: i });
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  const n = am.length;
  const m = bm.length;
  if (n * m > MAX_CELLS) {
    for (let i = 0; i < n; i++) ops.push({ kind: '-', a: pre + i, b: pre });
    for (let j = 0; j < m; j++) ops.push({ kind: '+', a: pre + n, b: pre + j });
  } else {
    // LCS table over the changed middle, walked forwards.
    const w = m + 1;
    const t = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        t[i * w + j] = am[i] === bm[j] ? t[(i + 1) * w + j + 1]! + 1 : Math.max(t[(i + 1) * w + j]!, t[i * w + j + 1]!);
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && am[i] === bm[j]) ops.push({ kind: ' ', a: pre + i++, b: pre + j++ });
      else if (i < n && (j === m || t[(i + 1) * w + j]! >= t[i * w + j + 1]!)) ops.push({ kind: '-', a: pre + i++, b: pre + j });
      else ops.push({ kind: '+', a: pre + i, b: pre + j++ });
    }
  }
  for (let i = 0; i < suf; i++) ops.push({ kind: ' ', a: a.length - suf + i, b: b.length - suf + i });
  return ops;
}

function hunks(ops: Op[]): [number, number][] {
  const hs: [number, number][] = [];
  for (let i = 0; i < ops.length; ) {
    if (ops[i]!.kind === ' ') {
      i++;
      continue;
    }
    const start = Math.max(i - CONTEXT, 0);
    let end = i;
    while (end < ops.length) {
      if (ops[end]!.kind !== ' ') {
        end++;
        continue;
      }
      let run = end;
      while (run < ops.length && ops[run]!.kind === ' ') run++;
      if (run === ops.length || run - end > 2 * CONTEXT) {
        end = Math.min(end + CONTEXT, ops.length);
        break;
      }
      end = run;
    }
    const last = hs[hs.length - 1];
    if (last && last[1] >= start) last[1] = end;
    else hs.push([start, end]);
    i = end;
  }
  return hs;
}

/** A unified diff from oldText to newText, as Go's tools.UnifiedDiff writes it ("" when equal). */
export function unifiedDiff(oldName: string, newName: string, oldText: string, newText: string): string {
  if (oldText === newText) return '';
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const ops = diffOps(a, b);
  let out = `--- ${oldName}\n+++ ${newName}\n`;
  for (const [s, e] of hunks(ops)) {
    const h = ops.slice(s, e);
    let aStart = -1;
    let bStart = -1;
    let aCount = 0;
    let bCount = 0;
    for (const op of h) {
      if (op.kind !== '+') {
        if (aStart < 0) aStart = op.a;
        aCount++;
      }
      if (op.kind !== '-') {
        if (bStart < 0) bStart = op.b;
        bCount++;
      }
    }
    if (aStart < 0) aStart = h[0]!.a - 1;
    if (bStart < 0) bStart = h[0]!.b - 1;
    out += `@@ -${aStart + 1},${aCount} +${bStart + 1},${bCount} @@\n`;
    for (const op of h) {
      const line = op.kind === '+' ? b[op.b]! : a[op.a]!;
      out += op.kind + line;
      if (!line.endsWith('\n')) out += `\n${NO_NEWLINE}\n`;
    }
  }
  return out;
}

function writeArgs(v: unknown): { path: string; content: string } | null {
  if (!isObject(v) || !isString(v.path) || !isString(v.content)) return null;
  return { path: v.path, content: v.content };
}

/**
 * The preview to show for a write_file call whose arguments were edited:
 * Go's preview when nothing that matters changed, a new diff against the
 * edited content when the file's text can be rebuilt, and a note saying
 * the diff is the model's version otherwise.
 */
export function previewForEdit(pv: Preview, modelArgs: unknown, editedArgs: unknown): Preview {
  const model = writeArgs(modelArgs);
  const edited = writeArgs(editedArgs);
  if (!model || !edited || pv.kind !== 'diff' || pv.error) return pv;
  if (model.path === edited.path && model.content === edited.content) return pv;
  const stale = (why: string): Preview => ({
    ...pv,
    kind: 'note',
    body: `${why} The diff Juncture showed was of the model's version; the file is checked again when you allow.`,
  });
  if (model.path !== edited.path) return stale('The path was edited.');
  const header = /^--- (.*)\n\+\+\+ (.*)$/m.exec(pv.body);
  let old: string | null;
  let oldName = header?.[1] ?? 'a/file';
  const newName = header?.[2] ?? 'b/file';
  if (header) old = oldFromDiff(pv.body, model.content);
  else if (pv.body.startsWith('No changes')) {
    old = model.content;
    const name = pv.title.replace(/^(Edit|Create|Overwrite) /, '');
    oldName = `a/${name}`;
    return withBody(pv, unifiedDiff(oldName, `b/${name}`, old, edited.content));
  } else return stale('The content was edited.');
  if (old === null) return stale('The content was edited.');
  return withBody(pv, unifiedDiff(oldName, newName, oldName === '/dev/null' ? '' : old, edited.content));
}

function withBody(pv: Preview, body: string): Preview {
  return { ...pv, body: body || 'No changes: the file already has this content.' };
}

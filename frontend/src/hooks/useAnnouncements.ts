// What a screen reader is told about the open thread, worked out from the
// thread state (never from the DOM): one announcement when a turn's answer
// is finished (not per token), "Stopped." on Stop, a card that appears, an
// error from the run. Nothing is said for what a load brings (history, a
// thread switched to): the first state of each loaded thread is the baseline.

import { useEffect, useRef, useState } from 'react';
import { classifyInterrupt } from '../state/interrupts';
import type { ThreadState } from '../state/types';

export interface Announcement {
  text: string;
  /** Errors go to the assertive region; everything else is polite. */
  urgent: boolean;
  /** Counts announcements, so the same text said twice is still new. */
  seq: number;
}

/** How much of an answer is read out. */
export const ANSWER_PREVIEW = 200;

/** Markdown as the words a listener wants: no markup, links as their text, one line. */
export function plainText(markdown: string, max = ANSWER_PREVIEW): string {
  let s = markdown
    .replace(/```[^\n]*\n?/g, ' ') // code fences (the code itself stays)
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // images: their alt text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links: their text
    .replace(/<[^>]+>/g, ' ')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '') // headings, quotes, list marks
    .replace(/(\*\*|__|\*|_|~~|`)/g, '')
    .replace(/\$\$?/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (s.length > max) {
    const cut = s.slice(0, max);
    const sp = cut.lastIndexOf(' ');
    s = `${(sp > max * 0.6 ? cut.slice(0, sp) : cut).trimEnd()}…`;
  }
  return s;
}

interface Seen {
  threadId: string | null;
  /** The baseline for this thread is taken (it has loaded). */
  ready: boolean;
  phase: ThreadState['phase'];
  runId: string | null;
  /** Assistant messages seen streaming. */
  streaming: Set<string>;
  interrupts: Set<string>;
  /** Tool calls seen running or waiting. */
  open: Set<string>;
  runError: string | null;
  /** The text of the last answer finished in this run, said when the run ends. */
  finished: string | null;
}

function baseline(s: ThreadState): Seen {
  return {
    threadId: s.threadId,
    ready: s.loaded,
    phase: s.phase,
    runId: s.runId,
    streaming: new Set(s.messages.filter((m) => m.status === 'streaming').map((m) => m.id)),
    interrupts: new Set(s.interrupts.map((i) => i.id)),
    open: new Set(
      Object.values(s.toolCalls)
        .filter((t) => t.state === 'running' || t.state === 'awaiting-approval' || t.state === 'awaiting-answer')
        .map((t) => t.id),
    ),
    runError: s.runError?.message ?? null,
    finished: null,
  };
}

/** What a card that appeared is called, or null for one that is not a card (unbound). */
function cardLine(s: ThreadState, id: string): string | null {
  const it = s.interrupts.find((i) => i.id === id);
  if (!it) return null;
  const c = classifyInterrupt(it, s.toolCalls);
  if (c.kind === 'approval') return `Approval needed: ${c.toolName}`;
  if (c.kind === 'question') {
    const title = typeof c.schema?.title === 'string' ? c.schema.title.trim() : '';
    return `Question: ${plainText(it.message?.trim() || title || 'Juncture has a question')}`;
  }
  return null;
}

/** What the thread's changes say, from one state to the next; mutates `seen`. */
export function announce(seen: Seen, s: ThreadState): { text: string; urgent: boolean } | null {
  const lines: string[] = [];
  let urgent = false;
  let stopped = false;
  for (const m of s.messages) {
    if (m.role !== 'assistant') continue;
    if (m.status === 'streaming') {
      seen.streaming.add(m.id);
      continue;
    }
    if (!seen.streaming.has(m.id)) continue;
    seen.streaming.delete(m.id);
    if (m.status === 'interrupted') stopped = true;
    else if (m.status === 'complete' && m.content.trim()) seen.finished = m.content;
  }
  // A run stopped while a tool ran (or before it wrote anything): its calls say so.
  for (const t of Object.values(s.toolCalls)) {
    if (t.state === 'running' || t.state === 'awaiting-approval' || t.state === 'awaiting-answer') seen.open.add(t.id);
    else if (seen.open.delete(t.id) && (t.state === 'interrupted' || t.state === 'interrupted-mid-run')) stopped = true;
  }
  const fresh = s.interrupts.filter((i) => !seen.interrupts.has(i.id));
  seen.interrupts = new Set(s.interrupts.map((i) => i.id));
  const cards = fresh.map((i) => cardLine(s, i.id)).filter((l): l is string => !!l);
  const err = s.runError?.message ?? null;
  const newError = err && err !== seen.runError;
  seen.runError = err;
  const ended = seen.phase === 'running' && s.phase !== 'running';
  // An answer of this run left interrupted, though never seen streaming (one batch).
  if (ended && seen.runId && s.messages.some((m) => m.runId === seen.runId && m.status === 'interrupted')) stopped = true;
  seen.phase = s.phase;
  seen.runId = s.runId;

  if (stopped) {
    lines.push('Stopped.');
    seen.finished = null;
  } else if (ended && seen.finished && !newError && !cards.length) {
    // A card that appears is what needs the person now: it is said instead
    // of the words that led to it.
    lines.push(`Answer finished: ${plainText(seen.finished)}`);
    seen.finished = null;
  }
  if (ended) seen.finished = null;
  lines.push(...cards);
  if (newError) {
    lines.push(`The answer failed: ${err}`);
    urgent = true;
  }
  return lines.length ? { text: lines.join(' '), urgent } : null;
}

/** The latest announcement for the open thread (see `announce`). */
export function useAnnouncements(state: ThreadState): Announcement | null {
  const seen = useRef<Seen | null>(null);
  const [said, setSaid] = useState<Announcement | null>(null);
  useEffect(() => {
    const prev = seen.current;
    // A thread switched to, or one not loaded yet: what it holds is history.
    if (!prev || prev.threadId !== state.threadId || !prev.ready || !state.loaded) {
      seen.current = baseline(state);
      if (prev && prev.threadId !== state.threadId) setSaid(null);
      return;
    }
    const a = announce(prev, state);
    if (a) setSaid((p) => ({ ...a, seq: (p?.seq ?? 0) + 1 }));
  }, [state]);
  return said;
}

import { afterPaint } from './afterPaint';

/**
 * Start-up marks: when the page reached each stage of its start-up, in ms
 * from its time origin (the navigation). The desktop bench
 * (scripts/bench-desktop.sh, JUNCTURE_BENCH=1) reads them from the window
 * title once the composer took its first key (lib/benchTitle.ts), to say
 * where a launch's time goes. Recording is a push per stage, the first
 * time only; nothing reads them outside the bench.
 */
const marks: [string, number][] = [];

/** Records the first time stage `name` was reached. */
export function markStartup(name: string, now?: number): void {
  // App marks 'render' on every render (each streamed frame): a look-up, no clock read.
  if (marks.length >= 32 || marks.some(([n]) => n === name)) return;
  marks.push([name, Math.round(now ?? performance.now())]);
}

/** `t0=<epoch ms of the time origin>,<name>=<ms>,…` in the order reached. */
export function startupMarks(): string {
  return [`t0=${Math.round(performance.timeOrigin)}`, ...marks.map(([n, t]) => `${n}=${t}`)].join(',');
}

/** Forgets every mark (tests). */
export function resetStartupMarks(): void {
  marks.length = 0;
  firstInput = 0;
}

/** Marks `name` now and `name-painted` once the next frame painted (a
 *  message posted from its animation frame callback runs after the paint). */
export function markStartupPainted(name: string): void {
  if (marks.some(([n]) => n === name)) return;
  markStartup(name);
  afterPaint(() => markStartup(`${name}-painted`));
}

let firstInput = 0; // epoch ms of the composer's first input event, 0 before

/** The composer's first input (epoch ms), 0 while it took none. */
export function firstComposerInput(): number {
  return firstInput;
}

const inComposer = (t: EventTarget | null) => t instanceof HTMLTextAreaElement && t.closest('.composer') !== null;

/**
 * Marks `focus` when the composer's text box first has the focus and
 * `input` when it first takes a key, noting that key's time for the
 * bench counter (lib/benchTitle.ts), which only starts once Status said
 * the bench runs: a key the composer took before that still counts when
 * it was taken. Installed when the page starts (main.tsx).
 */
export function watchComposer(doc: Document = document): void {
  const onFocus = (e: FocusEvent) => {
    if (!inComposer(e.target)) return;
    markStartup('focus');
    doc.removeEventListener('focusin', onFocus, true);
  };
  const onInput = (e: Event) => {
    if (!inComposer(e.target)) return;
    firstInput = Math.round(performance.timeOrigin + performance.now());
    markStartup('input');
    doc.removeEventListener('input', onInput, true);
  };
  doc.addEventListener('focusin', onFocus, true);
  doc.addEventListener('input', onInput, true);
}

import { options } from 'preact';
import { postTask } from './afterPaint';

/**
 * Passive effects (useEffect) run in a microtask right after the commit
 * that scheduled them, before the browser paints: as React ran them after
 * a click, a key or a flushSync (the stream's frames). Preact's default runs
 * them after the next frame, so a focus an effect moves (a sub-form's first
 * field after "Deny…", the button again after Esc) would come a frame after
 * the click, and a key typed at once would land on the old element.
 *
 * Work that must wait for the paint waits itself (lib/afterPaint.ts, used
 * by lib/useDeferredValue.ts). Imported once, by main.tsx and by the tests'
 * setup, before anything renders.
 *
 * The hazard, and its guard: an effect that sets state on every render (a
 * bug) would chain microtasks forever, and no task, input or paint would
 * ever run again: the window would hang. After chainedFlushLimit flushes
 * with no task between them, flushes go back to Preact's own timing (after
 * the next frame: one render per frame, the page stays usable) until a
 * frame's flush schedules no other, and the console says so, once per
 * runaway.
 */
export const chainedFlushLimit = 1000;

let chained = 0;
let resetQueued = false;
/**
 * A runaway was seen: flushes wait for a frame until a frame's flush
 * schedules none. Ending it at the next task instead (as a chain ends)
 * gave the runaway a fresh allowance each frame: a thousand renders and a
 * console error per frame, not one render.
 */
let runaway = false;
let scheduledSinceFrame = false;

const afterFrame = (flush: () => void) => {
  // Preact's default: the next frame, or a timeout when frames do not run (a hidden page).
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    cancelAnimationFrame(frame);
    scheduledSinceFrame = false;
    flush();
    // What the flush set renders, and schedules its effects, in this task's microtasks.
    postTask(() => {
      if (!scheduledSinceFrame) runaway = false;
    });
  };
  const timer = setTimeout(run, 35);
  const frame = requestAnimationFrame(run);
};

options.requestAnimationFrame = (flush) => {
  if (runaway) {
    scheduledSinceFrame = true;
    afterFrame(flush);
    return;
  }
  if (!resetQueued) {
    // The first task after this chain ends it. A posted message, not a
    // timer: a hidden page's timers wait a second or more (and a test's
    // fake timers forever, dropped when it gives the real ones back), and
    // every flush meanwhile would count as chained: past the limit, every
    // effect would wait for a frame.
    resetQueued = true;
    postTask(() => {
      chained = 0;
      resetQueued = false;
    });
  }
  if (++chained > chainedFlushLimit) {
    runaway = true;
    console.error(`Juncture: effects kept scheduling effects (${chainedFlushLimit} times in one task); running them once a frame instead.`);
    afterFrame(flush);
    return;
  }
  queueMicrotask(flush);
};

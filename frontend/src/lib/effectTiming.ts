import { options } from 'preact';
import { afterPaintWithin, postTask } from './afterPaint';

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
 * with no task between them, flushes wait for the next painted frame
 * (lib/afterPaint, at most 35 ms as Preact's own timing: a hidden page
 * paints none) and keep doing so while each flush schedules the next: one
 * render a frame, and the page stays usable. The first flush that
 * schedules nothing more ends it. The console says so once per runaway.
 */
export const chainedFlushLimit = 1000;

let chained = 0; // flushes scheduled since the last task began
let resetQueued = false;
let runaway = false; // tripped: flushes wait for a frame until one schedules nothing
let scheduledSince = false; // a flush was scheduled since the last runaway flush began

function onceAFrame(flush: () => void): void {
  afterPaintWithin(() => {
    scheduledSince = false;
    flush();
    // The effects' state changes render in a microtask, and that commit
    // schedules the next flush: look once those have run.
    postTask(() => {
      if (!scheduledSince) runaway = false; // the chain ended by itself
    });
  }, 35);
}

options.requestAnimationFrame = (flush) => {
  scheduledSince = true;
  if (runaway) {
    onceAFrame(flush);
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
    onceAFrame(flush);
    return;
  }
  queueMicrotask(flush);
};

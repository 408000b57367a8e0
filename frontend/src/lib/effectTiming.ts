import { options } from 'preact';

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
 */
options.requestAnimationFrame = (flush) => {
  queueMicrotask(flush);
};

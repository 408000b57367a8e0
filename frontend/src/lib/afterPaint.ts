// "After the paint": a task posted from an animation frame's callback runs
// once that frame was painted (the browser paints between the callback and
// the next task). The start-up marks, the window's ready signal and the
// Stop bench all need that moment; this is the one place that finds it.

/** Runs fn in a new task (a MessageChannel message: unlike setTimeout, never clamped). */
export function postTask(fn: () => void): () => void {
  const ch = new MessageChannel();
  let live = true;
  ch.port1.onmessage = () => {
    ch.port1.close();
    if (live) fn();
  };
  ch.port2.postMessage(null);
  return () => {
    live = false;
    ch.port1.close();
  };
}

/** Runs fn once the next frame was painted; the returned function cancels it. */
export function afterPaint(fn: () => void, win: Window = window): () => void {
  let cancelTask: (() => void) | undefined;
  const frame = win.requestAnimationFrame(() => {
    cancelTask = postTask(fn);
  });
  return () => {
    win.cancelAnimationFrame(frame);
    cancelTask?.();
  };
}

/**
 * Runs fn once, after the next frame was painted or after `limitMs`,
 * whichever comes first: a hidden page (or a minimised window) runs no
 * animation frame, and what waits for a paint must not wait for ever.
 * The returned function cancels both.
 */
export function afterPaintWithin(fn: () => void, limitMs: number, win: Window = window): () => void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    cancel();
    fn();
  };
  const cancelPaint = afterPaint(once, win);
  const timer = win.setTimeout(once, limitMs);
  const cancel = () => {
    cancelPaint();
    win.clearTimeout(timer);
  };
  return () => {
    done = true;
    cancel();
  };
}

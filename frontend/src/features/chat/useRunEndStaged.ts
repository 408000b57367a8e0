import { useEffect, useRef, useState } from 'react';
import { afterPaintWithin } from '../../lib/afterPaint';
import { deriveThread, type ThreadDerived } from '../../state/derive';
import type { ThreadState } from '../../state/types';

/**
 * The longest a hold waits for its frame. A hidden tab (or a minimised
 * window) runs no animation frame: without a limit the chat would show the
 * run going on until it is looked at again, and then for one more frame.
 * Far above a frame, even one painted in software on a busy machine.
 */
const HOLD_LIMIT_MS = 500;

/** No frame is painted while the page is hidden: there is nothing to stage. */
function pageHidden(): boolean {
  return typeof document !== 'undefined' && document.visibilityState === 'hidden';
}

/**
 * The frame in which a run ends (Stop, or the answer finished) shows one
 * change: the composer's Send back in place of Stop. Everything else the
 * end brings (the answer's actions row and final rendering, the header's
 * status, the announcement for screen readers) is shown from the render
 * after that frame was painted (lib/afterPaint): one frame later.
 *
 * Why: WebKitGTK paints in software, into a fresh bitmap the size of the
 * bounding box of what changed. The actions row makes the answer taller,
 * which scrolls the conversation (the whole list repaints) and the
 * header and the announcer stretch the box from the top of the window to
 * the composer. Painted in the same frame, the Send button waited for all
 * of it: 40-50 ms (bench/README.md, "Stop as seen"). Staged, the frame that
 * answers Esc paints one button.
 *
 * The composer reads the live status: only what is shown is staged, never
 * what is decided (Send, typing and the queue act on the live state).
 * A hold is of one chat: another chat opened (or New chat) is shown at
 * once, never with the state of the chat left behind.
 */
export function useRunEndStaged(state: ThreadState, view: ThreadDerived): { state: ThreadState; view: ThreadDerived } {
  const prev = useRef<ThreadState>(state);
  const held = useRef<ThreadState | null>(null);
  const [, setRenders] = useState(0);
  if (prev.current !== state) {
    // Only the first render of the end holds (a later update during the
    // hold keeps the held state; the next render after the paint shows
    // whatever is live by then).
    if (
      held.current === null &&
      prev.current.threadId === state.threadId &&
      deriveThread(prev.current).status === 'running' &&
      view.status !== 'running' &&
      !pageHidden()
    ) {
      held.current = prev.current;
    }
    prev.current = state;
  }
  // Another chat opened during a hold: what was held is the old chat's.
  if (held.current && held.current.threadId !== state.threadId) held.current = null;
  const holding = held.current;
  useEffect(() => {
    if (!holding) return;
    return afterPaintWithin(() => {
      if (held.current !== holding) return;
      held.current = null;
      setRenders((n) => n + 1); // render again, now with the live state
    }, HOLD_LIMIT_MS);
  }, [holding]);
  return holding ? { state: holding, view: deriveThread(holding) } : { state, view };
}

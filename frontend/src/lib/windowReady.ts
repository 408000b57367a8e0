import { afterPaint } from './afterPaint';

// The window's first screen is up: the desktop app waits for this before
// it starts work the person is not waiting for (the MCP servers' processes),
// so they do not compete with the window for the CPU while it starts.
// Issue 26's start-up: five servers starting beside WebKit delayed the
// composer taking a key by about 1.5 s on 2 cores.

/** The Wails event main.go listens for (desktop only; the browser has no runtime). */
export const WINDOW_READY_EVENT = 'window-ready';

/**
 * Sends WINDOW_READY_EVENT once, after the next frame was painted.
 * Returns a cancel for an unmounted caller.
 */
export function announceWindowReady(win: Window = window): () => void {
  return afterPaint(() => win.runtime?.EventsEmit?.(WINDOW_READY_EVENT), win);
}

// Coalesces streaming events and hands them to the reducer at most once per
// animation frame (wailsapp/wails#5128: one store update per chunk froze the
// UI). Consecutive deltas for the same message / tool call are merged.
// While the document is hidden, rAF does not fire, so a short timer is used
// instead: approvals must still arrive (and notify) in a background window.

import type { AguiEvent } from '../transport/agui';

export interface FrameScheduler {
  request(cb: () => void): number;
  cancel(handle: number): void;
}

export const animationFrameScheduler: FrameScheduler = {
  request(cb) {
    if (typeof document !== 'undefined' && document.hidden) {
      return -(setTimeout(cb, 50) as unknown as number) - 1;
    }
    if (typeof requestAnimationFrame === 'function') return requestAnimationFrame(() => cb());
    return -(setTimeout(cb, 16) as unknown as number) - 1;
  },
  cancel(handle) {
    if (handle < 0) clearTimeout(-(handle + 1));
    else if (typeof cancelAnimationFrame === 'function') cancelAnimationFrame(handle);
  },
};

/** Whether delta b continues delta a exactly (or either has no offset). */
function contiguous(a: { delta: string; offset?: number }, b: { offset?: number }): boolean {
  return a.offset === undefined || b.offset === undefined || b.offset === a.offset + a.delta.length;
}

/** Merges adjacent deltas of the same entity (order is preserved). */
export function coalesce(events: readonly AguiEvent[]): AguiEvent[] {
  const out: AguiEvent[] = [];
  for (const e of events) {
    const last = out[out.length - 1];
    if (last) {
      if (
        e.type === 'TEXT_MESSAGE_CONTENT' &&
        last.type === 'TEXT_MESSAGE_CONTENT' &&
        last.messageId === e.messageId &&
        contiguous(last, e)
      ) {
        out[out.length - 1] = { ...last, delta: last.delta + e.delta };
        continue;
      }
      if (
        e.type === 'REASONING_MESSAGE_CONTENT' &&
        last.type === 'REASONING_MESSAGE_CONTENT' &&
        last.messageId === e.messageId &&
        contiguous(last, e)
      ) {
        out[out.length - 1] = { ...last, delta: last.delta + e.delta };
        continue;
      }
      if (e.type === 'TOOL_CALL_ARGS' && last.type === 'TOOL_CALL_ARGS' && last.toolCallId === e.toolCallId && contiguous(last, e)) {
        out[out.length - 1] = { ...last, delta: last.delta + e.delta };
        continue;
      }
    }
    out.push(e);
  }
  return out;
}

export class EventBatcher {
  private queue: AguiEvent[] = [];
  private handle: number | null = null;

  constructor(
    private readonly dispatch: (events: AguiEvent[]) => void,
    private readonly scheduler: FrameScheduler = animationFrameScheduler,
    /**
     * Runs the flush of a frame callback (useThread passes
     * flushSync: the frame's events are rendered and committed before that
     * frame paints, in one commit, instead of in a task after it).
     */
    private readonly inFrame: (apply: () => void) => void = (apply) => apply(),
  ) {}

  push(e: AguiEvent): void {
    this.queue.push(e);
    if (this.handle === null) {
      this.handle = this.scheduler.request(() => {
        this.handle = null;
        if (this.queue.length) this.inFrame(() => this.flush());
      });
    }
  }

  /** Applies everything queued now (also used before a snapshot load). */
  flush(): void {
    if (this.handle !== null) {
      this.scheduler.cancel(this.handle);
      this.handle = null;
    }
    if (!this.queue.length) return;
    const batch = coalesce(this.queue);
    this.queue = [];
    this.dispatch(batch);
  }

  /** Drops queued events (thread switched). */
  clear(): void {
    if (this.handle !== null) this.scheduler.cancel(this.handle);
    this.handle = null;
    this.queue = [];
  }

  get pending(): number {
    return this.queue.length;
  }
}

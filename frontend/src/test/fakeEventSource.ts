import { vi } from 'vitest';

/** EventSource at the global boundary: each connection the page opens, with its URL. */
export class FakeEventSource {
  static instances: FakeEventSource[] = [];
  readyState = 0;
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  closed = false;
  constructor(public url: string) {
    FakeEventSource.instances.push(this);
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  frame(data: unknown, lastEventId = '') {
    this.onmessage?.(
      new MessageEvent('message', { data: typeof data === 'string' ? data : JSON.stringify(data), lastEventId }),
    );
  }
  fail() {
    this.onerror?.(new Event('error'));
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
}

export type FetchMock = ReturnType<typeof vi.fn<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>>;

/**
 * A fetch that answers POST /api/events/ticket with "ticket-1",
 * "ticket-2", … (or with `refuse`'s status when set) and every other
 * request with `other` (404 when unset).
 */
export function ticketFetch(opts: { refuse?: () => number | undefined; other?: (url: string) => Response } = {}): FetchMock {
  let n = 0;
  return vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url.endsWith('/api/events/ticket')) {
      const status = opts.refuse?.();
      if (status) return new Response('', { status });
      n += 1;
      return new Response(JSON.stringify({ ticket: `ticket-${n}` }), { status: 200 });
    }
    return opts.other?.(url) ?? new Response('', { status: 404 });
  });
}

/** Lets the page's pending fetches (a ticket being asked for) finish. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    if (vi.isFakeTimers()) await vi.advanceTimersByTimeAsync(0);
    else await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

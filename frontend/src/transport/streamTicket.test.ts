import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpTransport, MAX_TOKEN_LENGTH, TICKET_TIMEOUT_MS } from './http';
import { FakeEventSource, ticketFetch, settle, type FetchMock } from '../test/fakeEventSource';

// The event stream never carries the long-lived token in its URL (URLs
// end up in logs, history, proxies): each connection asks for a
// single-use ticket with the token in its Authorization header, and opens
// /api/events?ticket=…. A reconnect asks for a new one (app/web
// tickets.go spends a ticket on first use).

const TOKEN = '0123456789abcdef0123456789abcdef0123456789abcdef';

/** Every URL the page asked for: fetches and EventSources. */
function urlsBuilt(fetchMock: FetchMock): string[] {
  return [...fetchMock.mock.calls.map((c) => String(c[0])), ...FakeEventSource.instances.map((es) => es.url)];
}

describe('HttpTransport stream tickets', () => {
  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('opens the stream with a ticket asked for with the token in a header, never with the token in the URL', async () => {
    const fetchMock = ticketFetch();
    vi.stubGlobal('fetch', fetchMock);
    const t = new HttpTransport({ token: TOKEN, backoff: () => 10 });
    t.subscribe('agui', () => undefined);
    t.subscribe('queue', () => undefined);
    await settle();
    expect(fetchMock).toHaveBeenCalledTimes(1); // two subscriptions, one stream
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/events/ticket');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('Authorization')).toBe(`Bearer ${TOKEN}`);
    expect(FakeEventSource.instances.map((es) => es.url)).toEqual(['/api/events?ticket=ticket-1']);
    for (const u of urlsBuilt(fetchMock)) expect(u).not.toContain(TOKEN);
    t.close();
  });

  it('reconnects with a new ticket (the spent one is refused), keeping the last event id', async () => {
    const fetchMock = ticketFetch();
    vi.stubGlobal('fetch', fetchMock);
    const t = new HttpTransport({ token: TOKEN, backoff: () => 10 });
    const states: string[] = [];
    t.subscribe('connection', (d) => states.push(d.state));
    await settle();
    const first = FakeEventSource.instances[0]!;
    first.open();
    first.frame({ name: 'threads', data: {} }, 'boot1.42');
    first.fail();
    // Closed at once: the browser's own retry would send ticket-1 again.
    expect(first.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(10);
    await settle();
    expect(FakeEventSource.instances.map((es) => es.url)).toEqual([
      '/api/events?ticket=ticket-1',
      '/api/events?ticket=ticket-2&lastEventId=boot1.42',
    ]);
    FakeEventSource.instances[1]!.open();
    expect(states).toEqual(['connected', 'disconnected', 'reconnected']);
    for (const u of urlsBuilt(fetchMock)) expect(u).not.toContain(TOKEN);
    t.close();
  });

  it('retries with backoff when no ticket comes (network, 429, an unreadable answer)', async () => {
    const answers: Array<() => Response> = [
      () => {
        throw new TypeError('Failed to fetch');
      },
      () => new Response('', { status: 429 }),
      () => new Response('{"ticket":', { status: 200 }),
      () => new Response('{"ticket":"ticket-ok"}', { status: 200 }),
    ];
    const fetchMock: FetchMock = vi.fn(async () => answers.shift()!());
    vi.stubGlobal('fetch', fetchMock);
    const delays: number[] = [];
    const t = new HttpTransport({
      token: TOKEN,
      backoff: (n) => {
        delays.push(n);
        return 100;
      },
    });
    const states: string[] = [];
    t.subscribe('connection', (d) => states.push(d.state));
    for (let i = 0; i < 3; i++) {
      await settle();
      expect(FakeEventSource.instances).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(100);
    }
    await settle();
    expect(FakeEventSource.instances.map((es) => es.url)).toEqual(['/api/events?ticket=ticket-ok']);
    expect(delays).toEqual([0, 1, 2]);
    expect(states).toEqual(['disconnected']); // said once
    expect(t.tokenState()).toBe('ok');
    t.close();
  });

  // A 431 is a refused token only for a token longer than any the page
  // takes (resolveToken never gives one; a transport made with it may):
  // one of normal length is a few hundred bytes of the server's 64 KiB.
  it.each([
    ['401', TOKEN, 401],
    ['431 for a token longer than any the page takes', 'a'.repeat(MAX_TOKEN_LENGTH + 1), 431],
  ])('a token refused when asking for a ticket (%s) turns "rejected" and stops the stream', async (_name, token, status) => {
    const fetchMock = ticketFetch({ refuse: () => status });
    vi.stubGlobal('fetch', fetchMock);
    const t = new HttpTransport({ token, backoff: () => 10 });
    const heard: string[] = [];
    t.onTokenRejected(() => heard.push(t.tokenState()));
    t.subscribe('connection', () => undefined);
    await settle();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(heard).toEqual(['rejected']);
    expect(FakeEventSource.instances).toHaveLength(0);
    expect(fetchMock).toHaveBeenCalledTimes(1); // no retrying a refused token
  });

  it('a server restart mid-stream: tickets fail while it is down, the stream comes back resuming from the last event id', async () => {
    let down = false;
    const fetchMock = ticketFetch({ refuse: () => (down ? 503 : undefined) });
    vi.stubGlobal('fetch', fetchMock);
    const t = new HttpTransport({ token: TOKEN, backoff: (n) => 100 * 2 ** n });
    const states: string[] = [];
    t.subscribe('connection', (d) => states.push(d.state));
    await settle();
    FakeEventSource.instances[0]!.open();
    FakeEventSource.instances[0]!.frame({ name: 'threads', data: {} }, 'boot1.7');
    down = true;
    FakeEventSource.instances[0]!.fail();
    await vi.advanceTimersByTimeAsync(100 + 200 + 400);
    await settle();
    expect(FakeEventSource.instances).toHaveLength(1);
    down = false;
    await vi.advanceTimersByTimeAsync(800);
    await settle();
    expect(FakeEventSource.instances.map((es) => es.url).at(-1)).toMatch(/^\/api\/events\?ticket=ticket-\d+&lastEventId=boot1\.7$/);
    FakeEventSource.instances.at(-1)!.open();
    expect(states).toEqual(['connected', 'disconnected', 'reconnected']);
    t.close();
  });

  it('closed while waiting to reconnect, or with the stream open: nothing more is asked for, ever', async () => {
    const fetchMock = ticketFetch();
    vi.stubGlobal('fetch', fetchMock);
    const t = new HttpTransport({ token: TOKEN, backoff: () => 100 });
    t.subscribe('agui', () => undefined);
    await settle();
    FakeEventSource.instances[0]!.open();
    FakeEventSource.instances[0]!.fail();
    t.close(); // during the backoff
    await vi.advanceTimersByTimeAsync(60_000);
    await settle();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
    t.subscribe('queue', () => undefined); // a late subscriber opens nothing
    void t.ready(); // nor does asking whether it is ready
    await settle();
    expect(fetchMock).toHaveBeenCalledTimes(1);

    const t2 = new HttpTransport({ token: TOKEN, backoff: () => 100 });
    t2.subscribe('agui', () => undefined);
    await settle();
    const es = FakeEventSource.instances.at(-1)!;
    es.open();
    t2.close();
    expect(es.closed).toBe(true);
    es.fail(); // an error after close
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a 431 for a token of normal length (big cookies for this address) is no refusal: the stream retries with backoff', async () => {
    const fetchMock = ticketFetch({ refuse: () => 431 });
    vi.stubGlobal('fetch', fetchMock);
    const delays: number[] = [];
    const t = new HttpTransport({
      token: TOKEN,
      backoff: (n) => {
        delays.push(n);
        return 1000 * 2 ** n;
      },
    });
    const heard: string[] = [];
    t.onTokenRejected(() => heard.push(t.tokenState()));
    const states: string[] = [];
    t.subscribe('connection', (d) => states.push(d.state));
    await settle();
    // 1 s + 2 s + 4 s + 8 s of backoff: five asks in 15 s, not a tight loop.
    await vi.advanceTimersByTimeAsync(15_000);
    await settle();
    expect(fetchMock).toHaveBeenCalledTimes(5);
    expect(delays).toEqual([0, 1, 2, 3, 4]);
    expect(heard).toEqual([]);
    expect(t.tokenState()).toBe('ok');
    expect(states).toEqual(['disconnected']); // said once
    expect(FakeEventSource.instances).toHaveLength(0);
    t.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  // close() ends a ticket request at once: nothing it brings afterwards
  // (a ticket, a refusal, a failure) opens, says or schedules anything.
  it.each([
    ['that never answers', 'hang'],
    ['already answered "refused" (401)', 401],
    ['already answered with a ticket', 200],
    ['already failed (the network)', 'network'],
  ] as const)('closed while a ticket request %s: it is aborted, nothing opens, nothing is said, no timer is left', async (_name, answer) => {
    const signals: AbortSignal[] = [];
    const fetchMock: FetchMock = vi.fn((_url: RequestInfo | URL, init?: RequestInit) => {
      if (init?.signal) signals.push(init.signal);
      if (answer === 'hang') return new Promise<Response>(() => {}); // ignores its signal, as a stopped server would
      if (answer === 'network') return Promise.reject(new TypeError('Failed to fetch'));
      return Promise.resolve(new Response(answer === 200 ? '{"ticket":"ticket-late"}' : '', { status: answer }));
    });
    vi.stubGlobal('fetch', fetchMock);
    const t = new HttpTransport({ token: TOKEN, backoff: () => 10 });
    const heard: string[] = [];
    t.onTokenRejected(() => heard.push(t.tokenState()));
    const states: string[] = [];
    t.subscribe('connection', (d) => states.push(d.state));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    t.close();
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0); // the give-up timer too, at once
    await settle();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(FakeEventSource.instances).toHaveLength(0);
    expect(heard).toEqual([]);
    expect(t.tokenState()).toBe('ok');
    expect(states).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('closed while the ticket is on its way: no stream is opened', async () => {
    vi.stubGlobal('fetch', ticketFetch());
    const t = new HttpTransport({ token: TOKEN });
    t.subscribe('agui', () => undefined);
    t.close();
    await settle();
    expect(FakeEventSource.instances).toHaveLength(0);
  });
  it('gives up on a ticket request that never answers (a server stopped mid-request, a laptop woken) and tries again', async () => {
    let asked = 0;
    const fetchMock: FetchMock = vi.fn((_url: RequestInfo | URL, init?: RequestInit) => {
      asked += 1;
      if (asked === 1) {
        // Hangs until aborted, as a request to a stopped server does.
        return new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        });
      }
      return Promise.resolve(new Response('{"ticket":"ticket-late"}', { status: 200 }));
    });
    vi.stubGlobal('fetch', fetchMock);
    const t = new HttpTransport({ token: TOKEN, backoff: () => 10 });
    const states: string[] = [];
    t.subscribe('connection', (d) => states.push(d.state));
    await settle();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(TICKET_TIMEOUT_MS + 10);
    await settle();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(FakeEventSource.instances.map((es) => es.url)).toEqual(['/api/events?ticket=ticket-late']);
    FakeEventSource.instances[0]!.open();
    expect(states).toEqual(['disconnected', 'connected']);
    t.close();
  });
});

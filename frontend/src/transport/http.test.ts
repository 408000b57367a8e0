import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpTransport, STABLE_MS, forgetToken, resolveToken, tokenWasRefused } from './http';
import { WailsTransport } from './wails';
import { JunctureError, toJunctureError } from './errors';
import type { EventMap } from './events';
import { FakeEventSource, settle, ticketFetch } from '../test/fakeEventSource';

// fetch and EventSource are mocked at the global boundary; the real server
// path is covered end to end by the Playwright suite on the Go side. The
// stream opens with a ticket asked for first (streamTicket.test.ts).

function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? '' : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

describe('HttpTransport.call', () => {
  const fetchMock = vi.fn<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>();
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('POSTs the arguments as a JSON array with the bearer token and parses the result', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { threadId: 'th-1', queued: true }));
    const t = new HttpTransport({ token: 'tok-1' });
    const r = await t.call('SendInput', 'th-1', 'hello');
    expect(r).toEqual({ threadId: 'th-1', queued: true });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/call/SendInput');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer tok-1');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(JSON.parse(String(init?.body))).toEqual(['th-1', 'hello']);
  });

  it('sends [] for methods without arguments and maps null results', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, null));
    const t = new HttpTransport({ token: 'x' });
    await expect(t.call('Interrupt', 'th')).resolves.toBeNull();
    fetchMock.mockResolvedValueOnce(new Response('', { status: 200 }));
    await expect(t.call('DeleteThread', 'th')).resolves.toBeNull();
    fetchMock.mockResolvedValueOnce(
      jsonResponse(200, { mode: 'browser', configured: false, endpoint: '', model: '', problem: 'No model' }),
    );
    await expect(t.call('Status')).resolves.toEqual({
      mode: 'browser',
      configured: false,
      endpoint: '',
      model: '',
      problem: 'No model',
    });
    expect(JSON.parse(String(fetchMock.mock.calls[2]![1]?.body))).toEqual([]);
  });

  it('normalises error bodies into JunctureError with details', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(400, {
        error: { code: 'invalid-settings', message: 'Invalid settings', details: { baseUrl: 'not a URL', loopGuard: 'too big' } },
      }),
    );
    const t = new HttpTransport({ token: 'x' });
    const err = await t.call('GetSettings').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JunctureError);
    expect(err).toMatchObject({
      code: 'invalid-settings',
      message: 'Invalid settings',
      details: { baseUrl: 'not a URL', loopGuard: 'too big' },
    });
  });

  it('maps 401 without a body, non-JSON 500s and network failures', async () => {
    const t = new HttpTransport({ token: 'bad' });
    fetchMock.mockResolvedValueOnce(new Response('', { status: 401 }));
    await expect(t.call('Status')).rejects.toMatchObject({ code: 'unauthorized' });
    fetchMock.mockResolvedValueOnce(new Response('boom', { status: 500 }));
    await expect(t.call('Status')).rejects.toMatchObject({ code: 'http', message: expect.stringContaining('500') });
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(t.call('Status')).rejects.toMatchObject({ code: 'network' });
    fetchMock.mockResolvedValueOnce(new Response('{not json', { status: 200 }));
    await expect(t.call('Status')).rejects.toMatchObject({ code: 'bad-response' });
  });

  it('Answer posts the batch (remember inside its item) and parses what still waits', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { continued: false, waiting: ['q-1'] }));
    const t = new HttpTransport({ token: 'x' });
    const batch = {
      answers: [
        { interruptId: 'approval_tc-r', status: 'resolved' as const, payload: { approved: true }, remember: { scope: 'tool' as const } },
      ],
      clientResults: [],
    };
    await expect(t.call('Answer', 'th-1', batch)).resolves.toEqual({ continued: false, waiting: ['q-1'] });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/call/Answer');
    expect(JSON.parse(String(init?.body))).toEqual(['th-1', batch]);
    fetchMock.mockResolvedValue(
      jsonResponse(400, { error: { code: 'invalid-argument', message: 'Missing answer.', details: { code: 'incomplete-batch', runId: 'run-3' } } }),
    );
    await expect(t.call('Answer', 'th-1', batch)).rejects.toMatchObject({
      code: 'invalid-argument',
      details: { code: 'incomplete-batch', runId: 'run-3' },
    });
  });

  it('GetThread keeps every generated tool state (awaiting-answer too) and the answered list', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(200, {
        thread: { id: 'th', title: 't', pinned: false, createdAt: 1, updatedAt: 1 },
        messages: [],
        running: false,
        queued: null,
        interrupts: [],
        interruptKinds: { 'q-1': 'generic', odd: 'weird' },
        clientTools: [],
        toolStates: { a: 'awaiting-answer', b: 'denied', c: 'made-up' },
        answered: ['q-1'],
      }),
    );
    const t = new HttpTransport({ token: 'x' });
    const v = await t.call('GetThread', 'th');
    expect(v.toolStates).toEqual({ a: 'awaiting-answer', b: 'denied' });
    expect(v.answered).toEqual(['q-1']);
    expect(v.interruptKinds).toEqual({ 'q-1': 'generic' });
    expect(v.queued).toEqual([]);
  });

  it('narrows results: a malformed thread view is rejected, not passed on', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { thread: { title: 'no id' }, messages: [] }));
    const t = new HttpTransport({ token: 'x' });
    await expect(t.call('GetThread', 'th')).rejects.toMatchObject({ code: 'bad-response' });
  });
});

describe('HttpTransport events', () => {
  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    vi.stubGlobal('fetch', ticketFetch());
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('opens one EventSource with a stream ticket (never the token) and dispatches {name,data} frames', async () => {
    const t = new HttpTransport({ token: 'a b', backoff: () => 100 });
    const agui: EventMap['agui'][] = [];
    const queue: EventMap['queue'][] = [];
    const threads: EventMap['threads'][] = [];
    t.subscribe('agui', (d) => agui.push(d));
    t.subscribe('queue', (d) => queue.push(d));
    t.subscribe('threads', (d) => threads.push(d));
    await settle();
    expect(FakeEventSource.instances).toHaveLength(1);
    const es = FakeEventSource.instances[0]!;
    expect(es.url).toBe('/api/events?ticket=ticket-1');
    es.open();
    es.frame({ name: 'agui', data: { threadId: 'th', event: { type: 'RUN_STARTED', threadId: 'th', runId: 'r' } } });
    es.frame({ name: 'queue', data: { threadId: 'th', queued: ['x'] } });
    es.frame({ name: 'threads', data: { threadId: 'th' } });
    es.frame({ name: 'threads', data: null });
    // Malformed frames are dropped.
    es.frame('not json');
    es.frame({ name: 'agui', data: { event: { type: 'RUN_STARTED' } } });
    es.frame({ name: 'unknown', data: {} });
    es.frame({ name: 'agui', data: { threadId: 'th', event: { nope: 1 } } });
    // A frame without a seq (an older server) reads as seq 0.
    expect(agui).toEqual([{ threadId: 'th', event: { type: 'RUN_STARTED', threadId: 'th', runId: 'r' }, seq: 0 }]);
    expect(queue).toEqual([{ threadId: 'th', queued: ['x'] }]);
    expect(threads).toEqual([{ threadId: 'th' }, {}]);
    t.close();
    expect(es.closed).toBe(true);
  });

  it('delivers the "mcp" event (a server or the configuration changed) with an empty payload', async () => {
    const t = new HttpTransport({ token: 't', backoff: () => 100 });
    const got: EventMap['mcp'][] = [];
    t.subscribe('mcp', (d) => got.push(d));
    await settle();
    const es = FakeEventSource.instances[0]!;
    es.open();
    es.frame({ name: 'mcp', data: {} });
    es.frame({ name: 'mcp', data: null });
    expect(got).toEqual([{}, {}]);
    t.close();
  });

  it('reconnects with backoff and reports disconnected / reconnected', async () => {
    const delays: number[] = [];
    const t = new HttpTransport({
      token: 't',
      backoff: (n) => {
        delays.push(n);
        return 1000 * (n + 1);
      },
    });
    const states: string[] = [];
    t.subscribe('connection', (d) => states.push(d.state));
    t.subscribe('agui', () => undefined);
    await settle();
    FakeEventSource.instances[0]!.open();
    expect(states).toEqual(['connected']);

    FakeEventSource.instances[0]!.fail();
    expect(FakeEventSource.instances[0]!.closed).toBe(true);
    expect(states).toEqual(['connected', 'disconnected']);
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeEventSource.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(FakeEventSource.instances).toHaveLength(2);

    // Fails again before opening: a longer wait, no duplicate "disconnected".
    FakeEventSource.instances[1]!.fail();
    await vi.advanceTimersByTimeAsync(1999);
    expect(FakeEventSource.instances).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(FakeEventSource.instances).toHaveLength(3);
    FakeEventSource.instances[2]!.open();
    expect(states).toEqual(['connected', 'disconnected', 'reconnected']);
    expect(delays).toEqual([0, 1]);

    // The attempt counter resets after a successful open that stayed up.
    await vi.advanceTimersByTimeAsync(STABLE_MS);
    FakeEventSource.instances[2]!.fail();
    expect(delays).toEqual([0, 1, 0]);
    t.close();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(FakeEventSource.instances).toHaveLength(3);
  });

  it('backs off further from a stream that opens and drops at once, and starts over after one that stayed up', async () => {
    const delays: number[] = [];
    const t = new HttpTransport({
      token: 't',
      backoff: (n) => {
        delays.push(n);
        return 1000;
      },
    });
    let reloads = 0;
    t.subscribe('connection', (d) => void (d.state === 'reconnected' && reloads++));
    t.subscribe('agui', () => undefined);
    await settle();
    // A server that accepts each stream and closes it at once.
    for (let i = 0; i < 4; i++) {
      FakeEventSource.instances[i]!.open();
      FakeEventSource.instances[i]!.fail();
      await vi.advanceTimersByTimeAsync(1000);
      await settle();
    }
    expect(delays).toEqual([0, 1, 2, 3]);
    expect(reloads).toBe(3);
    // One that stays up: the next drop is the first step again.
    FakeEventSource.instances[4]!.open();
    await vi.advanceTimersByTimeAsync(STABLE_MS);
    FakeEventSource.instances[4]!.fail();
    expect(delays).toEqual([0, 1, 2, 3, 0]);
    t.close();
  });

  // How long a stream stayed up is measured on a clock that only goes
  // forward: the wall clock set back (by hand, or by a time server) while a
  // stream was up for minutes must not make it count as one that dropped
  // at once, nor a clock set forward make one that did count as stable.
  it.each([
    ['set back while a stream stayed up', 60 * STABLE_MS, -3_600_000, 0],
    ['set forward while a stream dropped at once', 0, 3_600_000, 3],
  ])('measures how long a stream stayed up whatever the wall clock does: %s', async (_name, upFor, clockJump, wantStep) => {
    const delays: number[] = [];
    const t = new HttpTransport({
      token: 't',
      backoff: (n) => {
        delays.push(n);
        return 1000;
      },
    });
    t.subscribe('agui', () => undefined);
    await settle();
    for (let i = 0; i < 3; i++) {
      FakeEventSource.instances[i]!.open();
      FakeEventSource.instances[i]!.fail();
      await vi.advanceTimersByTimeAsync(1000);
      await settle();
    }
    FakeEventSource.instances[3]!.open();
    await vi.advanceTimersByTimeAsync(upFor);
    vi.setSystemTime(Date.now() + clockJump);
    FakeEventSource.instances[3]!.fail();
    expect(delays).toEqual([0, 1, 2, wantStep]);
    t.close();
  });
});

describe('resolveToken', () => {
  afterEach(() => {
    sessionStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it('takes the token from the fragment, stores it and removes it from the address bar', () => {
    window.history.replaceState(null, '', '/app?x=1#token=s3cret');
    expect(resolveToken()).toBe('s3cret');
    expect(sessionStorage.getItem('juncture.token')).toBe('s3cret');
    expect(window.location.hash).toBe('');
    expect(window.location.search).toBe('?x=1');
    // A reload (no fragment) still works.
    expect(resolveToken()).toBe('s3cret');
  });

  it('ignores a fragment token no request could carry, keeping the stored one', () => {
    // "✓" cannot go in an Authorization header (fetch throws TypeError, never
    // a 401): the page would reconnect forever, the token stored for reloads.
    // A planted link must not replace a working token with it.
    for (const bad of ['%E2%9C%93', 'a%0Ab', 'a%00b', '%C3%A9']) {
      sessionStorage.setItem('juncture.token', 'good');
      window.history.replaceState(null, '', `/#token=${bad}&x=1`);
      expect(resolveToken(), bad).toBe('good');
      expect(sessionStorage.getItem('juncture.token'), bad).toBe('good');
      expect(window.location.hash, bad).toBe('#x=1');
    }
  });

  it('remembers a refusal across a reload until a new token comes in the fragment', () => {
    window.history.replaceState(null, '', '/#token=stale');
    expect(resolveToken()).toBe('stale');
    expect(tokenWasRefused()).toBe(false);
    forgetToken(); // the server said 401
    // The reload: no fragment, no stored token, but the page must still say "refused", not "missing".
    expect(resolveToken()).toBe('');
    expect(tokenWasRefused()).toBe(true);
    expect(new HttpTransport({ token: '', refused: true }).tokenState()).toBe('rejected');
    expect(new HttpTransport({ token: '' }).tokenState()).toBe('missing');
    // The printed link again: a fresh token clears the refusal.
    window.history.replaceState(null, '', '/#token=fresh');
    expect(resolveToken()).toBe('fresh');
    expect(tokenWasRefused()).toBe(false);
    expect(new HttpTransport({ token: 'fresh', refused: tokenWasRefused() }).tokenState()).toBe('ok');
  });

  it('a new token clears the refusal even when storing the token fails (storage full)', () => {
    // A Storage whose setItem throws, as a full quota does; removeItem works.
    const m = new Map<string, string>([['juncture.token.refused', '1']]);
    const full = {
      getItem: (k: string) => m.get(k) ?? null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
      removeItem: (k: string) => void m.delete(k),
    } as unknown as Storage;
    window.history.replaceState(null, '', '/#token=fresh');
    expect(resolveToken(window.location, full)).toBe('fresh');
    expect(window.location.hash).toBe('');
    // Not stored, so a reload has no token: it says "missing", not a refusal that no longer holds.
    expect(tokenWasRefused(full)).toBe(false);
  });

  it('keeps other fragment parameters', () => {
    window.history.replaceState(null, '', '/#token=abc&view=1');
    expect(resolveToken()).toBe('abc');
    expect(window.location.hash).toBe('#view=1');
  });
});

/** A fake app.DesktopGate: Call runs methods[name] when the token is Session's. */
function gate(methods: Record<string, (...a: unknown[]) => Promise<unknown>>, Session = async (): Promise<unknown> => 'tok') {
  return {
    Session,
    Call: async (...a: unknown[]) => {
      const [token, name, args] = a as [string, string, unknown[]];
      if (token !== 'tok') throw '{"code":"invalid-argument","message":"no token"}';
      const fn = methods[name];
      if (!fn) throw '{"code":"not-implemented","message":"not here"}';
      return fn(...args);
    },
  };
}

describe('WailsTransport', () => {
  afterEach(() => {
    delete window.go;
    delete window.runtime;
  });

  it('calls the gate with its token, the method and the arguments, and narrows the result', async () => {
    const SendInput = vi.fn(async (..._a: unknown[]) => ({ threadId: 'th', queued: false }));
    const Session = vi.fn(async () => 'tok');
    window.go = { app: { DesktopGate: gate({ SendInput }, Session) } };
    const t = new WailsTransport();
    await expect(t.call('SendInput', 'th', 'hi')).resolves.toEqual({ threadId: 'th', queued: false });
    // Wails needs every argument the Go method declares: the optional files go as null.
    expect(SendInput).toHaveBeenCalledWith('th', 'hi', null);
    await t.call('SendInput', 'th', 'again');
    expect(Session).toHaveBeenCalledTimes(1);
  });

  it('normalises a rejected string carrying the JSON error', async () => {
    window.go = {
      app: {
        DesktopGate: gate({
          SaveSettings: () => Promise.reject('{"code":"invalid-settings","message":"bad","details":{"model":"required"}}'),
          Status: () => Promise.reject('plain failure'),
        }),
      },
    };
    const t = new WailsTransport();
    await expect(t.call('SaveSettings', {} as never)).rejects.toMatchObject({
      code: 'invalid-settings',
      message: 'bad',
      details: { model: 'required' },
    });
    await expect(t.call('Status')).rejects.toMatchObject({ code: 'error', message: 'plain failure' });
    await expect(t.call('GetThread', 'x')).rejects.toMatchObject({ code: 'not-implemented' });
  });

  it('binds runtime events once per name and uses the Wails clipboard/browser', async () => {
    const handlers = new Map<string, (...d: unknown[]) => void>();
    const EventsOn = vi.fn((name: string, cb: (...d: unknown[]) => void) => {
      handlers.set(name, cb);
    });
    const EventsOff = vi.fn();
    const ClipboardSetText = vi.fn(async () => true);
    const BrowserOpenURL = vi.fn();
    window.runtime = { EventsOn, EventsOff, ClipboardSetText, BrowserOpenURL };
    const t = new WailsTransport();
    const got: unknown[] = [];
    t.subscribe('queue', (d) => got.push(d));
    const off = t.subscribe('queue', (d) => got.push(d));
    t.subscribe('threads', () => undefined);
    expect(EventsOn.mock.calls.map((c) => c[0])).toEqual(['batch', 'queue', 'threads']);
    handlers.get('queue')!({ threadId: 'th', queued: [] });
    expect(got).toHaveLength(2);
    off();
    handlers.get('queue')!({ threadId: 'th', queued: [] });
    expect(got).toHaveLength(3);
    await t.copyText('hi');
    expect(ClipboardSetText).toHaveBeenCalledWith('hi');
    expect(t.openExternal('javascript:alert(1)')).toBe(false);
    expect(t.openExternal('https://example.org')).toBe(true);
    expect(BrowserOpenURL).toHaveBeenCalledWith('https://example.org');
    t.close();
    expect(EventsOff).toHaveBeenCalledWith('queue');
    expect(EventsOff).toHaveBeenCalledWith('batch');
  });
});

describe('toJunctureError', () => {
  it('handles every shape a call can fail with', () => {
    expect(toJunctureError({ error: { code: 'x', message: 'y' } })).toMatchObject({ code: 'x', message: 'y' });
    expect(toJunctureError(new Error('{"code":"busy","message":"Thread is busy"}'))).toMatchObject({ code: 'busy' });
    expect(toJunctureError(42)).toMatchObject({ code: 'error' });
  });
});

describe('HttpTransport event replay', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    vi.stubGlobal('fetch', ticketFetch());
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('reconnects with the last event id it saw, and treats "resync" as a reload', async () => {
    const t = new HttpTransport({ token: 't', backoff: () => 10 });
    const states: string[] = [];
    t.subscribe('connection', (d) => states.push(d.state));
    t.subscribe('agui', () => undefined);
    await settle();
    const first = FakeEventSource.instances[0]!;
    first.open();
    expect(first.url).not.toContain('lastEventId');
    first.frame({ name: 'threads', data: {} }, 'boot1.41');
    first.frame({ name: 'threads', data: {} }, 'boot1.42');
    first.fail();
    await vi.advanceTimersByTimeAsync(10);
    await settle();
    const second = FakeEventSource.instances[1]!;
    expect(second.url).toContain('lastEventId=boot1.42');
    second.open();
    second.frame({ name: 'resync', data: {} });
    expect(states).toEqual(['connected', 'disconnected', 'reconnected', 'reconnected']);
    t.close();
  });
});

describe('HttpTransport without a usable token', () => {
  const fetchMock = vi.fn<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>();
  beforeEach(() => {
    fetchMock.mockReset();
    FakeEventSource.instances = [];
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('without a token says so and never opens the event stream (no endless "Reconnecting…")', () => {
    const t = new HttpTransport({ token: '' });
    expect(t.tokenState()).toBe('missing');
    t.subscribe('connection', () => {});
    expect(FakeEventSource.instances).toHaveLength(0);
  });

  it('a refused token (401) turns "rejected": listeners hear it, the stream stops, the stored token is dropped', async () => {
    window.sessionStorage.setItem('juncture.token', 'old');
    fetchMock.mockImplementation(ticketFetch());
    const t = new HttpTransport({ token: 'old' });
    const states: string[] = [];
    t.onTokenRejected(() => states.push(t.tokenState()));
    t.subscribe('connection', () => {});
    await settle();
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(t.tokenState()).toBe('ok');
    fetchMock.mockResolvedValue(jsonResponse(401, { error: { code: 'unauthorized', message: 'A valid bearer token is required' } }));
    await expect(t.call('Status')).rejects.toMatchObject({ code: 'unauthorized' });
    expect(states).toEqual(['rejected']);
    expect(FakeEventSource.instances[0]!.closed).toBe(true);
    expect(window.sessionStorage.getItem('juncture.token')).toBeNull();
  });
});

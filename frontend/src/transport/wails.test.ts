import { afterEach, describe, expect, it, vi } from 'vitest';
import { WailsTransport } from './wails';

// The desktop forwarder (app/events.go) sends what queued up as one "batch"
// event: [{name, data}, …]. The transport hands each frame to the same
// handlers a plain event would reach, in order.

function fakeRuntime() {
  const handlers = new Map<string, (...d: unknown[]) => void>();
  const EventsOn = vi.fn((name: string, cb: (...d: unknown[]) => void) => {
    handlers.set(name, cb);
    return () => handlers.delete(name);
  });
  window.runtime = { EventsOn, EventsOff: vi.fn() };
  return { handlers, EventsOn, fire: (name: string, data: unknown) => handlers.get(name)?.(data) };
}

const content = (delta: string) => ({ threadId: 'th', event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta } });

describe('WailsTransport batches', () => {
  afterEach(() => {
    delete window.runtime;
  });

  it('unpacks a batch into the per-event handlers, in order, across names', () => {
    const rt = fakeRuntime();
    const t = new WailsTransport();
    const got: string[] = [];
    t.subscribe('agui', ({ event }) => got.push(event.type === 'TEXT_MESSAGE_CONTENT' ? `text:${event.delta}` : event.type));
    t.subscribe('threads', (d) => got.push(`threads:${d.threadId ?? ''}`));
    t.subscribe('queue', (d) => got.push(`queue:${d.queued.join(',')}`));
    rt.fire('agui', content('plain'));
    rt.fire('batch', [
      { name: 'agui', data: { threadId: 'th', event: { type: 'RUN_STARTED', threadId: 'th', runId: 'r' } } },
      { name: 'threads', data: { threadId: 'th' } },
      { name: 'agui', data: content('a') },
      { name: 'queue', data: { threadId: 'th', queued: ['next'] } },
      { name: 'agui', data: content('b') },
      { name: 'agui', data: { threadId: 'th', event: { type: 'RUN_FINISHED', threadId: 'th', runId: 'r' } } },
      { name: 'threads', data: { threadId: 'th' } },
    ]);
    expect(got).toEqual(['text:plain', 'RUN_STARTED', 'threads:th', 'text:a', 'queue:next', 'text:b', 'RUN_FINISHED', 'threads:th']);
    expect(rt.EventsOn.mock.calls.filter((c) => c[0] === 'batch')).toHaveLength(1);
  });

  it('skips malformed frames and names nobody listens to, keeping the rest', () => {
    const rt = fakeRuntime();
    const t = new WailsTransport();
    const got: string[] = [];
    t.subscribe('agui', ({ event }) => got.push(event.type === 'TEXT_MESSAGE_CONTENT' ? event.delta : event.type));
    rt.fire('batch', [null, 7, { name: 'nope', data: {} }, { data: content('x') }, { name: 'queue', data: { threadId: 'th' } }, { name: 'agui', data: { threadId: 'th' } }, { name: 'agui', data: content('kept') }]);
    rt.fire('batch', 'not an array');
    expect(got).toEqual(['kept']);
  });

  // An event the app could not encode reaches the window as a "resync"
  // frame in its batch (app/events Forward): the window reloads what it
  // shows, as after the browser's stream said "resync".
  it('turns a "resync" frame into a reconnection, in order with the rest', () => {
    const rt = fakeRuntime();
    const t = new WailsTransport();
    const got: string[] = [];
    t.subscribe('agui', ({ event }) => got.push(event.type));
    t.subscribe('connection', ({ state }) => got.push(`connection:${state}`));
    rt.fire('batch', [{ name: 'resync', data: {} }, { name: 'agui', data: { threadId: 'th', event: { type: 'RUN_FINISHED', threadId: 'th', runId: 'r' } } }]);
    expect(got).toEqual(['connection:reconnected', 'RUN_FINISHED']);
  });

  it('delivers the "mcp" event, plain and inside a batch', () => {
    const rt = fakeRuntime();
    const t = new WailsTransport();
    let n = 0;
    t.subscribe('mcp', (d) => {
      expect(d).toEqual({});
      n += 1;
    });
    expect(rt.EventsOn.mock.calls.some((c) => c[0] === 'mcp')).toBe(true);
    rt.fire('mcp', {});
    rt.fire('batch', [{ name: 'mcp', data: {} }, { name: 'agui', data: content('x') }]);
    expect(n).toBe(2);
  });

  it('stops delivering batches after close', () => {
    const rt = fakeRuntime();
    const t = new WailsTransport();
    const got: unknown[] = [];
    t.subscribe('agui', (d) => got.push(d));
    t.close();
    expect(rt.handlers.has('batch')).toBe(false);
    expect(rt.handlers.has('agui')).toBe(false);
    rt.fire('batch', [{ name: 'agui', data: content('late') }]);
    expect(got).toHaveLength(0);
    // Subscribing again after close binds again.
    const again: unknown[] = [];
    t.subscribe('agui', (d) => again.push(d));
    rt.fire('batch', [{ name: 'agui', data: content('again') }]);
    expect(again).toHaveLength(1);
  });
});

describe('WailsTransport acknowledges the stream', () => {
  afterEach(() => {
    delete window.runtime;
    vi.restoreAllMocks();
  });

  // app/events/flow.go: the forwarder holds the next batch of deltas until
  // the page says it rendered the last one; without the acknowledgement it
  // queued batches in a slow web process and a Stop waited behind them.
  it('once per frame, after the frame that followed the events', async () => {
    const rt = fakeRuntime();
    const EventsEmit = vi.fn();
    window.runtime = { ...window.runtime, EventsEmit };
    const frames: FrameRequestCallback[] = [];
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => frames.push(cb));
    const task = () => new Promise((r) => setTimeout(r, 0));
    const t = new WailsTransport();
    const got: string[] = [];
    t.subscribe('agui', ({ event }) => got.push(event.type));
    rt.fire('batch', [{ name: 'agui', data: content('a') }]);
    rt.fire('agui', content('b'));
    await task();
    expect(got).toEqual(['TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_CONTENT']);
    expect(EventsEmit).not.toHaveBeenCalled(); // not before the frame
    expect(frames).toHaveLength(1); // both share one acknowledgement
    frames.shift()!(0);
    expect(EventsEmit).not.toHaveBeenCalled(); // the frame itself: not painted yet
    // the acknowledgement is a posted task (a MessageChannel message), which
    // Node may deliver after a timer: wait for it rather than for one tick
    await vi.waitFor(() => expect(EventsEmit.mock.calls).toEqual([['events-taken']]));
    rt.fire('agui', content('c'));
    expect(frames).toHaveLength(1);
    frames.shift()!(0);
    expect(EventsEmit).toHaveBeenCalledTimes(1); // not before its frame painted
    await vi.waitFor(() => expect(EventsEmit).toHaveBeenCalledTimes(2));
  });
});

describe('WailsTransport calls', () => {
  afterEach(() => {
    delete window.go;
  });

  // Stop (the Interrupt call) leaves in the Esc key's own task, before the
  // page renders anything: an await before the binding let React's
  // render of the flushed frame run first, which delayed the Interrupt
  // reaching Go by as long as that render took.
  it('posts a call synchronously once the session token is known', async () => {
    const Call = vi.fn((..._a: unknown[]) => Promise.resolve(null));
    const Session = vi.fn(() => Promise.resolve('tok'));
    window.go = { app: { DesktopGate: { Call, Session } } } as unknown as Window['go'];
    const t = new WailsTransport();
    await t.call('Interrupt', 'th'); // the first call asks for the token
    expect(Call).toHaveBeenCalledTimes(1);
    const p = t.call('Interrupt', 'th2');
    expect(Call).toHaveBeenCalledTimes(2); // no microtask ran in between
    expect(Call.mock.calls[1]).toEqual(['tok', 'Interrupt', ['th2']]);
    await p;
    expect(Session).toHaveBeenCalledTimes(1);
  });

  it('asks for the token again after a call failed without one', async () => {
    const Call = vi.fn((..._a: unknown[]): Promise<unknown> => Promise.reject(new Error('no session')));
    let token = '';
    const Session = vi.fn(() => Promise.resolve(token));
    window.go = { app: { DesktopGate: { Call, Session } } } as unknown as Window['go'];
    const t = new WailsTransport();
    await expect(t.call('Interrupt', 'th')).rejects.toThrow();
    token = 'tok';
    Call.mockImplementation(() => Promise.resolve(null));
    await t.call('Interrupt', 'th');
    expect(Session).toHaveBeenCalledTimes(2);
    expect(Call.mock.calls[1]?.[0]).toBe('tok');
  });
});

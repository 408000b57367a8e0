import type { Transport } from './types';
import type { MethodArgs, MethodName, Result } from './methods';
import { parseResult } from './methods';
import { methodArity } from './contract.gen';
import { EventHub, isServerEventName, parseEventData, type EventName, type Handler, type ServerEventName } from './events';
import { JunctureError, toJunctureError } from './errors';
import { isSafeExternalUrl } from './platform';
import { isObject } from './json';
import { afterPaint } from '../lib/afterPaint';

/** The desktop forwarder's batch of events (app/events.go `forward`). */
const BATCH_EVENT = 'batch';
/** A frame of a batch standing for an event that could not be encoded (app/events ResyncEvent). */
const RESYNC_FRAME = 'resync';

/** The page's acknowledgement of the stream (main.go; app/events/flow.go):
 *  sent after the frame that followed an event's arrival, so the forwarder
 *  sends the next batch of deltas only once the page rendered the last,
 *  instead of queueing batches in a web process slower than the stream
 *  (where a Stop's cancelled run then waited behind them). */
export const EVENTS_TAKEN_EVENT = 'events-taken';

/** Desktop window: Wails bindings (`window.go.app.DesktopGate`, every call
 *  with the gate's token: WebKit lets a view's frame post to the bindings
 *  too, but only this frame reads Session's answer) and runtime events. */
export class WailsTransport implements Transport {
  readonly kind = 'desktop' as const;
  private hub = new EventHub();
  private bound = new Map<ServerEventName, (() => void) | null>();
  private batchBound = false;
  private batchOff: (() => void) | null = null;
  private token: Promise<string> | null = null;
  private knownToken: string | null = null; // the token once it came (never '')
  private ackPending = false; // an acknowledgement waits for the next frame

  async call<M extends MethodName>(method: M, ...args: MethodArgs[M]): Promise<Result<M>> {
    const gate = window.go?.app?.DesktopGate;
    const session = gate?.Session;
    const fn = gate?.Call;
    if (typeof fn !== 'function' || typeof session !== 'function') {
      throw new JunctureError('not-implemented', `${method} is not available in this build of Juncture.`);
    }
    // Wails calls a Go method only with as many arguments as it declares: a
    // trailing argument left out (SendInput's files) goes as null, nil in Go,
    // as the browser transport's call table reads it.
    const want = (methodArity as Record<string, number>)[method] ?? 0;
    const all: unknown[] = args.length < want ? [...args, ...Array<null>(want - args.length).fill(null)] : args;
    let raw: unknown;
    try {
      // Once the token is known the call is posted in the caller's own task,
      // with no await before it: Stop's Interrupt leaves on the Esc key, not
      // after the render the key also starts (that render, on a busy page,
      // held it back by as long as it took).
      const token = this.knownToken ?? (await this.askToken(session));
      raw = await fn(token, method, all);
    } catch (e) {
      if (this.token && (await this.token.catch(() => '')) === '') this.token = null; // ask again next time
      throw toJunctureError(e);
    }
    return parseResult(method, raw ?? null);
  }

  /** The gate's session token, asked once (again after a call failed without one). */
  private async askToken(session: () => Promise<unknown>): Promise<string> {
    this.token ??= session().then((t) => (typeof t === 'string' ? t : ''));
    const token = await this.token;
    if (token) this.knownToken = token;
    return token;
  }

  subscribe<N extends EventName>(name: N, handler: Handler<N>): () => void {
    const off = this.hub.on(name, handler);
    if (isServerEventName(name)) this.bind(name);
    return off;
  }

  private bind(name: ServerEventName): void {
    if (this.bound.has(name)) return;
    const rt = window.runtime;
    if (!rt?.EventsOn) {
      this.bound.set(name, null);
      return;
    }
    this.bindBatch(rt);
    const ret = rt.EventsOn(name, (...data: unknown[]) => {
      this.acknowledge();
      this.deliver(name, data[0]);
    });
    this.bound.set(name, typeof ret === 'function' ? (ret as () => void) : null);
  }

  /** The desktop forwarder sends what queued up as ONE "batch" event,
   *  `[{name, data}, …]` in order (a batch of one stays a plain event):
   *  its frames reach the same handlers, in order, as plain events would. */
  private bindBatch(rt: NonNullable<Window['runtime']>): void {
    if (this.batchBound || !rt.EventsOn) return;
    this.batchBound = true;
    const ret = rt.EventsOn(BATCH_EVENT, (...data: unknown[]) => {
      this.acknowledge();
      const frames = data[0];
      if (!Array.isArray(frames)) return;
      for (const f of frames as unknown[]) {
        if (isObject(f) && f.name === RESYNC_FRAME) {
          // An event the app could not encode was left out: reload what is
          // shown, as after the browser's stream said "resync".
          this.hub.emit('connection', { state: 'reconnected' });
          continue;
        }
        if (!isObject(f) || typeof f.name !== 'string' || !isServerEventName(f.name)) continue;
        this.deliver(f.name, f.data);
      }
    });
    this.batchOff = typeof ret === 'function' ? (ret as () => void) : null;
  }

  /** Acknowledges what arrived, once, after the next frame: events arriving
   *  before it share one acknowledgement. A hidden window has no frames and
   *  so sends none until shown (the forwarder then paces itself). */
  private acknowledge(): void {
    const emit = window.runtime?.EventsEmit;
    if (this.ackPending || typeof emit !== 'function' || typeof window.requestAnimationFrame !== 'function') return;
    this.ackPending = true;
    afterPaint(() => {
      this.ackPending = false;
      emit(EVENTS_TAKEN_EVENT);
    });
  }

  private deliver(name: ServerEventName, data: unknown): void {
    if (this.hub.count(name) === 0) return;
    const parsed = parseEventData(name, data);
    if (parsed) this.hub.emit(name, parsed);
  }

  async copyText(text: string): Promise<void> {
    const rt = window.runtime;
    if (!rt?.ClipboardSetText) throw new JunctureError('clipboard', 'The clipboard is not available.');
    const ok = await rt.ClipboardSetText(text);
    if (ok === false) throw new JunctureError('clipboard', 'Could not write to the clipboard.');
  }

  openExternal(url: string): boolean {
    if (!isSafeExternalUrl(url) || !window.runtime?.BrowserOpenURL) return false;
    window.runtime.BrowserOpenURL(url);
    return true;
  }

  close(): void {
    for (const [name, off] of this.bound) {
      if (off) off();
      else window.runtime?.EventsOff?.(name);
    }
    this.bound.clear();
    if (this.batchBound) {
      if (this.batchOff) this.batchOff();
      else window.runtime?.EventsOff?.(BATCH_EVENT);
    }
    this.batchBound = false;
    this.batchOff = null;
  }
}

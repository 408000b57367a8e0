import type { Transport } from './types';
import type { MethodArgs, MethodName, Result } from './methods';
import { parseResult } from './methods';
import { EventHub, isServerEventName, parseEventData, type EventName, type Handler, type ServerEventName } from './events';
import { JunctureError, toJunctureError } from './errors';
import { isSafeExternalUrl } from './platform';

/** Desktop window: Wails bindings (`window.go.app.App`) and runtime events. */
export class WailsTransport implements Transport {
  readonly kind = 'desktop' as const;
  private hub = new EventHub();
  private bound = new Map<ServerEventName, (() => void) | null>();

  async call<M extends MethodName>(method: M, ...args: MethodArgs[M]): Promise<Result<M>> {
    const fn = window.go?.app?.App?.[method];
    if (typeof fn !== 'function') {
      throw new JunctureError('not-implemented', `${method} is not available in this build of Juncture.`);
    }
    let raw: unknown;
    try {
      raw = await fn(...args);
    } catch (e) {
      throw toJunctureError(e);
    }
    return parseResult(method, raw ?? null);
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
    const ret = rt.EventsOn(name, (...data: unknown[]) => {
      const parsed = parseEventData(name, data[0]);
      if (parsed) this.hub.emit(name, parsed);
    });
    this.bound.set(name, typeof ret === 'function' ? (ret as () => void) : null);
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
  }
}

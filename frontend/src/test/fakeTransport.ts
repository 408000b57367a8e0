import type { Transport } from '../transport/types';
import type { MethodArgs, MethodName, Result } from '../transport/methods';
import { EventHub, type EventMap, type EventName, type Handler } from '../transport/events';
import { JunctureError } from '../transport/errors';

type Responder = { [M in MethodName]?: (...args: MethodArgs[M]) => Result<M> | Promise<Result<M>> };

/** An in-memory Transport for component tests: records calls, answers from `responders`. */
export class FakeTransport implements Transport {
  readonly kind: 'desktop' | 'browser';
  readonly calls: { method: MethodName; args: unknown[] }[] = [];
  readonly copied: string[] = [];
  readonly opened: string[] = [];
  private hub = new EventHub();

  constructor(
    public responders: Responder = {},
    kind: 'desktop' | 'browser' = 'desktop',
  ) {
    this.kind = kind;
  }

  async call<M extends MethodName>(method: M, ...args: MethodArgs[M]): Promise<Result<M>> {
    this.calls.push({ method, args });
    const r = this.responders[method] as ((...a: MethodArgs[M]) => Result<M> | Promise<Result<M>>) | undefined;
    if (!r) throw new JunctureError('not-implemented', `${method} not scripted`);
    return r(...args);
  }

  callsOf(method: MethodName): unknown[][] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }

  subscribe<N extends EventName>(name: N, handler: Handler<N>): () => void {
    return this.hub.on(name, handler);
  }

  emit<N extends EventName>(name: N, data: EventMap[N]): void {
    this.hub.emit(name, data);
  }

  async copyText(text: string): Promise<void> {
    this.copied.push(text);
  }

  openExternal(url: string): boolean {
    this.opened.push(url);
    return true;
  }

  close(): void {}
}

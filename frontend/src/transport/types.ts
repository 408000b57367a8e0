import type { MethodArgs, MethodName, Result } from './methods';
import type { EventName, Handler } from './events';

/**
 * The one interface components use to talk to Go. Two implementations —
 * Wails bindings (desktop window) and HTTP + SSE (browser) — are chosen at
 * runtime; nothing above this layer knows which.
 */
export interface Transport {
  readonly kind: 'desktop' | 'browser';
  call<M extends MethodName>(method: M, ...args: MethodArgs[M]): Promise<Result<M>>;
  subscribe<N extends EventName>(name: N, handler: Handler<N>): () => void;
  /**
   * Resolves once the event stream delivers every event published from
   * then on (browser mode: the EventSource is open). A snapshot taken
   * after it meets the live events exactly. Absent: always ready (Wails
   * delivers every event once subscribed).
   */
  ready?(): Promise<void>;
  /** Desktop: Wails' clipboard/browser helpers; browser: the web APIs. */
  copyText(text: string): Promise<void>;
  openExternal(url: string): boolean;
  close(): void;
}

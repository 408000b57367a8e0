import { createContext, useContext } from 'react';
import type { Transport } from './types';
import { WailsTransport } from './wails';
import { HttpTransport, resolveToken, tokenWasRefused } from './http';

export type { Transport } from './types';
export type { MethodArgs, MethodName, Result } from './methods';
export type { EventMap, EventName } from './events';
export { JunctureError, toJunctureError } from './errors';

/** Picks the transport at runtime: Wails bindings when present, else HTTP. */
export function createTransport(): Transport {
  // The Wails runtime without bindings is still the desktop window: calls
  // then fail with "not-implemented" instead of going to a missing server.
  if (typeof window !== 'undefined' && (window.go?.app?.DesktopGate || window.runtime?.EventsOn)) return new WailsTransport();
  const token = resolveToken(); // first: a token in the fragment clears an earlier refusal
  return new HttpTransport({ token, refused: tokenWasRefused() });
}

export const TransportContext = createContext<Transport | null>(null);

export function useTransport(): Transport {
  const t = useContext(TransportContext);
  if (!t) throw new Error('useTransport outside <TransportContext.Provider>');
  return t;
}

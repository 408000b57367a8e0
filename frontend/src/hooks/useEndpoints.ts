import { useCallback, useEffect, useState } from 'react';
import type { Transport } from '../transport';
import { toJunctureError } from '../transport';
import type { Endpoint, Preset } from '../transport/endpoints';

/**
 * The endpoints (ListEndpoints) and presets (ListPresets), shared by the
 * thread header, the model picker and Settings: a change saved anywhere
 * (`endpointsChanged()`, also after Settings → General saves) reloads
 * every user, and so does a reconnect.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

/** Tells every useEndpoints / usePresets to read again (after a save). */
export function endpointsChanged(): void {
  for (const l of [...listeners]) l();
}

function useShared<T>(transport: Transport | null, load: (t: Transport) => Promise<T[]>) {
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = useCallback(() => {
    if (!transport) return;
    load(transport)
      .then((v) => {
        setItems(v);
        setError(null);
      })
      .catch((e: unknown) => setError(toJunctureError(e).message));
  }, [transport]);
  useEffect(() => {
    if (!transport) return;
    refresh();
    listeners.add(refresh);
    const offs = [
      transport.subscribe('connection', (c) => {
        if (c.state === 'reconnected') refresh();
      }),
    ];
    return () => {
      listeners.delete(refresh);
      for (const off of offs) off();
    };
  }, [transport, refresh]);
  return { items, error, refresh };
}

const loadEndpoints = (t: Transport) => t.call('ListEndpoints');
const loadPresets = (t: Transport) => t.call('ListPresets');

export interface EndpointsState {
  /** null until the first answer. */
  endpoints: Endpoint[] | null;
  error: string | null;
  refresh: () => void;
}

export function useEndpoints(transport: Transport | null): EndpointsState {
  const { items, error, refresh } = useShared<Endpoint>(transport, loadEndpoints);
  return { endpoints: items, error, refresh };
}

export interface PresetsState {
  presets: Preset[] | null;
  error: string | null;
  refresh: () => void;
}

export function usePresets(transport: Transport | null): PresetsState {
  const { items, error, refresh } = useShared<Preset>(transport, loadPresets);
  return { presets: items, error, refresh };
}

/** The models each endpoint lists (ListModels), asked once per endpoint while the picker is open. */
export type ModelLists = Record<string, { models: string[]; error?: string; loading: boolean }>;

export function useModelLists(transport: Transport | null, endpointIds: readonly string[], active: boolean): ModelLists {
  const [lists, setLists] = useState<ModelLists>({});
  const key = endpointIds.join('\u0000');
  useEffect(() => {
    if (!transport || !active) return;
    let gone = false;
    const ids = key ? key.split('\u0000') : [];
    setLists(Object.fromEntries(ids.map((id) => [id, { models: [], loading: true }])));
    for (const id of ids) {
      transport
        .call('ListModels', id)
        .then((models) => {
          if (!gone) setLists((l) => ({ ...l, [id]: { models, loading: false } }));
        })
        .catch((e: unknown) => {
          if (!gone) setLists((l) => ({ ...l, [id]: { models: [], loading: false, error: toJunctureError(e).message } }));
        });
    }
    return () => {
      gone = true;
    };
  }, [transport, key, active]);
  return lists;
}

// Endpoints, presets and per-thread options (README "Endpoints, models and
// presets"): the generated wire types, narrowed, and their parsers.

import * as P from './parse.gen';
import { isStringArray, list } from './json';

export { parseEndpoint, parsePreset, parseThreadOptions } from './parse.gen';
export type { EndpointSource } from './contract.gen';

// An endpoint's `apiKey` arrives masked ("••••1234"): sending it back keeps
// the stored key. A preset's `tools: null` offers every tool; a list only
// those. Prices are per model, per million tokens.
import type { Endpoint, Preset, ThreadOptions } from './contract.gen';
export type { ModelPrice, Endpoint, Preset, ThreadOptions, ThreadOptionsInput } from './contract.gen';

/** The preset NewThread("") starts from. */
export const DEFAULT_PRESET_ID = 'default';

/** The endpoints that have an id. */
export function parseEndpoints(u: unknown): Endpoint[] {
  return list(u, (e) => P.readEndpoint(e) ?? undefined) ?? [];
}

/** The presets that have an id. */
export function parsePresets(u: unknown): Preset[] {
  return list(u, (e) => P.readPreset(e) ?? undefined) ?? [];
}

export function parseStringList(u: unknown): string[] {
  return isStringArray(u) ? u : [];
}

/** How a thread's endpoint and model read: what the header shows. */
export interface EffectiveModel {
  /** The endpoint the thread runs on (undefined: none configured / not listed yet). */
  endpoint: Endpoint | undefined;
  model: string;
  /** The thread names an endpoint that no longer exists: it runs with the default. */
  fellBack: boolean;
}

/** Which endpoint and model a thread with these options runs with (app/endpoints.go modelConfig). */
export function effectiveModel(options: Pick<ThreadOptions, 'endpointId' | 'model'> | undefined, endpoints: readonly Endpoint[]): EffectiveModel {
  const def = endpoints.find((e) => e.isDefault);
  const id = options?.endpointId ?? '';
  if (id) {
    const e = endpoints.find((x) => x.id === id);
    if (e) return { endpoint: e, model: options?.model || e.defaultModel, fellBack: false };
    if (endpoints.length) return { endpoint: def, model: def?.defaultModel ?? '', fellBack: true };
    // Not listed yet: say what the thread asked for.
    return { endpoint: undefined, model: options?.model ?? '', fellBack: false };
  }
  return { endpoint: def, model: options?.model || def?.defaultModel || '', fellBack: false };
}

/** Every model of an endpoint the picker can offer: the saved list, then what /models said. */
export function modelsOf(e: Endpoint, listed: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const m of [e.defaultModel, ...e.models, ...listed]) if (m && !out.includes(m)) out.push(m);
  return out;
}

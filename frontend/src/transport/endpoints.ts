// Endpoints, presets and per-thread options (README "Endpoints, models and
// presets"): the generated wire types, narrowed, and their parsers.

import type * as G from './contract.gen';
import { JunctureError } from './errors';
import { bool, isNumber, isObject, isString, isStringArray, optStr, str } from './json';

export type EndpointSource = 'saved' | 'environment' | 'detected';

/** Per model, per million tokens. */
export type ModelPrice = G.ModelPrice;

/** An endpoint; `apiKey` arrives masked ("••••1234"); sending it back keeps the stored key. */
export type Endpoint = Omit<G.Endpoint, 'source'> & { source: EndpointSource };

/** `tools: null` offers every tool; a list offers only those. */
export type Preset = G.Preset;

export type ThreadOptions = G.ThreadOptions;
export type ThreadOptionsInput = G.ThreadOptionsInput;

/** The preset NewThread("") starts from. */
export const DEFAULT_PRESET_ID = 'default';

function bad(what: string): JunctureError {
  return new JunctureError('bad-response', `Unexpected ${what} from Juncture`);
}

function asSource(v: unknown): EndpointSource {
  return v === 'environment' || v === 'detected' ? v : 'saved';
}

function parsePrices(u: unknown): Record<string, ModelPrice> {
  const out: Record<string, ModelPrice> = {};
  if (!isObject(u)) return out;
  for (const [model, p] of Object.entries(u)) {
    if (!isObject(p)) continue;
    out[model] = {
      inputPerMTok: isNumber(p.inputPerMTok) ? p.inputPerMTok : 0,
      outputPerMTok: isNumber(p.outputPerMTok) ? p.outputPerMTok : 0,
    };
  }
  return out;
}

export function parseEndpoint(u: unknown): Endpoint {
  if (!isObject(u) || !isString(u.id)) throw bad('endpoint');
  return {
    id: u.id,
    name: str(u, 'name', u.id),
    baseUrl: str(u, 'baseUrl'),
    apiKey: str(u, 'apiKey'),
    models: isStringArray(u.models) ? u.models : [],
    prices: parsePrices(u.prices),
    source: asSource(u.source),
    isDefault: bool(u, 'isDefault'),
    defaultModel: str(u, 'defaultModel'),
    ...(str(u, 'keyState') === 'unavailable' ? { keyState: 'unavailable' } : {}),
  };
}

export function parseEndpoints(u: unknown): Endpoint[] {
  return (Array.isArray(u) ? u : []).filter((e) => isObject(e) && isString(e.id)).map(parseEndpoint);
}

export function parsePreset(u: unknown): Preset {
  if (!isObject(u) || !isString(u.id)) throw bad('preset');
  return {
    id: u.id,
    name: str(u, 'name', u.id),
    instructions: str(u, 'instructions'),
    endpointId: str(u, 'endpointId'),
    model: str(u, 'model'),
    tools: isStringArray(u.tools) ? u.tools : null,
    builtin: bool(u, 'builtin'),
  };
}

export function parsePresets(u: unknown): Preset[] {
  return (Array.isArray(u) ? u : []).filter((p) => isObject(p) && isString(p.id)).map(parsePreset);
}

/** A thread's options; absent (an older server): the defaults. */
export function parseThreadOptions(u: unknown): ThreadOptions {
  const o: ThreadOptions = { systemPrompt: '' };
  if (!isObject(u)) return o;
  o.systemPrompt = str(u, 'systemPrompt');
  for (const k of ['endpointId', 'model', 'presetId'] as const) {
    const v = optStr(u, k);
    if (v) o[k] = v;
  }
  if (isStringArray(u.tools)) o.tools = u.tools;
  return o;
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

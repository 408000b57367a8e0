// Small type guards for JSON that crosses the boundary (HTTP bodies, Wails
// results, event payloads). Everything arriving from outside is `unknown`
// and is narrowed here; nothing downstream sees `any`.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isString(v: unknown): v is string {
  return typeof v === 'string';
}

export function isNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

export function isBoolean(v: unknown): v is boolean {
  return typeof v === 'boolean';
}

export function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every(isString);
}

/** Reads `o[k]` as a string; `fallback` when absent or of another type. */
export function str(o: Record<string, unknown>, k: string, fallback = ''): string {
  const v = o[k];
  return typeof v === 'string' ? v : fallback;
}

export function optStr(o: Record<string, unknown>, k: string): string | undefined {
  const v = o[k];
  return typeof v === 'string' ? v : undefined;
}

export function num(o: Record<string, unknown>, k: string, fallback = 0): number {
  const v = o[k];
  return isNumber(v) ? v : fallback;
}

export function bool(o: Record<string, unknown>, k: string, fallback = false): boolean {
  const v = o[k];
  return typeof v === 'boolean' ? v : fallback;
}

export function arr(o: Record<string, unknown>, k: string): unknown[] {
  const v = o[k];
  return Array.isArray(v) ? v : [];
}

export function obj(o: Record<string, unknown>, k: string): Record<string, unknown> | undefined {
  const v = o[k];
  return isObject(v) ? v : undefined;
}

/** The elements of a list that read (rd gives undefined for one that does not); undefined when x is not a list. */
export function list<T>(x: unknown, rd: (e: unknown) => T | undefined): T[] | undefined {
  if (!Array.isArray(x)) return undefined;
  const out: T[] = [];
  for (const e of x) {
    const v = rd(e);
    if (v !== undefined) out.push(v);
  }
  return out;
}

/** The entries of an object whose value reads; undefined when x is not an object. */
export function record<T>(x: unknown, rd: (e: unknown) => T | undefined): Record<string, T> | undefined {
  if (!isObject(x)) return undefined;
  const out: Record<string, T> = {};
  for (const [k, e] of Object.entries(x)) {
    const v = rd(e);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** Reads `o[k]` as a JSON object (deep-checked); undefined otherwise. */
export function jsonObj(o: Record<string, unknown>, k: string): JsonObject | undefined {
  const v = o[k];
  return isObject(v) && isJsonValue(v) ? (v as JsonObject) : undefined;
}

/** Deep check that a value is plain JSON (used before sending user-built payloads). */
export function isJsonValue(v: unknown): v is JsonValue {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isJsonValue);
  if (isObject(v)) return Object.values(v).every(isJsonValue);
  return false;
}

/** JSON.parse that never throws. */
export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

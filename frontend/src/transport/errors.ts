import { isObject, isString, tryParseJson } from './json';

/** The one error shape the UI sees, whichever transport failed. */
export class JunctureError extends Error {
  readonly code: string;
  readonly details?: Record<string, string>;

  constructor(code: string, message: string, details?: Record<string, string>) {
    super(message);
    this.name = 'JunctureError';
    this.code = code;
    if (details) this.details = details;
  }
}

function detailsOf(v: unknown): Record<string, string> | undefined {
  if (!isObject(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, d] of Object.entries(v)) {
    if (isString(d)) out[k] = d;
    else if (d !== null && d !== undefined) out[k] = JSON.stringify(d);
  }
  return Object.keys(out).length ? out : undefined;
}

/** Reads `{code,message,details?}` or `{error:{code,message,details?}}`. */
export function errorFromObject(v: Record<string, unknown>): JunctureError | null {
  const inner = isObject(v.error) ? v.error : v;
  if (!isString(inner.message) && !isString(inner.code)) return null;
  const code = isString(inner.code) && inner.code ? inner.code : 'error';
  const message = isString(inner.message) && inner.message ? inner.message : code;
  return new JunctureError(code, message, detailsOf(inner.details));
}

/**
 * Normalises anything thrown by a call: Wails rejects with a string (the same
 * JSON text as the HTTP body's `error`, or plain text), HTTP bodies carry
 * `{error:{…}}`, fetch throws TypeErrors on network failures.
 */
export function toJunctureError(e: unknown): JunctureError {
  if (e instanceof JunctureError) return e;
  if (isString(e)) {
    const parsed = tryParseJson(e);
    if (parsed.ok && isObject(parsed.value)) {
      const je = errorFromObject(parsed.value);
      if (je) return je;
    }
    return new JunctureError('error', e || 'Unknown error');
  }
  if (isObject(e) && !(e instanceof Error)) {
    const je = errorFromObject(e);
    if (je) return je;
  }
  if (e instanceof Error) {
    // A Wails rejection may also be an Error whose message is the JSON text.
    const parsed = tryParseJson(e.message);
    if (parsed.ok && isObject(parsed.value)) {
      const je = errorFromObject(parsed.value);
      if (je) return je;
    }
    if (e.name === 'TypeError') return new JunctureError('network', `Cannot reach Juncture: ${e.message}`);
    return new JunctureError('error', e.message);
  }
  return new JunctureError('error', 'Unknown error');
}

// A small JSON Schema subset for the question forms: object (nested),
// string (length, pattern, enum, long text), number/integer (bounds),
// boolean, array of enum (multi-select). The validator runs as the person
// types; the Go side remains the authority.

import { isNumber, isObject, isString, type JsonValue } from '../transport/json';

export type Schema = Record<string, unknown>;

export type FieldKind =
  | 'object'
  | 'string'
  | 'text'
  | 'enum'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'multi-enum'
  | 'json';

/** Primary type of a schema (`["string","null"]` → "string"). */
export function schemaType(s: Schema): string | undefined {
  const t = s.type;
  if (isString(t)) return t;
  if (Array.isArray(t)) return t.find((x): x is string => isString(x) && x !== 'null');
  if (isObject(s.properties)) return 'object';
  if (Array.isArray(s.enum) || titledBranches(s)) return 'enum';
  return undefined;
}

/** One choice of a choice field: its value and the words shown for it. */
export interface EnumOption {
  value: JsonValue;
  title: string;
}

/**
 * The `oneOf`/`anyOf` branches of a titled choice (the MCP elicitation
 * form: `{"const": "fr", "title": "French"}` per choice), or undefined
 * when the schema is not one (any branch without a `const`).
 */
function titledBranches(s: Schema): Schema[] | undefined {
  const list = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (!list || list.length === 0) return undefined;
  if (!list.every((b) => isObject(b) && 'const' in b)) return undefined;
  return list as Schema[];
}

function shown(v: JsonValue): string {
  return isString(v) ? v : JSON.stringify(v);
}

/**
 * A choice field's options with their titles: `enum` (titled by
 * `enumNames`/`x-enumNames` where given), a titled `oneOf`/`anyOf` of
 * consts, or a single `const`.
 */
export function enumOptions(s: Schema): EnumOption[] | undefined {
  if (Array.isArray(s.enum)) {
    const names = s['x-enumNames'] ?? s.enumNames;
    return (s.enum as JsonValue[]).map((value, i) => ({
      value,
      title: Array.isArray(names) && isString(names[i]) && names[i] ? names[i] : shown(value),
    }));
  }
  const branches = titledBranches(s);
  if (branches) {
    return branches.map((b) => {
      const value = b.const as JsonValue;
      return { value, title: isString(b.title) && b.title ? b.title : shown(value) };
    });
  }
  if ('const' in s) return [{ value: s.const as JsonValue, title: shown(s.const as JsonValue) }];
  return undefined;
}

export function enumValues(s: Schema): JsonValue[] | undefined {
  return enumOptions(s)?.map((o) => o.value);
}

export function fieldKind(s: Schema): FieldKind {
  const t = schemaType(s);
  const en = enumValues(s);
  if (en && (t === undefined || t === 'enum' || t === 'string' || t === 'number' || t === 'integer')) return 'enum';
  switch (t) {
    case 'object':
      return isObject(s.properties) ? 'object' : 'json';
    case 'string':
      return isLongText(s) ? 'text' : 'string';
    case 'number':
      return 'number';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    case 'array': {
      const items = isObject(s.items) ? s.items : undefined;
      return items && enumValues(items) ? 'multi-enum' : 'json';
    }
    default:
      return 'json';
  }
}

function isLongText(s: Schema): boolean {
  if (isNumber(s.maxLength) && s.maxLength > 200) return true;
  if (s.format === 'textarea' || s.format === 'multiline' || s['x-multiline'] === true) return true;
  return isString(s.contentMediaType) && s.contentMediaType.startsWith('text/');
}

/**
 * An object schema's properties in display order. Go sends schemas as
 * canonical JSON (keys sorted), so key order says nothing; arrays keep
 * theirs: properties listed in `required` come first in that order, then
 * the rest alphabetically.
 */
export function properties(s: Schema): [string, Schema][] {
  if (!isObject(s.properties)) return [];
  const entries = Object.entries(s.properties).filter((e): e is [string, Schema] => isObject(e[1]));
  const order = new Map<string, number>();
  if (Array.isArray(s.required)) for (const k of s.required) if (isString(k) && !order.has(k)) order.set(k, order.size);
  return entries.sort(([a], [b]) => {
    const ia = order.get(a);
    const ib = order.get(b);
    if (ia !== undefined && ib !== undefined) return ia - ib;
    if (ia !== undefined) return -1;
    if (ib !== undefined) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

export function requiredKeys(s: Schema): Set<string> {
  return new Set(Array.isArray(s.required) ? s.required.filter(isString) : []);
}

export function label(key: string, s: Schema): string {
  if (isString(s.title) && s.title) return s.title;
  if (!key) return 'Answer';
  const words = key.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The initial form value: defaults where given, nothing chosen otherwise. */
export function initialValue(s: Schema): unknown {
  if ('default' in s) return structuredClone(s.default);
  switch (fieldKind(s)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, ps] of properties(s)) {
        const v = initialValue(ps);
        if (v !== undefined) out[k] = v;
      }
      return out;
    }
    case 'boolean':
      return false;
    case 'multi-enum':
      return [];
    default:
      return undefined;
  }
}

export type Errors = Record<string, string>;

export function joinPath(base: string, key: string | number): string {
  return base ? `${base}.${key}` : String(key);
}

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Validates `value` against the supported subset. Keys are dotted paths ('' = root). */
export function validate(s: Schema, value: unknown, path = '', out: Errors = {}): Errors {
  const kind = fieldKind(s);
  if (isEmpty(value) && kind !== 'object') return out; // "required" is decided by the parent
  switch (kind) {
    case 'object': {
      const obj = isObject(value) ? value : {};
      const req = requiredKeys(s);
      for (const [k, ps] of properties(s)) {
        const v = obj[k];
        const p = joinPath(path, k);
        const pk = fieldKind(ps);
        const missing = isEmpty(v) || (pk === 'multi-enum' && Array.isArray(v) && v.length === 0 && !isNumber(ps.minItems));
        if (req.has(k) && missing && pk !== 'boolean') {
          out[p] = pk === 'enum' || pk === 'multi-enum' ? 'Choose an option' : 'Required';
          continue;
        }
        validate(ps, v, p, out);
      }
      return out;
    }
    case 'enum': {
      const en = enumValues(s) ?? [];
      if (!en.some((e) => sameJson(e, value))) out[path] = 'Choose one of the options';
      return out;
    }
    case 'string':
    case 'text': {
      if (!isString(value)) {
        out[path] = 'Enter text';
        return out;
      }
      const len = [...value].length;
      if (isNumber(s.minLength) && len < s.minLength) {
        out[path] = `Enter at least ${s.minLength} character${s.minLength === 1 ? '' : 's'}`;
      } else if (isNumber(s.maxLength) && len > s.maxLength) {
        out[path] = `Enter at most ${s.maxLength} characters (${len} now)`;
      } else if (isString(s.pattern)) {
        let re: RegExp | null = null;
        try {
          re = new RegExp(s.pattern, 'u');
        } catch {
          re = null;
        }
        if (re && !re.test(value)) out[path] = 'This does not have the expected format';
      }
      if (!out[path] && s.format === 'email' && !/^[^\s@]+@[^\s@]+$/.test(value)) out[path] = 'Enter an email address';
      if (!out[path] && s.format === 'date' && !isDate(value)) out[path] = 'Enter a date (YYYY-MM-DD)';
      if (!out[path] && s.format === 'date-time' && !isDateTime(value)) {
        out[path] = 'Enter a date and time (YYYY-MM-DDThh:mm)';
      }
      if (!out[path] && s.format === 'uri') {
        try {
          new URL(value);
        } catch {
          out[path] = 'Enter a full address (https://…)';
        }
      }
      return out;
    }
    case 'number':
    case 'integer': {
      if (!isNumber(value)) {
        out[path] = 'Enter a number';
        return out;
      }
      if (kind === 'integer' && !Number.isInteger(value)) out[path] = 'Enter a whole number';
      else if (isNumber(s.minimum) && value < s.minimum) out[path] = `Must be at least ${s.minimum}`;
      else if (isNumber(s.maximum) && value > s.maximum) out[path] = `Must be at most ${s.maximum}`;
      else if (isNumber(s.exclusiveMinimum) && value <= s.exclusiveMinimum) out[path] = `Must be more than ${s.exclusiveMinimum}`;
      else if (isNumber(s.exclusiveMaximum) && value >= s.exclusiveMaximum) out[path] = `Must be less than ${s.exclusiveMaximum}`;
      else if (isNumber(s.multipleOf) && s.multipleOf > 0 && !Number.isInteger(value / s.multipleOf)) {
        out[path] = `Must be a multiple of ${s.multipleOf}`;
      }
      return out;
    }
    case 'boolean':
      if (typeof value !== 'boolean') out[path] = 'Choose yes or no';
      return out;
    case 'multi-enum': {
      const items = isObject(s.items) ? s.items : {};
      const en = enumValues(items) ?? [];
      if (!Array.isArray(value)) {
        out[path] = 'Choose options';
        return out;
      }
      if (value.some((v) => !en.some((e) => sameJson(e, v)))) out[path] = 'Choose from the listed options';
      else if (isNumber(s.minItems) && value.length < s.minItems) out[path] = `Choose at least ${s.minItems}`;
      else if (isNumber(s.maxItems) && value.length > s.maxItems) out[path] = `Choose at most ${s.maxItems}`;
      return out;
    }
    case 'json':
      if (value instanceof InvalidJson) out[path] = `Not valid JSON: ${value.error}`;
      return out;
  }
}

/** A calendar date as RFC 3339 full-date ("2026-02-29" is refused: not a leap year). */
export function isDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

/** An RFC 3339 date-time with its offset ("2026-12-02T10:30:00Z", "…+01:00"). */
export function isDateTime(v: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/.exec(v);
  if (!m || !isDate(m[1]!)) return false;
  return Number(m[2]) < 24 && Number(m[3]) < 60 && (m[4] === undefined || Number(m[4]) < 61);
}

/** Marker for a JSON field whose text does not parse (kept so the text is not lost). */
export class InvalidJson {
  constructor(
    readonly text: string,
    readonly error: string,
  ) {}
}

/** The payload to send: unset and empty optional values are left out. */
export function toPayload(s: Schema, value: unknown): JsonValue | undefined {
  const kind = fieldKind(s);
  if (value === undefined || value instanceof InvalidJson) return undefined;
  if (kind === 'object') {
    const obj = isObject(value) ? value : {};
    const out: Record<string, JsonValue> = {};
    for (const [k, ps] of properties(s)) {
      const v = obj[k];
      if (v === '' || v === undefined) continue;
      const p = toPayload(ps, v);
      if (p !== undefined) out[k] = p;
    }
    return out;
  }
  return value as JsonValue;
}

/** True when every part of the schema is rendered by a dedicated control. */
export function fullySupported(s: Schema): boolean {
  const kind = fieldKind(s);
  if (kind === 'json') return false;
  if (kind === 'object') return properties(s).every(([, ps]) => fullySupported(ps));
  return true;
}

import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { isObject, isString, tryParseJson, type JsonValue } from '../../transport/json';
import {
  InvalidJson,
  enumOptions,
  isDate,
  isDateTime,
  fieldKind,
  initialValue,
  joinPath,
  label,
  properties,
  requiredKeys,
  toPayload,
  validate,
  type Errors,
  type Schema,
} from '../../lib/schema';
import './SchemaForm.css';
import { AlertLine } from '../../ui/AlertLine';

export interface SchemaFormProps {
  schema: Schema;
  /** Called with a valid payload. */
  onSubmit: (payload: JsonValue) => void;
  onCancel?: () => void;
  /** The cancel button's words (default "Cancel"). */
  cancelLabel?: string;
  submitLabel?: string;
  /** Error from Go (a rejected call or a RUN_ERROR), shown under the form. */
  serverError?: string | null;
  disabled?: boolean;
  /** Initial value (e.g. a staged answer being edited again, or a kept draft). */
  initial?: unknown;
  /** Called with the form's value as it changes (to keep a draft). */
  onValueChange?: (value: unknown) => void;
}

interface FieldProps {
  schema: Schema;
  name: string;
  path: string;
  value: unknown;
  required: boolean;
  error: string | undefined;
  errors: Errors;
  showError: (path: string) => boolean;
  onChange: (path: string, value: unknown) => void;
  idBase: string;
  disabled: boolean;
}

function setAt(root: unknown, path: string, value: unknown): unknown {
  if (path === '') return value;
  const [head, ...rest] = path.split('.');
  const obj = isObject(root) ? { ...root } : {};
  obj[head!] = setAt(obj[head!], rest.join('.'), value);
  return obj;
}

function describe(s: Schema): string | undefined {
  return isString(s.description) && s.description ? s.description : undefined;
}

function fieldId(idBase: string, path: string): string {
  return `${idBase}-${path.replace(/[^a-zA-Z0-9_-]/g, '_') || 'root'}`;
}

function Help({ id, schema, error }: { id: string; schema: Schema; error: string | undefined }) {
  const d = describe(schema);
  return (
    <>
      {d && (
        <p className="sf-help" id={`${id}-help`}>
          {d}
        </p>
      )}
      {error && (
        <p className="sf-error" id={`${id}-err`} role="alert">
          {error}
        </p>
      )}
    </>
  );
}

function describedBy(id: string, schema: Schema, error: string | undefined): string | undefined {
  const parts: string[] = [];
  if (describe(schema)) parts.push(`${id}-help`);
  if (error) parts.push(`${id}-err`);
  return parts.length ? parts.join(' ') : undefined;
}

function Label({ htmlFor, text, required }: { htmlFor?: string; text: string; required: boolean }) {
  return (
    <label className="sf-label" htmlFor={htmlFor}>
      {text}
      {required && (
        <span className="sf-req" aria-hidden="true">
          {' '}
          *
        </span>
      )}
    </label>
  );
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** An RFC 3339 date-time as the value of a datetime-local input (local time), or '' when it is not one. */
export function toLocalInput(v: unknown): string {
  if (!isString(v) || !isDateTime(v)) return '';
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local input's value as RFC 3339 with this computer's offset (what the schema asks for). */
export function fromLocalInput(v: string): string | undefined {
  if (!v) return undefined;
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return undefined;
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '-';
  const abs = Math.abs(off);
  return `${v.length === 16 ? `${v}:00` : v}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function Field(p: FieldProps): ReactNode {
  const kind = fieldKind(p.schema);
  const id = fieldId(p.idBase, p.path);
  const text = label(p.name, p.schema);
  const err = p.showError(p.path) ? p.error : undefined;
  const common = {
    id,
    disabled: p.disabled,
    'aria-invalid': err ? true : undefined,
    'aria-describedby': describedBy(id, p.schema, err),
    'aria-required': p.required || undefined,
  } as const;

  switch (kind) {
    case 'object': {
      const req = requiredKeys(p.schema);
      const obj = isObject(p.value) ? p.value : {};
      const children = properties(p.schema).map(([k, ps]) => {
        const cp = joinPath(p.path, k);
        return (
          <Field
            key={k}
            schema={ps}
            name={k}
            path={cp}
            value={obj[k]}
            required={req.has(k)}
            error={p.errors[cp]}
            errors={p.errors}
            showError={p.showError}
            onChange={p.onChange}
            idBase={p.idBase}
            disabled={p.disabled}
          />
        );
      });
      if (p.path === '') return <div className="sf-fields">{children}</div>;
      return (
        <fieldset className="sf-fieldset">
          <legend>
            {text}
            {p.required && <span className="sf-req" aria-hidden="true"> *</span>}
          </legend>
          {describe(p.schema) && <p className="sf-help">{describe(p.schema)}</p>}
          {children}
        </fieldset>
      );
    }
    case 'string':
    case 'text': {
      const v = isString(p.value) ? p.value : '';
      const max = typeof p.schema.maxLength === 'number' ? p.schema.maxLength : undefined;
      return (
        <div className="sf-field">
          <Label htmlFor={id} text={text} required={p.required} />
          {kind === 'text' ? (
            <textarea {...common} rows={4} value={v} maxLength={max} onChange={(e) => p.onChange(p.path, e.currentTarget.value)} />
          ) : p.schema.format === 'date' ? (
            <input
              {...common}
              type="date"
              value={isDate(v) ? v : ''}
              onChange={(e) => p.onChange(p.path, e.currentTarget.value === '' ? undefined : e.currentTarget.value)}
            />
          ) : p.schema.format === 'date-time' ? (
            <input
              {...common}
              type="datetime-local"
              value={toLocalInput(v)}
              onChange={(e) => p.onChange(p.path, fromLocalInput(e.currentTarget.value))}
            />
          ) : (
            <input
              {...common}
              type={p.schema.format === 'email' ? 'email' : p.schema.format === 'uri' ? 'url' : 'text'}
              value={v}
              onChange={(e) => p.onChange(p.path, e.currentTarget.value)}
            />
          )}
          <Help id={id} schema={p.schema} error={err} />
        </div>
      );
    }
    case 'number':
    case 'integer':
      return <NumberField {...p} id={id} text={text} err={err} integer={kind === 'integer'} />;
    case 'boolean':
      return (
        <div className="sf-field sf-check">
          <input
            {...common}
            type="checkbox"
            checked={p.value === true}
            onChange={(e) => p.onChange(p.path, e.currentTarget.checked)}
          />
          <Label htmlFor={id} text={text} required={false} />
          <Help id={id} schema={p.schema} error={err} />
        </div>
      );
    case 'enum': {
      const choices = enumOptions(p.schema) ?? [];
      const options = choices.map((c) => c.value);
      const selected = options.findIndex((o) => JSON.stringify(o) === JSON.stringify(p.value));
      if (options.length <= 5) {
        return (
          <fieldset
            className="sf-field sf-radios"
            aria-describedby={describedBy(id, p.schema, err)}
            aria-invalid={err ? true : undefined}
          >
            <legend className="sf-label">
              {text}
              {p.required && <span className="sf-req" aria-hidden="true"> *</span>}
            </legend>
            {options.map((o, i) => (
              <label key={i} className="sf-option">
                <input
                  type="radio"
                  name={id}
                  disabled={p.disabled}
                  checked={selected === i}
                  onChange={() => p.onChange(p.path, o)}
                />
                {choices[i]!.title}
              </label>
            ))}
            <Help id={id} schema={p.schema} error={err} />
          </fieldset>
        );
      }
      return (
        <div className="sf-field">
          <Label htmlFor={id} text={text} required={p.required} />
          <select
            {...common}
            value={selected >= 0 ? String(selected) : ''}
            onChange={(e) => p.onChange(p.path, e.currentTarget.value === '' ? undefined : options[Number(e.currentTarget.value)])}
          >
            <option value="">Choose…</option>
            {choices.map((c, i) => (
              <option key={i} value={String(i)}>
                {c.title}
              </option>
            ))}
          </select>
          <Help id={id} schema={p.schema} error={err} />
        </div>
      );
    }
    case 'multi-enum': {
      const items = isObject(p.schema.items) ? p.schema.items : {};
      const choices = enumOptions(items) ?? [];
      const options = choices.map((c) => c.value);
      const chosen = Array.isArray(p.value) ? p.value : [];
      const has = (o: JsonValue) => chosen.some((c) => JSON.stringify(c) === JSON.stringify(o));
      return (
        <fieldset className="sf-field sf-checks" aria-describedby={describedBy(id, p.schema, err)}>
          <legend className="sf-label">
            {text}
            {p.required && <span className="sf-req" aria-hidden="true"> *</span>}
          </legend>
          {options.map((o, i) => (
            <label key={i} className="sf-option">
              <input
                type="checkbox"
                disabled={p.disabled}
                checked={has(o)}
                onChange={(e) => {
                  const next = e.currentTarget.checked
                    ? options.filter((x) => has(x) || x === o)
                    : chosen.filter((c) => JSON.stringify(c) !== JSON.stringify(o));
                  p.onChange(p.path, next);
                }}
              />
              {choices[i]!.title}
            </label>
          ))}
          <Help id={id} schema={p.schema} error={err} />
        </fieldset>
      );
    }
    case 'json':
      return <JsonField {...p} id={id} text={text} err={err} />;
  }
}

function NumberField(p: FieldProps & { id: string; text: string; err: string | undefined; integer: boolean }) {
  const [raw, setRaw] = useState(() => (typeof p.value === 'number' ? String(p.value) : ''));
  const shown = typeof p.value === 'number' && Number(raw) !== p.value ? String(p.value) : raw;
  const min = typeof p.schema.minimum === 'number' ? p.schema.minimum : undefined;
  const max = typeof p.schema.maximum === 'number' ? p.schema.maximum : undefined;
  return (
    <div className="sf-field">
      <Label htmlFor={p.id} text={p.text} required={p.required} />
      <input
        id={p.id}
        type="text"
        inputMode={p.integer ? 'numeric' : 'decimal'}
        disabled={p.disabled}
        aria-invalid={p.err ? true : undefined}
        aria-describedby={describedBy(p.id, p.schema, p.err)}
        aria-required={p.required || undefined}
        value={shown}
        onChange={(e) => {
          const t = e.currentTarget.value;
          setRaw(t);
          const trimmed = t.trim();
          if (trimmed === '') p.onChange(p.path, undefined);
          else {
            const n = Number(trimmed);
            p.onChange(p.path, Number.isFinite(n) ? n : trimmed);
          }
        }}
      />
      {(min !== undefined || max !== undefined) && (
        <p className="sf-help sf-range">
          {min !== undefined && max !== undefined
            ? `Between ${min} and ${max}`
            : min !== undefined
              ? `At least ${min}`
              : `At most ${max}`}
        </p>
      )}
      <Help id={p.id} schema={p.schema} error={p.err} />
    </div>
  );
}

function JsonField(p: FieldProps & { id: string; text: string; err: string | undefined }) {
  const [text, setText] = useState(() =>
    p.value === undefined ? '' : p.value instanceof InvalidJson ? p.value.text : JSON.stringify(p.value, null, 2),
  );
  return (
    <div className="sf-field">
      <Label htmlFor={p.id} text={`${p.text} (JSON)`} required={p.required} />
      <textarea
        id={p.id}
        className="mono"
        rows={5}
        spellcheck={false}
        disabled={p.disabled}
        aria-invalid={p.err ? true : undefined}
        aria-describedby={describedBy(p.id, p.schema, p.err)}
        value={text}
        onChange={(e) => {
          const t = e.currentTarget.value;
          setText(t);
          if (t.trim() === '') return p.onChange(p.path, undefined);
          const parsed = tryParseJson(t);
          p.onChange(p.path, parsed.ok ? parsed.value : new InvalidJson(t, parsed.error));
        }}
      />
      <Help id={p.id} schema={p.schema} error={p.err} />
    </div>
  );
}

/** A form generated from a JSON Schema (the supported subset in lib/schema.ts). */
export function SchemaForm({
  schema,
  onSubmit,
  onCancel,
  cancelLabel = 'Cancel',
  submitLabel = 'Submit',
  serverError,
  disabled = false,
  initial,
  onValueChange,
}: SchemaFormProps) {
  const idBase = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [value, setValue] = useState<unknown>(() => (initial !== undefined ? initial : initialValue(schema)));
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const [resetKey, setResetKey] = useState(0);
  const rootKind = fieldKind(schema);
  const rootRequired = rootKind !== 'object' && rootKind !== 'boolean';
  // "Clear choice" only where there is a choice to clear (a choice question).
  const isChoice = rootKind === 'enum' || rootKind === 'multi-enum';
  const chosen = Array.isArray(value) ? value.length > 0 : value !== undefined;

  const errors = useMemo(() => {
    const e = validate(schema, value);
    if (rootRequired && (value === undefined || value === '') && !e['']) e[''] = 'Required';
    return e;
  }, [schema, value, rootRequired]);
  const errorCount = Object.keys(errors).length;

  const onValueChangeRef = useRef(onValueChange);
  onValueChangeRef.current = onValueChange;
  const firstValue = useRef(value);
  useEffect(() => {
    if (value !== firstValue.current) onValueChangeRef.current?.(value);
  }, [value]);

  const showError = (path: string) => submitted || touched.has(path);

  const onChange = (path: string, v: unknown) => {
    setValue((prev: unknown) => setAt(prev, path, v));
    setTouched((t) => (t.has(path) ? t : new Set(t).add(path)));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (errorCount) {
      // Focus the first invalid control after the errors render.
      setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      return;
    }
    const payload = toPayload(schema, value);
    onSubmit(payload === undefined ? null : payload);
  };

  const clear = () => {
    setValue(initialValue(schema));
    setTouched(new Set());
    setSubmitted(false);
    setResetKey((k) => k + 1);
  };

  return (
    <form ref={formRef} className="schema-form" onSubmit={submit} noValidate>
      <Field
        key={resetKey}
        schema={schema}
        name=""
        path=""
        value={value}
        required={rootRequired}
        error={errors['']}
        errors={errors}
        showError={showError}
        onChange={onChange}
        idBase={idBase}
        disabled={disabled}
      />
      {submitted && errorCount > 0 && (
        <p className="sf-summary" role="alert">
          {errorCount === 1 ? 'One answer needs attention.' : `${errorCount} answers need attention.`}
        </p>
      )}
      <AlertLine className="sf-server-error" text={serverError} />
      <div className="sf-actions">
        <button type="submit" className="btn primary" disabled={disabled}>
          {submitLabel}
        </button>
        {isChoice && (
          <button type="button" className="btn" onClick={clear} disabled={disabled || !chosen}>
            Clear choice
          </button>
        )}
        {onCancel && (
          <button type="button" className="btn subtle" onClick={onCancel} disabled={disabled}>
            {cancelLabel}
          </button>
        )}
      </div>
    </form>
  );
}

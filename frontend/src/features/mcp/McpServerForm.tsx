import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { isMasked, type McpPolicy, type McpServerConfig } from '../../transport/contract';
import { AuthFields, authDraftFromConfig, authFromDraft, validateAuth, type AuthDraft } from './McpAuthFields';
import { AlertLine } from '../../ui/AlertLine';

// Add / edit one MCP server. The form edits text; formToConfig turns it
// into the ServerConfig SaveMCPServer takes (arguments one per line,
// KEY=VALUE environment lines, "Name: value" header lines). Masked secrets
// ("••••…") are sent back as they are: Go keeps the stored value.

export type ServerKind = 'stdio' | 'http';

export interface ServerDraft extends AuthDraft {
  name: string;
  kind: ServerKind;
  command: string;
  args: string;
  env: string;
  cwd: string;
  url: string;
  headers: string;
  approval: McpPolicy;
}

export type DraftErrors = Partial<Record<'name' | 'command' | 'url' | 'env' | 'headers' | 'auth', string>>;

export const POLICY_OPTIONS: readonly { value: McpPolicy; label: string }[] = [
  { value: '', label: 'Ask unless the server marks a tool read-only (default)' },
  { value: 'ask', label: 'Ask before every call' },
  { value: 'trust', label: 'Trust this server (never ask)' },
];

const KEEP_MASKED = 'Values shown as •••• are saved secrets: leave them as they are to keep the saved value.';

const HTTP_TYPES: ReadonlySet<string> = new Set(['http', 'streamable-http', 'sse']);

export function emptyDraft(): ServerDraft {
  return { name: '', kind: 'stdio', command: '', args: '', env: '', cwd: '', url: '', headers: '', approval: '', auth: 'none', clientId: '', clientSecret: '', scopes: '' };
}

export function draftFromConfig(name: string, c: McpServerConfig): ServerDraft {
  const http = !!c.url || (c.type !== undefined && HTTP_TYPES.has(c.type) && !c.command);
  return {
    name,
    kind: http ? 'http' : 'stdio',
    command: c.command ?? '',
    args: (c.args ?? []).join('\n'),
    env: Object.entries(c.env ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    cwd: c.cwd ?? '',
    url: c.url ?? '',
    headers: Object.entries(c.headers ?? {})
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
    approval: c.approval ?? '',
    ...authDraftFromConfig(c),
  };
}

function lines(text: string): { n: number; line: string }[] {
  return text
    .split('\n')
    .map((l, i) => ({ n: i + 1, line: l.replace(/\r$/, '') }))
    .filter((l) => l.line.trim() !== '');
}

/** `KEY=VALUE` per line (the value is everything after the first "="). */
export function parseEnv(text: string): { env: Record<string, string>; error?: string } {
  const env: Record<string, string> = {};
  for (const { n, line } of lines(text)) {
    const i = line.indexOf('=');
    const key = i < 0 ? '' : line.slice(0, i).trim();
    if (!key) return { env, error: `Line ${n}: write KEY=VALUE.` };
    env[key] = line.slice(i + 1);
  }
  return { env };
}

/** `Name: value` per line. */
export function parseHeaders(text: string): { headers: Record<string, string>; error?: string } {
  const headers: Record<string, string> = {};
  for (const { n, line } of lines(text)) {
    const i = line.indexOf(':');
    const key = i < 0 ? '' : line.slice(0, i).trim();
    if (!key || /\s/.test(key)) return { headers, error: `Line ${n}: write Name: value.` };
    headers[key] = line.slice(i + 1).trim();
  }
  return { headers };
}

export function parseArgs(text: string): string[] {
  return lines(text).map((l) => l.line.trim());
}

export function validateDraft(d: ServerDraft): DraftErrors {
  const e: DraftErrors = {};
  if (!d.name.trim()) e.name = 'Give the server a name.';
  if (d.kind === 'stdio') {
    if (!d.command.trim()) e.command = 'Enter the program to run.';
    const env = parseEnv(d.env);
    if (env.error) e.env = env.error;
  } else {
    const url = d.url.trim();
    if (!url) e.url = 'Enter the server’s URL.';
    else if (!/^https?:\/\/[^\s/]+/i.test(url)) e.url = 'Enter an http:// or https:// URL.';
    const h = parseHeaders(d.headers);
    if (h.error) e.headers = h.error;
    const a = validateAuth(d);
    if (a) e.auth = a;
  }
  return e;
}

/**
 * The ServerConfig a valid draft saves. `base` is the entry being edited:
 * what the form does not show (disabled, a transport type that still fits)
 * is kept.
 */
export function configFromDraft(d: ServerDraft, base?: McpServerConfig): McpServerConfig {
  const c: McpServerConfig = {};
  if (d.kind === 'stdio') {
    c.command = d.command.trim();
    const args = parseArgs(d.args);
    if (args.length) c.args = args;
    const { env } = parseEnv(d.env);
    if (Object.keys(env).length) c.env = env;
    if (d.cwd.trim()) c.cwd = d.cwd.trim();
    if (base?.type === 'stdio') c.type = base.type;
  } else {
    c.url = d.url.trim();
    // Headers are kept with every choice but "none" (a server may want a version header beside a sign-in).
    const { headers } = parseHeaders(d.headers);
    if (d.auth !== 'none' && Object.keys(headers).length) c.headers = headers;
    const auth = authFromDraft(d);
    if (auth) c.auth = auth;
    if (base?.type && HTTP_TYPES.has(base.type)) c.type = base.type;
  }
  if (base?.disabled) c.disabled = true;
  if (d.approval) c.approval = d.approval;
  return c;
}

function hasMasked(text: string, sep: string): boolean {
  return lines(text).some(({ line }) => {
    const i = line.indexOf(sep);
    return i >= 0 && isMasked(line.slice(i + 1).trim());
  });
}

export interface McpServerFormProps {
  /** The entry being edited; undefined to add one. */
  editing?: { name: string; config: McpServerConfig } | undefined;
  busy: boolean;
  /** Error from Go (conflict, invalid argument), shown under the form. */
  serverError: string | null;
  onSave: (previousName: string, name: string, config: McpServerConfig) => void;
  onCancel: () => void;
}

export function McpServerForm({ editing, busy, serverError, onSave, onCancel }: McpServerFormProps) {
  const id = useId();
  const [d, setD] = useState<ServerDraft>(() => (editing ? draftFromConfig(editing.name, editing.config) : emptyDraft()));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => nameRef.current?.focus(), []);

  const set = <K extends keyof ServerDraft>(k: K, v: ServerDraft[K]) => {
    const next = { ...d, [k]: v };
    setD(next);
    if (submitted) setErrors(validateDraft(next));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const errs = validateDraft(d);
    setErrors(errs);
    if (Object.keys(errs).length) {
      setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      return;
    }
    onSave(editing?.name ?? '', d.name.trim(), configFromDraft(d, editing?.config));
  };

  const field = (
    key: keyof DraftErrors | 'cwd' | 'args',
    label: string,
    control: (fid: string, describedBy: string | undefined, invalid: boolean) => ReactNode,
    help?: ReactNode,
  ) => {
    const fid = `${id}-${key}`;
    const err = key in errors ? errors[key as keyof DraftErrors] : undefined;
    const describedBy = [help ? `${fid}-help` : '', err ? `${fid}-err` : ''].filter(Boolean).join(' ') || undefined;
    return (
      <div className={`set-field${err ? ' has-error' : ''}`}>
        <div className="set-label-row">
          <label htmlFor={fid}>{label}</label>
        </div>
        {control(fid, describedBy, !!err)}
        {help && (
          <p className="set-help" id={`${fid}-help`}>
            {help}
          </p>
        )}
        {err && (
          <p className="set-error" id={`${fid}-err`} role="alert">
            {err}
          </p>
        )}
      </div>
    );
  };

  const maskedEnv = hasMasked(d.env, '=');
  const maskedHeaders = hasMasked(d.headers, ':');


  // The text fields: monospaced, one line or a few.
  type TextKey = 'command' | 'args' | 'env' | 'cwd' | 'url' | 'headers';
  const textInput = (k: TextKey, label: string, placeholder: string, o: { type?: string; required?: boolean } = {}) =>
    field(k, label, (fid, db, invalid) => (
      <input
        id={fid}
        type={o.type ?? 'text'}
        className="mono"
        value={d[k]}
        aria-describedby={db}
        aria-invalid={invalid || undefined}
        aria-required={o.required || undefined}
        placeholder={placeholder}
        autoComplete="off"
        spellcheck={false}
        onChange={(e) => set(k, e.currentTarget.value)}
      />
    ));
  const textArea = (k: TextKey, label: string, placeholder: string, help: string) =>
    field(
      k,
      label,
      (fid, db, invalid) => (
        <textarea
          id={fid}
          className="mono"
          rows={3}
          value={d[k]}
          aria-describedby={db}
          aria-invalid={invalid || undefined}
          spellcheck={false}
          placeholder={placeholder}
          onChange={(e) => set(k, e.currentTarget.value)}
        />
      ),
      help,
    );
  return (
    <form ref={formRef} className="mcp-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`} className="mcp-form-title">
        {editing ? `Edit ${editing.name}` : 'Add a tool server'}
      </h4>
      {field('name', 'Name', (fid, db, invalid) => (
        <input
          ref={nameRef}
          id={fid}
          type="text"
          value={d.name}
          aria-describedby={db}
          aria-invalid={invalid || undefined}
          aria-required
          placeholder="e.g. filesystem"
          autoComplete="off"
          onChange={(e) => set('name', e.currentTarget.value)}
        />
      ), 'The model sees its tools as <name>__<tool>.')}
      <fieldset className="set-field set-radios mcp-kind">
        <legend>Kind</legend>
        <label className="set-check">
          <input type="radio" name={`${id}-kind`} checked={d.kind === 'stdio'} onChange={() => set('kind', 'stdio')} />
          Program (stdio)
        </label>
        <label className="set-check">
          <input type="radio" name={`${id}-kind`} checked={d.kind === 'http'} onChange={() => set('kind', 'http')} />
          URL (HTTP)
        </label>
      </fieldset>
      {d.kind === 'stdio' ? (
        <>
          {textInput('command', 'Command', 'e.g. npx', { required: true })}
          {textArea('args', 'Arguments', '-y\n@modelcontextprotocol/server-everything', 'One per line.')}
          {textArea('env', 'Environment', 'API_KEY=…', maskedEnv ? `KEY=VALUE per line. ${KEEP_MASKED}` : 'KEY=VALUE per line.')}
          {textInput('cwd', 'Working folder', 'Optional')}
        </>
      ) : (
        <>
          {textInput('url', 'URL', 'https://example.com/mcp', { type: 'url', required: true })}
          <AuthFields id={id} draft={d} error={errors.auth} set={(k, v) => set(k, v as ServerDraft[typeof k])} />
          {d.auth !== 'none' && textArea('headers', 'Headers', 'Authorization: Bearer …', maskedHeaders ? `Name: value per line. ${KEEP_MASKED}` : 'Name: value per line.')}
        </>
      )}
      <div className="set-field">
        <div className="set-label-row">
          <label htmlFor={`${id}-approval`}>Approval</label>
        </div>
        <select
          id={`${id}-approval`}
          value={d.approval}
          aria-describedby={`${id}-approval-help`}
          onChange={(e) => set('approval', e.currentTarget.value === 'ask' || e.currentTarget.value === 'trust' ? e.currentTarget.value : '')}
        >
          {POLICY_OPTIONS.map((o) => (
            <option key={o.value || 'default'} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <p className="set-help" id={`${id}-approval-help`}>
          Read-only marks come from the server’s author; they are hints, not guarantees.
        </p>
      </div>
      <AlertLine className="set-banner error" text={serverError} />
      <div className="mcp-actions">
        <button type="submit" className="btn primary" disabled={busy}>
          {busy ? 'Saving…' : editing ? 'Save server' : 'Add server'}
        </button>
        <button type="button" className="btn subtle" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}

import { isMasked, type McpServerConfig } from '../../transport/contract';
import { AlertLine } from '../../ui/AlertLine';

/** How an HTTP server is signed in to, as the form offers it. */
export type AuthKind = 'none' | 'header' | 'oauth' | 'client_credentials';

export interface AuthDraft {
  auth: AuthKind;
  clientId: string;
  clientSecret: string;
  scopes: string;
}

export const AUTH_OPTIONS: readonly { value: AuthKind; label: string; help: string }[] = [
  { value: 'none', label: 'None', help: 'If the server asks for a sign-in anyway, its row shows “Sign in”.' },
  { value: 'header', label: 'A header', help: 'A fixed token or key in a header below (kept in the key storage).' },
  {
    value: 'oauth',
    label: 'Sign in (OAuth)',
    help: 'You sign in in your browser; the tokens are kept in the key storage and refreshed on their own.',
  },
  {
    value: 'client_credentials',
    label: 'Client credentials',
    help: 'Machine to machine: Juncture gets its own tokens with a client ID and secret you registered with the server’s authorization server.',
  },
];

export function authDraftFromConfig(c: McpServerConfig): AuthDraft {
  const a = c.auth;
  let auth: AuthKind = Object.keys(c.headers ?? {}).length ? 'header' : 'none';
  if (a?.type === 'oauth' || a?.type === 'client_credentials') auth = a.type;
  return { auth, clientId: a?.clientId ?? '', clientSecret: a?.clientSecret ?? '', scopes: (a?.scopes ?? []).join(' ') };
}

/** The "auth" entry a draft saves (undefined: none). A masked secret is sent back as it is: Go keeps the stored one. */
export function authFromDraft(d: AuthDraft): McpServerConfig['auth'] {
  if (d.auth !== 'oauth' && d.auth !== 'client_credentials') return undefined;
  const out: NonNullable<McpServerConfig['auth']> = { type: d.auth };
  if (d.clientId.trim()) out.clientId = d.clientId.trim();
  if (d.clientSecret) out.clientSecret = d.clientSecret;
  const scopes = d.scopes.split(/\s+/).filter(Boolean);
  if (scopes.length) out.scopes = scopes;
  return out;
}

export function validateAuth(d: AuthDraft): string | undefined {
  if (d.auth !== 'client_credentials') return undefined;
  if (!d.clientId.trim() || !d.clientSecret) return 'Client credentials need a client ID and a secret.';
  return undefined;
}

export interface AuthFieldsProps {
  id: string;
  draft: AuthDraft;
  error?: string | undefined;
  set: <K extends keyof AuthDraft>(k: K, v: AuthDraft[K]) => void;
}

/** The authentication choice of an HTTP server, and its client fields. */
export function AuthFields({ id, draft: d, error, set }: AuthFieldsProps) {
  const help = AUTH_OPTIONS.find((o) => o.value === d.auth)?.help;
  const client = d.auth === 'oauth' || d.auth === 'client_credentials';
  return (
    <>
      <fieldset className="set-field set-radios mcp-auth" aria-describedby={`${id}-auth-help`}>
        <legend>Authentication</legend>
        {AUTH_OPTIONS.map((o) => (
          <label key={o.value} className="set-check">
            <input type="radio" name={`${id}-auth`} checked={d.auth === o.value} onChange={() => set('auth', o.value)} />
            {o.label}
          </label>
        ))}
        <p className="set-help" id={`${id}-auth-help`}>
          {help}
        </p>
      </fieldset>
      {client && (
        <>
          <div className="set-field">
            <label htmlFor={`${id}-client-id`}>Client ID{d.auth === 'oauth' ? ' (optional)' : ''}</label>
            <input id={`${id}-client-id`} className="mono" value={d.clientId} autoComplete="off" spellcheck={false}
              placeholder={d.auth === 'oauth' ? 'Leave empty: Juncture registers itself' : ''}
              onChange={(e) => set('clientId', e.currentTarget.value)} />
          </div>
          {d.auth === 'client_credentials' && (
            <div className={`set-field${error ? ' has-error' : ''}`}>
              <label htmlFor={`${id}-client-secret`}>Client secret</label>
              <input id={`${id}-client-secret`} type="password" className="mono" value={d.clientSecret} autoComplete="off"
                aria-invalid={!!error || undefined} aria-describedby={`${id}-client-secret-help`}
                onChange={(e) => set('clientSecret', e.currentTarget.value)} />
              <p className="set-help" id={`${id}-client-secret-help`}>
                {isMasked(d.clientSecret) ? 'Saved in the key storage; leave it as it is to keep it.' : 'Kept in the key storage, never in mcp.json.'}
              </p>
              <AlertLine className="set-error" text={error} />
            </div>
          )}
          <div className="set-field">
            <label htmlFor={`${id}-scopes`}>Scopes (optional)</label>
            <input id={`${id}-scopes`} className="mono" value={d.scopes} autoComplete="off" spellcheck={false}
              placeholder="Separated by spaces; empty: what the server asks for" onChange={(e) => set('scopes', e.currentTarget.value)} />
          </div>
        </>
      )}
    </>
  );
}

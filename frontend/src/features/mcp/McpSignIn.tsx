import type { McpServerStatus } from '../../transport/contract';

/** A server's sign-in as ListMCPServers reports it. */
export type McpAuthStatus = NonNullable<McpServerStatus['auth']>;

const STATE_TEXT: Record<string, { text: string; tone: string }> = {
  'signed-in': { text: 'Signed in', tone: 'ok' },
  'sign-in': { text: 'Needs sign-in', tone: 'warn' },
  'sign-in-again': { text: 'Sign-in expired', tone: 'warn' },
  'more-access': { text: 'Asks for more access', tone: 'warn' },
  'signing-in': { text: 'Signing in…', tone: '' },
  failed: { text: 'Sign-in failed', tone: 'danger' },
};

/** The one button each state offers (none while signed in or signing in). */
const BUTTON: Record<string, string> = {
  'sign-in': 'Sign in',
  'sign-in-again': 'Sign in again',
  'more-access': 'Allow more access',
  failed: 'Sign in again',
};

export interface SignInBarProps {
  name: string;
  auth: McpAuthStatus;
  busy: boolean;
  onSignIn: (name: string) => void;
  onSignOut: (name: string) => void;
}

/** Sign in / Sign in again / Allow more access, and Sign out, for one server. */
export function SignInBar({ name, auth, busy, onSignIn, onSignOut }: SignInBarProps) {
  const st = STATE_TEXT[auth.state] ?? { text: auth.state, tone: '' };
  const machine = auth.type === 'client_credentials';
  const label = machine ? (auth.state === 'failed' ? 'Try again' : '') : BUTTON[auth.state];
  const signedIn = auth.state === 'signed-in' || auth.state === 'more-access';
  return (
    <div className="mcp-signin" role="group" aria-label={`Sign-in of ${name}`}>
      <span className={`mcp-badge ${st.tone}`}>{machine ? `Client credentials: ${st.text.toLowerCase()}` : st.text}</span>
      {auth.issuer && (
        <span className="mcp-signin-issuer" title="The authorization server">
          at <span className="mono">{auth.issuer}</span>
        </span>
      )}
      {auth.message && <span className="mcp-signin-msg">{auth.message}</span>}
      {label && (
        <button type="button" className="btn small primary" disabled={busy} aria-label={`${label}: ${name}`} onClick={() => onSignIn(name)}>
          {label}
        </button>
      )}
      {signedIn && !machine && (
        <button type="button" className="btn small" disabled={busy} aria-label={`Sign out of ${name}`} onClick={() => onSignOut(name)}>
          Sign out
        </button>
      )}
    </div>
  );
}

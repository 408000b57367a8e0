import { useEffect, useState, type ReactNode } from 'react';
import type { Transport } from '../../transport';
import { HttpTransport, dropFragmentToken, fragmentToken } from '../../transport/http';
import './TokenMissing.css';

/**
 * The page browser mode shows when it cannot talk to Juncture: opened
 * without the access token (#token=… in the address Juncture printed), or
 * with one the server refuses (Juncture was restarted and printed a new one).
 */
export function TokenMissing({ reason }: { reason: 'missing' | 'rejected' }) {
  return (
    <main className="token-page" aria-labelledby="token-page-title">
      <div className="token-card">
        <div className="token-brand">Juncture</div>
        <h1 id="token-page-title">Open the link Juncture printed</h1>
        <p>
          {reason === 'missing'
            ? 'This page was opened without its access token, so it cannot reach Juncture.'
            : 'Juncture did not accept this page’s access token: it was probably restarted, and each start prints a new link.'}{' '}
          The link Juncture printed in its terminal when it started carries the token — open that link (or paste it into the
          address bar).
        </p>
        <p className="token-example">
          It looks like <span className="mono">http://127.0.0.1:8765/#token=…</span>
        </p>
        <p className="token-help">
          Lost it? Stop Juncture and start it again (<span className="mono">make serve</span> or{' '}
          <span className="mono">juncture serve</span>): it prints a new link.
        </p>
      </div>
    </main>
  );
}

const loadAgain = () => window.location.reload();

/** The app, or the token page when browser mode has no usable token. */
export function TokenGate({
  transport,
  children,
  reload = loadAgain,
}: {
  transport: Transport;
  children: ReactNode;
  /** Loads the page again (tests replace it). */
  reload?: () => void;
}) {
  const http = transport instanceof HttpTransport ? transport : null;
  const [state, setState] = useState(() => http?.tokenState() ?? 'ok');
  useEffect(() => {
    if (!http) return;
    setState(http.tokenState());
    return http.onTokenRejected(() => setState(http.tokenState()));
  }, [http]);
  // The new link pasted into this tab's address bar, as the page says to:
  // only the #fragment differs, so the browser does not load the page, and
  // the token is read at load (resolveToken). Load it again to take it.
  // The load removes the token from the address, so this cannot repeat.
  // A page that works (or only reconnects) takes the new token only once
  // the server accepted it; a refused one is taken out of the address and
  // the page keeps its own, so no planted #token=… logs the tab out.
  useEffect(() => {
    if (!http) return;
    let live = true;
    const onHash = () => {
      const t = fragmentToken();
      if (!t || (http.tokenState() === 'ok' && http.usesToken(t))) return;
      if (http.tokenState() !== 'ok') {
        reload();
        return;
      }
      void http.acceptsToken(t).then((ok) => {
        if (!live || fragmentToken() !== t) return; // gone, or another link since
        if (ok) reload();
        else dropFragmentToken();
      });
    };
    window.addEventListener('hashchange', onHash);
    return () => {
      live = false;
      window.removeEventListener('hashchange', onHash);
    };
  }, [http, reload]);
  useEffect(() => {
    if (state !== 'ok') document.title = 'Open the link Juncture printed — Juncture';
  }, [state]);
  if (state !== 'ok') return <TokenMissing reason={state} />;
  return <>{children}</>;
}

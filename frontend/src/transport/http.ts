import type { Transport } from './types';
import type { MethodArgs, MethodName, Result } from './methods';
import { parseResult } from './methods';
import { EventHub, isServerEventName, parseEventData, type EventName, type Handler } from './events';
import { JunctureError, errorFromObject, toJunctureError } from './errors';
import { isObject, isString, tryParseJson } from './json';
import { webCopyText, webOpenExternal } from './platform';

const TOKEN_KEY = 'juncture.token';
/** Set when the server refused this tab's token, so a reload still says why (see tokenWasRefused). */
const REFUSED_KEY = 'juncture.token.refused';

/**
 * The access token comes from the page's fragment (`#token=…`), is kept in
 * sessionStorage so a reload keeps working, and the fragment is then removed
 * from the address bar (and so from history and screenshots).
 */
export function resolveToken(loc: Location = window.location, store: Storage | undefined = safeSession()): string {
  const fromHash = fragmentToken(loc);
  if (fromHash && !usableToken(fromHash)) {
    // Never sendable (see usableToken): keep the stored token, and take
    // the fragment out of the address so a reload does not see it again.
    dropFragmentToken(loc);
  } else if (fromHash) {
    try {
      // The refusal mark first: a full storage throws on setItem, and a
      // mark left behind would make a reload say the new token was refused.
      store?.removeItem(REFUSED_KEY);
      store?.setItem(TOKEN_KEY, fromHash);
    } catch {
      // storage disabled or full: the token still works for this page's lifetime
    }
    dropFragmentToken(loc);
    return fromHash;
  }
  try {
    // A token stored by an older page may be one no request can carry.
    const stored = store?.getItem(TOKEN_KEY) ?? '';
    return usableToken(stored) ? stored : '';
  } catch {
    return '';
  }
}

/**
 * Drops the stored token (the server refused it), so a reload does not try
 * it again, and remembers the refusal: the reloaded page has no token, and
 * must still say the token was refused, not that the page was opened
 * without one (which would send the person looking for the wrong fault).
 */
export function forgetToken(store: Storage | undefined = safeSession()): void {
  try {
    store?.removeItem(TOKEN_KEY);
    store?.setItem(REFUSED_KEY, '1');
  } catch {
    // storage disabled
  }
}

/** Whether this tab's last token was refused and no new one came since (a fragment token clears it). */
export function tokenWasRefused(store: Storage | undefined = safeSession()): boolean {
  try {
    return store?.getItem(REFUSED_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * The longest token the page takes (app/web MaxTokenLength, which Juncture
 * checks JUNCTURE_TOKEN against): its own are 48 characters. A longer one
 * (a #token= of a megabyte) makes every request's headers larger than the
 * server reads (431), so it can never work.
 */
export const MAX_TOKEN_LENGTH = 512;

/**
 * Whether `token` can be sent at all: visible ASCII (spaces only inside,
 * as a header's ends are trimmed), at most MAX_TOKEN_LENGTH long. Anything
 * else makes fetch throw (not a 401), is sent as other bytes than
 * Juncture's, or is too large for the server to read, so the page would
 * say "Reconnecting…" forever instead of the token page.
 */
export function usableToken(token: string): boolean {
  return token.length <= MAX_TOKEN_LENGTH && /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(token);
}

/**
 * Whether an answer means the server will not take `token`: 401, or 431
 * (headers too large to read) for a token longer than MAX_TOKEN_LENGTH.
 * One the page takes is at most 512 bytes of the server's 64 KiB of
 * headers, so a 431 for it is not the token's doing (headersTooLarge):
 * calling it refused would send the person after a new link that cannot help.
 */
function tokenRefused(status: number, token: string): boolean {
  return status === 401 || (status === 431 && token.length > MAX_TOKEN_LENGTH);
}

/** A 431 that the token cannot explain (see tokenRefused): something else fills the headers. */
function headersTooLarge(status: number, token: string): boolean {
  return status === 431 && !tokenRefused(status, token);
}

/**
 * What the page says for headersTooLarge. The usual cause is cookies: the
 * browser sends every cookie kept for this host, whatever the port, and
 * other apps served on 127.0.0.1 or localhost may have left many.
 */
function headersTooLargeError(baseUrl: string): JunctureError {
  return new JunctureError(
    'headers-too-large',
    `Juncture could not read the request: its headers are too large (HTTP 431), which the page's token alone cannot make. ` +
      `The likely cause is cookies the browser keeps for ${cookieHost(baseUrl)}, left by other apps served there: ` +
      `clear that site's cookies in the browser and reload.`,
  );
}

/** The host the page's requests go to, whose cookies they carry. */
function cookieHost(baseUrl: string): string {
  try {
    return new URL(baseUrl || window.location.href, window.location.href).hostname || 'this address';
  } catch {
    return 'this address';
  }
}

/** The token in the page's #fragment, if any (a link pasted into the address bar). */
export function fragmentToken(loc: Location = window.location): string {
  return fragmentParams(loc).get('token') ?? '';
}

/** Takes the token out of the page's #fragment, keeping its other parameters. */
export function dropFragmentToken(loc: Location = window.location): void {
  const params = fragmentParams(loc);
  params.delete('token');
  const rest = params.toString();
  try {
    window.history.replaceState(window.history.state, '', loc.pathname + loc.search + (rest ? `#${rest}` : ''));
  } catch {
    // non-browser test environments
  }
}

function fragmentParams(loc: Location): URLSearchParams {
  return new URLSearchParams(loc.hash.startsWith('#') ? loc.hash.slice(1) : loc.hash);
}

function safeSession(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

export interface HttpTransportOptions {
  token: string;
  /** The tab's previous token was refused (tokenWasRefused): with no token, say so rather than "missing". */
  refused?: boolean;
  baseUrl?: string;
  /** Backoff before reconnect attempt n (0-based), in ms. */
  backoff?: (attempt: number) => number;
}

/**
 * How long the page waits for a stream ticket. A request to a server that
 * stopped answering (SIGSTOP, a laptop woken with a dead connection) may
 * never settle, and while it is out no reconnect is tried: the page would
 * say "Reconnecting…" for ever.
 */
export const TICKET_TIMEOUT_MS = 10_000;

/** How long a stream must stay up before a drop starts the backoff again from its first step. */
export const STABLE_MS = 5_000;

export function defaultBackoff(attempt: number): number {
  const base = Math.min(10_000, 500 * 2 ** attempt);
  return base / 2 + Math.random() * (base / 2);
}

/**
 * Browser mode: POST /api/call/<Method> and one EventSource on /api/events.
 * The token goes only in Authorization headers, never in a URL (logs,
 * history, proxies): EventSource cannot send headers, so each connection
 * of the stream first asks for a single-use ticket (POST
 * /api/events/ticket) and opens /api/events?ticket=…. A failed stream is
 * closed at once and reconnected here with a fresh ticket, never by the
 * browser's own retry, which would send the spent one again.
 */
export class HttpTransport implements Transport {
  readonly kind = 'browser' as const;
  private hub = new EventHub();
  private es: EventSource | null = null;
  /** A ticket is being asked for: the stream is opening. */
  private connecting = false;
  private attempt = 0;
  /**
   * When the open stream came up (performance.now(): a clock the person or a
   * time server cannot set back or forward), null while none is open: see STABLE_MS.
   */
  private openedAt: number | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Ends the ticket request in flight, if any: close() must not leave it out (see streamTicket). */
  private ticketAbort: AbortController | null = null;
  private everConnected = false;
  private disconnected = false;
  private closed = false;
  /** The last event id seen; a reconnect asks the server to replay what came after it. */
  private lastEventId = '';
  private readonly token: string;
  private readonly baseUrl: string;
  /** The server refused the token (401): the page cannot work until opened with the right link. */
  private rejected = false;
  private authListeners = new Set<() => void>();
  private readonly backoff: (attempt: number) => number;
  /** Resolved at the first open of the event stream (see ready). */
  private opened: Promise<void>;
  private markOpened: () => void = () => {};

  constructor(opts: HttpTransportOptions) {
    this.token = opts.token;
    this.rejected = !opts.token && (opts.refused ?? false);
    this.baseUrl = opts.baseUrl ?? '';
    this.backoff = opts.backoff ?? defaultBackoff;
    this.opened = new Promise((resolve) => {
      this.markOpened = resolve;
    });
  }

  /** Resolves once /api/events is open: the server subscribed before it answered. */
  ready(): Promise<void> {
    if (!this.es && !this.timer && !this.closed) this.connect();
    return this.opened;
  }

  /**
   * Whether this page can talk to Juncture: "missing" when it was opened
   * without the token (the address lacks #token=…), "rejected" once the
   * server refused it (Juncture was restarted with a new one) — also after
   * a reload of the refused page, which no longer has the token.
   */
  tokenState(): 'ok' | 'missing' | 'rejected' {
    if (this.rejected) return 'rejected';
    return this.token ? 'ok' : 'missing';
  }

  /** Whether `token` is the one this page uses (a link pasted again brings nothing new). */
  usesToken(token: string): boolean {
    return token === this.token;
  }

  /**
   * Whether the server accepts `token` (a Status call made with it). A page
   * that works asks before it trades its token for one that appeared in its
   * address: whatever put it there (a link, a script) is not trusted to
   * log the tab out. Network failures count as not accepted.
   */
  async acceptsToken(token: string): Promise<boolean> {
    try {
      const res = await fetch(`${this.baseUrl}/api/call/Status`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: '[]',
      });
      return res.ok;
    } catch {
      return false;
    }
  }

  /** Calls `fn` when tokenState() changes to "rejected". */
  onTokenRejected(fn: () => void): () => void {
    this.authListeners.add(fn);
    return () => this.authListeners.delete(fn);
  }

  private reject(): void {
    if (this.rejected) return;
    this.rejected = true;
    forgetToken();
    // Nothing will work: stop reconnecting ("Reconnecting…" forever helps nobody).
    this.close();
    for (const fn of this.authListeners) fn();
  }

  async call<M extends MethodName>(method: M, ...args: MethodArgs[M]): Promise<Result<M>> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/api/call/${method}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${this.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(args),
      });
    } catch (e) {
      throw toJunctureError(e);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      throw toJunctureError(e);
    }
    const parsed = text.trim() === '' ? { ok: true as const, value: null } : tryParseJson(text);
    if (!res.ok) {
      const refused = tokenRefused(res.status, this.token);
      if (refused && this.token) this.reject();
      if (parsed.ok && isObject(parsed.value)) {
        const err = errorFromObject(parsed.value);
        if (err) throw err;
      }
      if (headersTooLarge(res.status, this.token)) throw headersTooLargeError(this.baseUrl);
      if (refused || res.status === 403) {
        throw new JunctureError(
          'unauthorized',
          'This page is not authorised. Open Juncture from the link it printed when it started.',
        );
      }
      throw new JunctureError('http', `Juncture answered HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`);
    }
    if (!parsed.ok) throw new JunctureError('bad-response', `Unreadable answer to ${method}: ${parsed.error}`);
    return parseResult(method, parsed.value);
  }

  subscribe<N extends EventName>(name: N, handler: Handler<N>): () => void {
    const off = this.hub.on(name, handler);
    if (!this.es && !this.timer && !this.closed) this.connect();
    return off;
  }

  private connect(): void {
    this.timer = null;
    if (this.closed || !this.token || this.connecting) return; // without a token the server refuses: the page says so instead
    this.connecting = true;
    void this.streamTicket().then((ticket) => {
      this.connecting = false;
      if (this.closed) return; // closed meanwhile, or the token was refused
      if (ticket) this.open(ticket);
      else this.lost();
    });
  }

  /**
   * A single-use ticket for one connection of the stream, or '' when none
   * came (the stream retries with backoff; a 431 the token cannot explain,
   * headersTooLarge, too: cookies may be cleared meanwhile). A refused
   * token makes the page say so, as a refused call does. close() aborts
   * the request and its give-up timer at once; an answer that was already
   * on its way when it did counts for nothing.
   */
  private async streamTicket(): Promise<string> {
    const abort = new AbortController();
    const giveUp = setTimeout(() => abort.abort(), TICKET_TIMEOUT_MS);
    abort.signal.addEventListener('abort', () => clearTimeout(giveUp));
    this.ticketAbort = abort;
    try {
      const res = await fetch(`${this.baseUrl}/api/events/ticket`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${this.token}` },
        signal: abort.signal,
      });
      if (this.closed) return '';
      if (tokenRefused(res.status, this.token)) {
        this.reject();
        return '';
      }
      if (!res.ok) return '';
      const body = tryParseJson(await res.text());
      return body.ok && isObject(body.value) && isString(body.value.ticket) ? body.value.ticket : '';
    } catch {
      return ''; // the network, a closed server, no answer in time, or close()
    } finally {
      clearTimeout(giveUp);
      if (this.ticketAbort === abort) this.ticketAbort = null;
    }
  }

  private open(ticket: string): void {
    const resume = this.lastEventId ? `&lastEventId=${encodeURIComponent(this.lastEventId)}` : '';
    const es = new EventSource(`${this.baseUrl}/api/events?ticket=${encodeURIComponent(ticket)}${resume}`);
    this.es = es;
    es.onopen = () => {
      this.markOpened();
      this.openedAt = performance.now();
      const wasDown = this.disconnected;
      this.disconnected = false;
      if (this.everConnected && wasDown) this.hub.emit('connection', { state: 'reconnected' });
      else if (!this.everConnected) this.hub.emit('connection', { state: 'connected' });
      this.everConnected = true;
    };
    es.onmessage = (ev: MessageEvent) => {
      if (ev.lastEventId) this.lastEventId = ev.lastEventId;
      const raw = typeof ev.data === 'string' ? tryParseJson(ev.data) : { ok: false as const, error: 'binary' };
      if (!raw.ok || !isObject(raw.value) || !isString(raw.value.name)) return;
      const name = raw.value.name;
      if (name === 'resync') {
        // Missed events are gone on the server: reload what is shown.
        this.hub.emit('connection', { state: 'reconnected' });
        return;
      }
      if (!isServerEventName(name)) return;
      const data = parseEventData(name, raw.value.data);
      if (data) this.hub.emit(name, data);
    };
    es.onerror = () => {
      // Take over from the browser's retry, which would send the spent
      // ticket again at a fixed interval: close and reconnect with a new
      // ticket and backoff; after reconnecting the UI refetches.
      if (this.es !== es) return;
      es.close();
      this.es = null;
      // Backoff starts again only after a stream that stayed up: one that a
      // server (or proxy) accepts and drops at once would otherwise be
      // reopened, and the window reloaded, every half second for ever.
      if (this.openedAt !== null && performance.now() - this.openedAt >= STABLE_MS) this.attempt = 0;
      this.openedAt = null;
      this.lost();
    };
  }

  /** The stream is down (or never came up): say so once, and try again later. */
  private lost(): void {
    if (!this.disconnected) {
      this.disconnected = true;
      this.hub.emit('connection', { state: 'disconnected' });
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.timer) return;
    const delay = this.backoff(this.attempt);
    this.attempt += 1;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  copyText(text: string): Promise<void> {
    return webCopyText(text);
  }

  openExternal(url: string): boolean {
    return webOpenExternal(url);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.ticketAbort?.abort();
    this.ticketAbort = null;
    this.es?.close();
    this.es = null;
  }
}

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpTransport, MAX_TOKEN_LENGTH, forgetToken, resolveToken, tokenWasRefused, usableToken } from './http';
import { JunctureError } from './errors';
import { FakeEventSource, settle, ticketFetch } from '../test/fakeEventSource';

const TOKEN = '0123456789abcdef0123456789abcdef0123456789abcdef';

/** Storage that throws on every call: disabled, or its quota full in another tab. */
function throwingStorage(): Storage {
  const fail = () => {
    throw new DOMException('storage disabled', 'SecurityError');
  };
  return { getItem: fail, setItem: fail, removeItem: fail, clear: fail, key: fail, length: 0 } as unknown as Storage;
}

/** Makes window.sessionStorage `store` (or a getter that throws), restored by the returned function. */
function replaceSessionStorage(store: Storage | 'access-throws'): () => void {
  const original = Object.getOwnPropertyDescriptor(window, 'sessionStorage')!;
  Object.defineProperty(window, 'sessionStorage', {
    configurable: true,
    get: () => {
      if (store === 'access-throws') throw new DOMException('denied', 'SecurityError');
      return store;
    },
  });
  return () => Object.defineProperty(window, 'sessionStorage', original);
}

describe('a token longer than any the server issues', () => {
  afterEach(() => {
    sessionStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it('is dropped from the address like an unusable one, the stored token kept', () => {
    // Over the server's 64 KiB of headers, every request is answered 431.
    for (const huge of ['a'.repeat(MAX_TOKEN_LENGTH + 1), 'a'.repeat(70_000)]) {
      sessionStorage.setItem('juncture.token', 'good');
      window.history.replaceState(null, '', `/#token=${huge}&x=1`);
      expect(resolveToken()).toBe('good');
      expect(sessionStorage.getItem('juncture.token')).toBe('good');
      expect(window.location.hash).toBe('#x=1');
    }
    expect(usableToken(TOKEN)).toBe(true); // the server's own, with room to spare
    expect(usableToken('a'.repeat(MAX_TOKEN_LENGTH))).toBe(true);
  });

  it('stored by an older page, is not used', () => {
    sessionStorage.setItem('juncture.token', 'a'.repeat(70_000));
    expect(resolveToken()).toBe('');
  });
});

describe('a 431 answer (headers too large to read)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('for a token longer than any the page takes, is a refused token: the page says so instead of a generic error', async () => {
    // What Go's net/http sends for headers over MaxHeaderBytes, before any handler.
    const fetchMock = vi.fn(async () => new Response('431 Request Header Fields Too Large', { status: 431 }));
    vi.stubGlobal('fetch', fetchMock);
    const t = new HttpTransport({ token: 'x'.repeat(MAX_TOKEN_LENGTH + 1) });
    const heard: string[] = [];
    t.onTokenRejected(() => heard.push(t.tokenState()));
    await expect(t.call('Status')).rejects.toMatchObject({ code: 'unauthorized' });
    expect(heard).toEqual(['rejected']);
    expect(tokenWasRefused()).toBe(true);
    await expect(t.acceptsToken('y'.repeat(400))).resolves.toBe(false);
  });
});

describe('a 431 answer for a token of normal length', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  // A token the page takes is at most 512 of the server's 64 KiB of
  // headers: the rest is something else, most often cookies other local
  // apps left for 127.0.0.1. "Your token was refused" would send the
  // person after a new link that cannot help.
  it.each([TOKEN, 'x'.repeat(MAX_TOKEN_LENGTH)])('says the headers are too large, likely cookies, and keeps the token', async (token) => {
    sessionStorage.setItem('juncture.token', token);
    const fetchMock = vi.fn(async () => new Response('431 Request Header Fields Too Large', { status: 431 }));
    vi.stubGlobal('fetch', fetchMock);
    const t = new HttpTransport({ token });
    const heard: string[] = [];
    t.onTokenRejected(() => heard.push(t.tokenState()));
    const err: unknown = await t.call('Status').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JunctureError);
    expect(err).toMatchObject({ code: 'headers-too-large' });
    const message = (err as JunctureError).message;
    expect(message).toContain('431');
    expect(message).toMatch(/cookies/i);
    expect(message).toContain(window.location.hostname);
    expect(message).not.toMatch(/not authori[sz]ed|link it printed/i);
    expect(heard).toEqual([]);
    expect(t.tokenState()).toBe('ok');
    expect(tokenWasRefused()).toBe(false);
    expect(sessionStorage.getItem('juncture.token')).toBe(token);
  });
});

describe('storage that throws on every call', () => {
  let restore: () => void = () => {};
  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => {
    restore();
    restore = () => {};
    vi.unstubAllGlobals();
    window.history.replaceState(null, '', '/');
  });

  it('the fragment token is used for this page, taken out of the address, nothing thrown', () => {
    const store = throwingStorage();
    window.history.replaceState(null, '', `/#token=${TOKEN}&view=1`);
    expect(resolveToken(window.location, store)).toBe(TOKEN);
    expect(window.location.hash).toBe('#view=1');
    expect(tokenWasRefused(store)).toBe(false);
    expect(() => forgetToken(store)).not.toThrow();
    // A reload has nothing stored: the page says the token is missing.
    expect(resolveToken(window.location, store)).toBe('');
    expect(new HttpTransport({ token: '', refused: tokenWasRefused(store) }).tokenState()).toBe('missing');
  });

  it.each(['every call throws', 'access throws'] as const)(
    'with window.sessionStorage unusable (%s) the page works on its in-memory token and shows a refusal',
    async (how) => {
      restore = replaceSessionStorage(how === 'access throws' ? 'access-throws' : throwingStorage());
      window.history.replaceState(null, '', `/#token=${TOKEN}`);
      const token = resolveToken();
      expect(token).toBe(TOKEN);
      let refuse = false;
      const fetchMock = ticketFetch({
        refuse: () => (refuse ? 401 : undefined),
        other: () =>
          refuse
            ? new Response('', { status: 401 })
            : new Response('{"mode":"browser","configured":false,"endpoint":"","model":"","problem":""}', { status: 200 }),
      });
      vi.stubGlobal('fetch', fetchMock);
      const t = new HttpTransport({ token, refused: tokenWasRefused(), backoff: () => 10 });
      expect(t.tokenState()).toBe('ok');
      await expect(t.call('Status')).resolves.toMatchObject({ mode: 'browser' });
      t.subscribe('agui', () => undefined);
      await settle();
      expect(FakeEventSource.instances.map((es) => es.url)).toEqual(['/api/events?ticket=ticket-1']);
      // Juncture restarted with another token: the page says so, nothing thrown.
      refuse = true;
      await expect(t.call('Status')).rejects.toMatchObject({ code: 'unauthorized' });
      expect(t.tokenState()).toBe('rejected');
      expect(FakeEventSource.instances[0]!.closed).toBe(true);
    },
  );
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/preact';
import { TokenGate } from './TokenMissing';
import { HttpTransport } from '../../transport/http';
import { FakeTransport } from '../../test/fakeTransport';
import { Markdown } from '../chat/markdown/Markdown';
import { TransportContext } from '../../transport';

afterEach(() => vi.unstubAllGlobals());

describe('TokenGate', () => {
  it('shows "Open the link Juncture printed" instead of the app when the page has no token', () => {
    render(
      <TokenGate transport={new HttpTransport({ token: '' })}>
        <p>the app</p>
      </TokenGate>,
    );
    expect(screen.getByRole('heading', { name: 'Open the link Juncture printed' })).toBeTruthy();
    expect(screen.getByText(/carries the token/)).toBeTruthy();
    expect(screen.queryByText('the app')).toBeNull();
  });

  it('switches to it when the server refuses the token, and leaves the desktop window alone', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('', { status: 401 })));
    const t = new HttpTransport({ token: 'stale' });
    render(
      <TokenGate transport={t}>
        <p>the app</p>
      </TokenGate>,
    );
    expect(screen.getByText('the app')).toBeTruthy();
    await act(async () => {
      await t.call('Status').catch(() => {});
    });
    expect(screen.getByRole('heading', { name: 'Open the link Juncture printed' })).toBeTruthy();
    expect(screen.getByText(/did not accept this page’s access token/)).toBeTruthy();
    render(
      <TokenGate transport={new FakeTransport()}>
        <p>desktop app</p>
      </TokenGate>,
    );
    expect(screen.getByText('desktop app')).toBeTruthy();
  });

  it('takes a new link pasted into the address bar: only the #fragment changes, so the browser does not load the page', async () => {
    const reload = vi.fn();
    render(
      <TokenGate transport={new HttpTransport({ token: '', refused: true })} reload={reload}>
        <p>the app</p>
      </TokenGate>,
    );
    expect(screen.getByText(/did not accept this page’s access token/)).toBeTruthy();
    // Another fragment without a token: nothing to take.
    window.history.replaceState(null, '', '/#view=1');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(reload).not.toHaveBeenCalled();
    window.history.replaceState(null, '', '/#token=fresh');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(reload).toHaveBeenCalledTimes(1); // the page loads again and reads the token (resolveToken)
    window.history.replaceState(null, '', '/');
  });

  it('takes a new link on a working page too (Juncture restarted: the page still shows "Reconnecting…"), not its own again', async () => {
    const reload = vi.fn();
    const asked: string[] = [];
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
      asked.push(String((init.headers as Record<string, string>).Authorization));
      return Promise.resolve(new Response('{}', { status: 200 }));
    });
    render(
      <TokenGate transport={new HttpTransport({ token: 'ok' })} reload={reload}>
        <p>the app</p>
      </TokenGate>,
    );
    window.history.replaceState(null, '', '/#token=ok');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await act(async () => {});
    expect(reload).not.toHaveBeenCalled(); // the link this page was opened with: nothing new
    expect(asked).toEqual([]);
    window.history.replaceState(null, '', '/#token=other');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1)); // the server accepted it first
    expect(asked).toEqual(['Bearer other']);
    window.history.replaceState(null, '', '/');
  });

  it('keeps its own token on a working page when the server refuses the new one, and takes it out of the address', async () => {
    const reload = vi.fn();
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('', { status: 401 })));
    const t = new HttpTransport({ token: 'mine' });
    render(
      <TokenGate transport={t} reload={reload}>
        <p>the app</p>
      </TokenGate>,
    );
    window.history.replaceState(null, '', '/#token=planted&view=1');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await waitFor(() => expect(window.location.hash).toBe('#view=1'));
    expect(reload).not.toHaveBeenCalled();
    expect(t.tokenState()).toBe('ok');
    expect(screen.getByText('the app')).toBeTruthy();
    window.history.replaceState(null, '', '/');
  });

  // A model's answer is not trusted (a prompt injection in a page it read):
  // an in-page link it wrote must not change the page's token. Followed, it
  // put #token=… in the address, the page loaded again, took the planted
  // token, was refused, and the person's working tab was logged out.
  it("is not logged out by a link in a model's answer that carries a #token", async () => {
    const reload = vi.fn();
    const t = new HttpTransport({ token: 'good' });
    render(
      <TransportContext.Provider value={t}>
        <TokenGate transport={t} reload={reload}>
          <Markdown text={'Done. [Continue](#token=planted) · note[^1]\n\n[^1]: a footnote'} highlight={false} />
        </TokenGate>
      </TransportContext.Provider>,
    );
    screen.getByText('Continue').click();
    await new Promise((r) => setTimeout(r, 20)); // hashchange is a task
    expect(window.location.hash).not.toContain('token');
    expect(reload).not.toHaveBeenCalled();
    window.history.replaceState(null, '', '/');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/preact';
import { TokenGate } from './TokenMissing';
import { HttpTransport } from '../../transport/http';
import { FakeTransport } from '../../test/fakeTransport';

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
});

import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/preact';
import { UpdatePrompt } from './UpdatePrompt';
import { TransportContext } from '../../transport';
import { JunctureError } from '../../transport/errors';
import { FakeTransport } from '../../test/fakeTransport';
import type { UpdateStatus } from '../../transport/updates';

const OFFER: UpdateStatus = {
  settings: { feedUrl: 'https://juncture.app/releases/feed.json', off: false },
  current: '1.0.0',
  offer: { version: '1.1.0', notes: 'Faster start.', notesUrl: '', artifact: { url: 'u', size: 1, sha256: 'h', signature: 's' } },
  canUpdate: true,
};

function setup(apply: () => UpdateStatus | Promise<UpdateStatus>, status: UpdateStatus = OFFER) {
  const t = new FakeTransport({ CheckForUpdate: () => status, ApplyUpdate: apply });
  render(
    <TransportContext.Provider value={t}>
      <UpdatePrompt threadId="t-7" />
    </TransportContext.Provider>,
  );
  return t;
}

describe('UpdatePrompt', () => {
  it('says which version is available, shows what is new, and updates into the open chat', async () => {
    const t = setup(() => ({ ...OFFER, offer: undefined, restarting: true }));
    expect(await screen.findByText(/Version 1.1.0 is available/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: "what's new" }));
    expect(screen.getByText('Faster start.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Restarting into the new version…')).toBeTruthy();
    expect(t.callsOf('ApplyUpdate')).toEqual([['t-7']]);
  });

  it('a refused update says why and offers it again', async () => {
    setup(() => {
      throw new JunctureError('conflict', 'The download does not match its signed checksum: it was changed on the way. Nothing was installed.');
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Update' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/changed on the way/);
    expect(screen.getByRole('button', { name: 'Update' })).toBeTruthy();
  });

  it('shows nothing when there is no newer version', async () => {
    const t = setup(() => OFFER, { ...OFFER, offer: undefined });
    await Promise.resolve();
    expect(t.callsOf('CheckForUpdate').length).toBe(1);
    expect(screen.queryByRole('region', { name: 'Update available' })).toBeNull();
  });

  it('a package install is pointed at its package manager', async () => {
    setup(() => OFFER, { ...OFFER, managed: true });
    expect(await screen.findByText('Update it with your package manager.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Update' })).toBeNull();
  });
});

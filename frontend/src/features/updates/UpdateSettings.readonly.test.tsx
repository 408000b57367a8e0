import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/preact';
import { UpdateSettings } from './UpdateSettings';
import { TransportContext } from '../../transport';
import { FakeTransport } from '../../test/fakeTransport';
import { ReadOnlyCopyContext } from '../../lib/readOnlyCopy';
import type { UpdateStatus } from '../../transport/updates';

const STATUS: UpdateStatus = { settings: { feedUrl: 'https://juncture.app/releases/feed.json', off: false }, current: '1.0.0', canUpdate: true };

function setup(readOnlyCopy: boolean) {
  const t = new FakeTransport({ GetUpdateStatus: () => STATUS });
  render(
    <TransportContext.Provider value={t}>
      <ReadOnlyCopyContext.Provider value={readOnlyCopy}>
        <UpdateSettings />
      </ReadOnlyCopyContext.Provider>
    </TransportContext.Provider>,
  );
}

// A read-only copy of damaged data keeps the update settings in the copy's
// settings table, which Go refuses to write: they are shown, not changed.
describe('Updates in a read-only copy', () => {
  afterEach(cleanup);

  it('shows the settings without a way to change them', async () => {
    setup(true);
    const box = (await screen.findByRole('checkbox', { name: 'Check for updates' })) as HTMLInputElement;
    expect(box.checked).toBe(true);
    expect(box.disabled).toBe(true);
    expect((screen.getByRole('textbox', { name: 'Release feed' }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save feed' })).toBeNull();
  });

  it('lets them change when it is no copy', async () => {
    setup(false);
    const box = (await screen.findByRole('checkbox', { name: 'Check for updates' })) as HTMLInputElement;
    expect(box.disabled).toBe(false);
    expect(screen.getByRole('button', { name: 'Save feed' })).toBeTruthy();
  });
});

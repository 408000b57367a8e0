import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SettingsDialog } from './SettingsDialog';
import { FakeTransport } from '../../test/fakeTransport';
import { mcpConfigView, settingsView } from '../../test/builders';
import type { Status } from '../../transport/contract';

// A read-only copy of damaged data (Status.readOnly): Go refuses every
// save from it. Settings says so on every tab, and General offers no Save
// (its fields still show what the copy holds).
const COPY = '/home/p/.local/share/juncture/juncture.db.damaged-copy';
const STATUS: Status = { mode: 'desktop', configured: false, endpoint: '', model: '', readOnly: COPY };

function setup(status: Status | null) {
  const t = new FakeTransport({
    GetSettings: () => settingsView(),
    ListRules: () => [],
    ListMCPServers: () => [],
    GetMCPConfig: () => mcpConfigView([]),
  });
  render(<SettingsDialog open transport={t} status={status} onClose={() => {}} onSaved={() => {}} />);
  return t;
}

describe('Settings in a read-only copy', () => {
  afterEach(cleanup);

  it('says on every tab that nothing can be saved, and General offers no Save', async () => {
    setup(STATUS);
    await screen.findAllByLabelText('Tool steps per turn (1–200)');
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    for (const tab of screen.getAllByRole('tab')) {
      fireEvent.click(tab);
      expect(screen.getByText(/read-only copy of Juncture’s damaged history: settings can be looked at here, not saved/), tab.textContent ?? '').toBeTruthy();
    }
  });

  it('offers Save and says nothing of a copy when it is no copy', async () => {
    setup({ ...STATUS, readOnly: undefined });
    await screen.findAllByLabelText('Tool steps per turn (1–200)');
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
    expect(screen.queryByText(/read-only copy/)).toBeNull();
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { SettingsDialog } from './SettingsDialog';
import { FakeTransport } from '../../test/fakeTransport';
import { mcpConfigView, settingsView } from '../../test/builders';
import type { Status } from '../../transport/contract';
import type { Endpoint, Preset } from '../../transport/endpoints';

const ENDPOINTS: Endpoint[] = [
  { id: 'env', name: 'Environment', baseUrl: 'http://127.0.0.1:1/env', apiKey: '', models: [], prices: {}, source: 'environment', isDefault: true, defaultModel: 'm' },
  { id: 'ep-2', name: 'Second', baseUrl: 'http://127.0.0.1:1/ep-2', apiKey: '', models: [], prices: {}, source: 'saved', isDefault: false, defaultModel: 'x' },
];
const PRESETS: Preset[] = [
  { id: 'default', name: 'Default', instructions: '', endpointId: '', model: '', tools: null, builtin: true },
  { id: 'mine', name: 'Mine', instructions: 'Be brief.', endpointId: '', model: '', tools: null, builtin: false },
];

// A read-only copy of damaged data (Status.readOnly): Go refuses every
// save from it. Settings says so on every tab, and General offers no Save
// (its fields still show what the copy holds).
const COPY = '/home/p/.local/share/juncture/juncture.db.damaged-copy';
const STATUS: Status = { mode: 'desktop', configured: false, endpoint: '', model: '', readOnly: COPY };

function setup(status: Status | null) {
  const t = new FakeTransport({
    GetSettings: () => settingsView(),
    ListRules: () => [{ id: 'r3', tool: 'read_file', scope: 'tool', createdAt: 3, description: 'Allow every read_file call' }],
    ListMCPServers: () => [],
    GetMCPConfig: () => mcpConfigView([]),
    ListEndpoints: () => ENDPOINTS,
    ListPresets: () => PRESETS,
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
    expect(screen.queryByRole('heading', { name: 'Import conversations' })).toBeNull();
    for (const tab of screen.getAllByRole('tab')) {
      fireEvent.click(tab);
      expect(screen.getByText(/read-only copy of Juncture’s damaged history: settings can be looked at here, not saved/), tab.textContent ?? '').toBeTruthy();
    }
  });

  it('Endpoints and Presets are listed with nothing that saves, deletes or makes default', async () => {
    setup(STATUS);
    fireEvent.click(screen.getByRole('tab', { name: 'Endpoints' }));
    await screen.findByRole('listitem', { name: 'Second' });
    for (const name of ['Edit Second', 'Delete Second', 'Make default', 'Add an endpoint', 'Prices of Environment']) {
      expect(screen.queryByRole('button', { name }), name).toBeNull();
    }
    expect(screen.getAllByRole('button', { name: 'Test connection' }).length).toBe(2);
    fireEvent.click(screen.getByRole('tab', { name: 'Presets' }));
    await screen.findByRole('listitem', { name: 'Mine' });
    for (const name of ['Edit Mine', 'Delete Mine', 'Add a preset']) {
      expect(screen.queryByRole('button', { name }), name).toBeNull();
    }
  });

  it('Rules are listed and exported, not added, imported, revoked or given a new duration', async () => {
    setup(STATUS);
    fireEvent.click(screen.getByRole('tab', { name: 'Rules' }));
    await screen.findByText('Allow every read_file call');
    for (const name of ['Add a Never rule…', 'Import JSON…', 'Revoke']) {
      expect(screen.queryByRole('button', { name }), name).toBeNull();
    }
    expect(screen.queryByRole('combobox', { name: 'How long' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Export JSON…' })).toBeTruthy();
  });

  it('General shows what the copy holds in fields that take no typing, with no environment’s reason', async () => {
    setup(STATUS);
    await screen.findAllByLabelText('Tool steps per turn (1–200)');
    for (const name of ['Base URL', 'API key', 'Model', 'Workspace folder', 'Tool steps per turn (1–200)']) {
      const input = screen.getByLabelText(name, { selector: 'input' }) as HTMLInputElement;
      expect(input.readOnly, name).toBe(true);
    }
    expect(screen.getByLabelText<HTMLInputElement>('Tool steps per turn (1–200)').value).toBe('25');
    expect(screen.getByLabelText<HTMLInputElement>('Base URL').value).toBe('http://127.0.0.1:11434/v1');
    expect(screen.getByLabelText<HTMLSelectElement>('Endpoint').disabled).toBe(true);
    for (const box of screen.getAllByRole('checkbox')) expect((box as HTMLInputElement).disabled, box.parentElement?.textContent ?? '').toBe(true);
    for (const radio of screen.getAllByRole('radio')) expect(radio.matches(':disabled'), radio.parentElement?.textContent ?? '').toBe(true);
    // The copy's line says why; the environment's ("Set by …; restart") would not be true.
    expect(screen.queryByText(/Set by|environment variables Juncture was started with/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Test connection' })).toBeTruthy();
  });

  it('offers Save and says nothing of a copy when it is no copy', async () => {
    setup({ ...STATUS, readOnly: undefined });
    await screen.findAllByLabelText('Tool steps per turn (1–200)');
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
    expect(screen.queryByText(/read-only copy/)).toBeNull();
    for (const name of ['Base URL', 'API key', 'Model', 'Workspace folder', 'Tool steps per turn (1–200)']) {
      expect((screen.getByLabelText(name, { selector: 'input' }) as HTMLInputElement).readOnly, name).toBe(false);
    }
    expect(screen.getByLabelText<HTMLSelectElement>('Endpoint').disabled).toBe(false);
    for (const box of screen.getAllByRole('checkbox')) expect((box as HTMLInputElement).disabled).toBe(false);
    for (const radio of screen.getAllByRole('radio')) expect(radio.matches(':disabled')).toBe(false);
  });
});

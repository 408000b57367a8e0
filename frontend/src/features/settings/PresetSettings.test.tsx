import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { PresetSettings, presetSummary } from './PresetSettings';
import { PresetMenu } from '../sidebar/PresetMenu';
import { FakeTransport } from '../../test/fakeTransport';
import type { Endpoint, Preset } from '../../transport/endpoints';
import { JunctureError } from '../../transport/errors';
import { change } from '../../test/change';

function endpoint(p: Partial<Endpoint> & { id: string }): Endpoint {
  return { name: p.id, baseUrl: `http://127.0.0.1:1/${p.id}`, apiKey: '', models: [], prices: {}, source: 'saved', isDefault: false, defaultModel: '', ...p };
}

const ENDPOINTS = [
  endpoint({ id: 'env', name: 'Environment', source: 'environment', isDefault: true, defaultModel: 'fake-model' }),
  endpoint({ id: 'ep-2', name: 'Second', models: ['model-x', 'model-y'], defaultModel: 'model-x' }),
];

const SHIPPED: Preset[] = [
  { id: 'default', name: 'Default', instructions: '', endpointId: '', model: '', tools: null, builtin: true },
  { id: 'general', name: 'General assistant', instructions: 'Be concise.', endpointId: '', model: '', tools: null, builtin: true },
  { id: 'code-reviewer', name: 'Code reviewer', instructions: 'You review code.', endpointId: '', model: '', tools: ['list_files', 'read_file'], builtin: true },
];

function setup() {
  let list = SHIPPED.map((p) => ({ ...p }));
  const t = new FakeTransport({
    ListEndpoints: () => ENDPOINTS,
    ListMCPServers: () => [],
    ListPresets: () => list,
    SavePreset: (p) => {
      if (p.endpointId === 'gone') throw new JunctureError('invalid-settings', 'Some fields need a fix; nothing was saved.', { endpointId: 'This endpoint does not exist.' });
      const saved = { ...p, id: p.id || 'preset-new', builtin: SHIPPED.some((s) => s.id === p.id) };
      list = p.id ? list.map((x) => (x.id === p.id ? saved : x)) : [...list, saved];
      return saved;
    },
    DeletePreset: (id) => {
      list = list.filter((x) => x.id !== id);
      return null;
    },
  });
  render(<PresetSettings transport={t} />);
  return { t };
}

const row = (name: string) => screen.getByRole('listitem', { name });

describe('PresetSettings', () => {
  it('lists the default and the shipped presets with what each runs with', async () => {
    setup();
    await waitFor(() => expect(row('Code reviewer')).toBeTruthy());
    expect(within(row('Code reviewer')).getByText('shipped')).toBeTruthy();
    expect(within(row('Code reviewer')).getByText('Default endpoint · its default model · 2 tools')).toBeTruthy();
    expect(within(row('Default for new chats')).queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(within(row('Default for new chats')).getByText('No instructions.')).toBeTruthy();
  });

  it('edits a shipped preset: instructions, endpoint, model and tools', async () => {
    const { t } = setup();
    await waitFor(() => expect(row('Code reviewer')).toBeTruthy());
    fireEvent.click(within(row('Code reviewer')).getByRole('button', { name: 'Edit Code reviewer' }));
    const form = screen.getByRole('form', { name: 'Edit Code reviewer' });
    change(within(form).getByLabelText('Instructions'), { target: { value: 'Review strictly.' } });
    change(within(form).getByLabelText('Endpoint'), { target: { value: 'ep-2' } });
    expect(within(form).getByLabelText('Model').getAttribute('placeholder')).toBe('The endpoint’s default (model-x)');
    change(within(form).getByLabelText('Model'), { target: { value: 'model-y' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Run commands' }));
    fireEvent.click(within(form).getByRole('checkbox', { name: 'List files' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save preset' }));
    await waitFor(() => expect(t.callsOf('SavePreset')).toHaveLength(1));
    expect(t.callsOf('SavePreset')[0]![0]).toEqual({
      id: 'code-reviewer', name: 'Code reviewer', instructions: 'Review strictly.', endpointId: 'ep-2', model: 'model-y', tools: ['read_file', 'run_command'], builtin: true,
    });
    await waitFor(() => expect(within(row('Code reviewer')).getByText('Second · model-y · 2 tools')).toBeTruthy());
  });

  it('edits the default’s instructions only, and offers every tool again', async () => {
    const { t } = setup();
    await waitFor(() => expect(row('Default for new chats')).toBeTruthy());
    fireEvent.click(within(row('Default for new chats')).getByRole('button', { name: 'Edit the default for new chats' }));
    const form = screen.getByRole('form');
    expect(within(form).queryByLabelText('Name')).toBeNull();
    expect(within(form).queryByLabelText('Endpoint')).toBeNull();
    change(within(form).getByLabelText('Instructions'), { target: { value: 'Always answer in French.' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save preset' }));
    await waitFor(() => expect(t.callsOf('SavePreset')[0]![0]).toMatchObject({ id: 'default', instructions: 'Always answer in French.', tools: null }));
  });

  it('adds a preset, shows Go’s field errors, and deletes one after asking', async () => {
    const { t } = setup();
    await waitFor(() => expect(row('Code reviewer')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Add a preset' }));
    const form = screen.getByRole('form', { name: 'Add a preset' });
    fireEvent.click(within(form).getByRole('button', { name: 'Save preset' }));
    expect(within(form).getByRole('alert').textContent).toBe('Give the preset a name.');
    expect(t.callsOf('SavePreset')).toHaveLength(0);
    change(within(form).getByLabelText('Name'), { target: { value: 'Tutor' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save preset' }));
    await waitFor(() => expect(row('Tutor')).toBeTruthy());
    fireEvent.click(within(row('Tutor')).getByRole('button', { name: 'Delete Tutor' }));
    fireEvent.click(within(screen.getByRole('alertdialog', { name: 'Delete Tutor?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Tutor' })).toBeNull());
    expect(t.callsOf('DeletePreset')).toEqual([['preset-new']]);
  });

  it('summarises where a preset runs', () => {
    const p: Preset = { id: 'x', name: 'X', instructions: '', endpointId: 'gone', model: '', tools: [], builtin: false };
    expect(presetSummary(p, ENDPOINTS)).toBe('gone (not available) · its default model · no tools');
  });
});

describe('PresetMenu', () => {
  it('starts a new chat from a preset, operated with the keyboard', async () => {
    const t = new FakeTransport({ ListPresets: () => SHIPPED });
    const onPick = vi.fn();
    render(<PresetMenu transport={t} onPick={onPick} />);
    const btn = screen.getByRole('button', { name: 'New chat from a preset' });
    await waitFor(() => expect(t.callsOf('ListPresets')).toHaveLength(1));
    fireEvent.click(btn);
    const menu = screen.getByRole('menu', { name: 'New chat from a preset' });
    const items = within(menu).getAllByRole('menuitem');
    // Each preset by its name (its description is read after it); then "Manage presets…" when offered (not here).
    expect(items.map((i) => i.getAttribute('aria-label') ?? i.textContent)).toEqual(['General assistant', 'Code reviewer']); // not the default: that is New chat
    await waitFor(() => expect(document.activeElement).toBe(items[0]));
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    fireEvent.click(items[1]!);
    expect(onPick).toHaveBeenCalledWith('code-reviewer');
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(btn);
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(btn);
  });
});

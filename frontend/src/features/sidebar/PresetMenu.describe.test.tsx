import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { PresetMenu, presetDescription } from './PresetMenu';
import { ThreadHeader } from '../chat/ThreadHeader';
import { FakeTransport } from '../../test/fakeTransport';
import type { Preset } from '../../transport/endpoints';

const PRESETS: Preset[] = [
  { id: 'default', name: 'Default', instructions: '', endpointId: '', model: '', tools: null, builtin: true },
  { id: 'p-res', name: 'Researcher', instructions: 'You research carefully.\nCite sources.', endpointId: '', model: 'model-x', tools: ['read_file', 'list_files'], builtin: false },
  { id: 'p-chat', name: 'Just chat', instructions: '', endpointId: '', model: '', tools: [], builtin: false },
];

const transport = () => new FakeTransport({ ListPresets: () => PRESETS, ListEndpoints: () => [] });

describe('Presets in the window', () => {
  it('TestPresetMenuDescriptionsAndManage: the menu describes each preset and links to manage them', async () => {
    const onManage = vi.fn();
    const onPick = vi.fn();
    render(<PresetMenu transport={transport()} onPick={onPick} onManage={onManage} />);
    fireEvent.click(screen.getByRole('button', { name: 'New chat from a preset' }));
    const menu = await screen.findByRole('menu');
    const res = await within(menu).findByRole('menuitem', { name: 'Researcher' });
    expect(res.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(menu).getByText('model-x · 2 tools: read_file, list_files · You research carefully.')).toBeTruthy();
    expect(within(menu).getByText('default model · no tools')).toBeTruthy();
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Manage presets…' }));
    expect(onManage).toHaveBeenCalledTimes(1);
    expect(onPick).not.toHaveBeenCalled();
  });

  it('describes a long first line short', () => {
    expect(presetDescription({ ...PRESETS[1]!, instructions: 'x'.repeat(200) })).toMatch(/x{70}…$/);
  });

  it('TestChatFromPresetSaysWhichPreset: the header names the preset and its tools', async () => {
    render(
      <ThreadHeader transport={transport()} threadId="th-1" options={{ systemPrompt: '', presetId: 'p-res', tools: ['read_file', 'list_files'] }} onThreadCreated={() => {}} />,
    );
    const note = await screen.findByRole('note', { name: 'Started from the preset Researcher; 2 tools: read_file, list_files' });
    expect(note.textContent).toContain('Researcher');
    expect(note.textContent).toContain('2 tools');
  });

  it('a chat not from a preset shows no preset', () => {
    render(<ThreadHeader transport={transport()} threadId="th-1" options={{ systemPrompt: '' }} onThreadCreated={() => {}} />);
    expect(screen.queryByRole('note')).toBeNull();
  });
});

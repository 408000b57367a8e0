import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { SettingsDialog } from './SettingsDialog';
import { FakeTransport } from '../test/fakeTransport';
import { mcpConfigView, mcpServer } from '../test/builders';
import type { SettingsView } from '../transport/contract';

const VIEW: SettingsView = {
  settings: {
    baseUrl: 'http://127.0.0.1:11434/v1',
    apiKey: '',
    model: 'llama3.1',
    workspace: '/home/ada',
    loopGuard: 25,
    theme: 'system',
    enableWriteTools: false,
    modelAcceptsImages: false,
  },
  sources: {},
};

function setup() {
  const t = new FakeTransport({
    GetSettings: () => VIEW,
    ListPermissionRules: () => [
      { id: 'r1', tool: 'mcp:everything', scope: 'server', pattern: 'everything', createdAt: 1 },
      { id: 'r2', tool: 'everything__echo', scope: 'tool-identity', pattern: 'fp', createdAt: 2 },
      { id: 'r3', tool: 'read_file', scope: 'tool', createdAt: 3 },
    ],
    ListMCPServers: () => [mcpServer('everything', [{ name: 'echo', title: 'Echo' }], { title: 'Everything' })],
    GetMCPConfig: () => mcpConfigView([{ name: 'everything', config: { command: 'npx' } }]),
  });
  render(<SettingsDialog open transport={t} status={null} onClose={() => {}} onSaved={() => {}} />);
  return t;
}

describe('SettingsDialog', () => {
  it('labels MCP rules by the server’s and the tool’s titles', async () => {
    setup();
    expect(await screen.findByText('Every tool of Everything')).toBeTruthy();
    const identity = (await screen.findByText('Echo')).closest('li')!;
    expect(identity.textContent).toContain('(Everything) always, while its server keeps the tool as it was');
    expect(screen.getByText('read_file').closest('li')!.textContent).toContain('read_file always');
  });

  it('has a "Tool servers (MCP)" tab that mounts the MCP section (saved at once: no Save button)', async () => {
    const t = setup();
    await screen.findByText('Every tool of Everything');
    expect(t.callsOf('GetMCPConfig')).toEqual([]);
    const tab = screen.getByRole('tab', { name: 'Tool servers (MCP)' });
    expect(tab.getAttribute('aria-selected')).toBe('false');
    fireEvent.click(tab);
    expect(tab.getAttribute('aria-selected')).toBe('true');
    const panel = screen.getByRole('tabpanel', { name: 'Tool servers (MCP)' });
    expect(within(panel).getByRole('heading', { name: 'Tool servers (MCP)' })).toBeTruthy();
    expect(await within(panel).findByRole('listitem', { name: 'everything' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    // Arrow keys move between tabs.
    fireEvent.keyDown(tab, { key: 'ArrowLeft' });
    expect(screen.getByRole('tab', { name: 'General' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
  });
});

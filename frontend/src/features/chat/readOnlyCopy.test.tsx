import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { Composer } from './Composer';
import { EmptyState } from './EmptyState';
import { McpSettings } from '../mcp/McpSettings';
import { FakeTransport } from '../../test/fakeTransport';
import { mcpConfigView, mcpServer } from '../../test/builders';

// A read-only copy of damaged data (Status.readOnly, its path): the window
// says so where the person would act, instead of letting every action fail
// with Go's refusal. Go refuses them all the same (app.writable,
// mcp.ErrReadOnly); this is what the person sees first.
const COPY = '/home/p/.local/share/juncture/juncture.db.damaged-copy';

describe('a read-only copy', () => {
  afterEach(cleanup);

  it('the composer says what the copy is, takes no text and offers no settings', () => {
    const send = vi.fn(async () => {});
    render(
      <Composer
        status="idle"
        configured={false}
        problem="The history database is damaged. You are browsing a read-only copy; nothing new can be saved."
        readOnlyCopy={COPY}
        onOpenSettings={() => {}}
        onSend={send}
        onStop={async () => {}}
        queued={[]}
        onRemoveQueued={async () => {}}
      />,
    );
    const note = screen.getByRole('status');
    expect(note.textContent).toContain('read-only copy');
    expect(note.textContent).toContain(COPY);
    expect(screen.queryByRole('button', { name: 'Open settings' })).toBeNull();
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    expect(box.disabled).toBe(true);
    expect(box.placeholder).toBe('A read-only copy: nothing can be sent');
    expect((screen.getByRole('button', { name: 'Attach files' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByText(/Enter to send/)).toBeNull(); // no hint about sending
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(send).not.toHaveBeenCalled();
  });

  it('Settings → Tool servers shows the servers and offers nothing that changes them', async () => {
    const t = new FakeTransport({
      GetMCPConfig: () => mcpConfigView([{ name: 'files', config: { command: 'mcp-files' } }]),
      ListMCPServers: () => [mcpServer('files', [{ name: 'read', title: 'Read' }])],
    });
    render(<McpSettings transport={t} locked />);
    const row = await screen.findByRole('listitem', { name: 'files' });
    for (const name of ['Disable files', 'Edit files', 'Remove files']) {
      expect((within(row).getByRole('button', { name }) as HTMLButtonElement).disabled, name).toBe(true);
    }
    for (const name of ['Add server…', 'Import from Claude Desktop…', 'Edit as text']) {
      expect(screen.queryByRole('button', { name }), name).toBeNull();
    }
    expect(t.calls.filter((c) => c.method !== 'GetMCPConfig' && c.method !== 'ListMCPServers')).toEqual([]);
  });

  it('Settings → Tool servers offers every change when it is no copy', async () => {
    const t = new FakeTransport({
      GetMCPConfig: () => mcpConfigView([{ name: 'files', config: { command: 'mcp-files' } }]),
      ListMCPServers: () => [mcpServer('files', [{ name: 'read', title: 'Read' }])],
    });
    render(<McpSettings transport={t} />);
    const row = await screen.findByRole('listitem', { name: 'files' });
    for (const name of ['Disable files', 'Edit files', 'Remove files']) {
      expect((within(row).getByRole('button', { name }) as HTMLButtonElement).disabled, name).toBe(false);
    }
    expect(screen.getByRole('button', { name: 'Add server…' })).toBeTruthy();
    expect(screen.queryByText(/read-only copy/)).toBeNull();
  });
});

describe('a new chat in a read-only copy', () => {
  afterEach(cleanup);

  it('says the copy is for reading, and offers no model to connect', () => {
    render(
      <EmptyState
        status={{ mode: 'desktop', configured: false, endpoint: '', model: '', readOnly: COPY, problem: 'The history database is damaged.' }}
        onOpenSettings={() => {}}
      />,
    );
    expect(screen.getByRole('region', { name: 'Read-only copy' }).textContent).toContain('Nothing new can be sent or saved');
    expect(screen.queryByRole('button')).toBeNull();
  });
});

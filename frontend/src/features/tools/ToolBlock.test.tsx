import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/preact';
import { ToolBlock } from './ToolBlock';
import { TransportContext } from '../../transport';
import { FakeTransport } from '../../test/fakeTransport';
import { mcpServer } from '../../test/builders';
import type { ToolCallView } from '../../state/types';
import { ReadOnlyCopyContext } from '../../lib/readOnlyCopy';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function tool(p: Partial<ToolCallView> = {}): ToolCallView {
  return {
    id: 'tc',
    name: 'everything__longRunningOperation',
    args: '{"duration":10}',
    argsComplete: true,
    messageId: 'm1',
    state: 'running',
    ...p,
  };
}

function setup(t: ToolCallView, transport = new FakeTransport({ ListMCPServers: () => [] })) {
  const r = render(
    <TransportContext.Provider value={transport}>
      <ToolBlock tool={t} />
    </TransportContext.Provider>,
  );
  return { ...r, transport };
}

describe('ToolBlock', () => {
  it('shows the MCP tool by its own title, with the server’s title', async () => {
    const transport = new FakeTransport({
      ListMCPServers: () => [
        mcpServer('everything', [{ name: 'longRunningOperation', title: 'Long operation' }], { title: 'Everything server' }),
      ],
    });
    setup(tool(), transport);
    expect(await screen.findByText('Long operation')).toBeTruthy();
    expect(screen.getByText('Everything server')).toBeTruthy();
    expect(screen.queryByText('everything__longRunningOperation')).toBeNull();
    expect(transport.callsOf('ListMCPServers')).toHaveLength(1);
  });

  it('reloads the catalog on the "mcp" event', async () => {
    let title = 'Old title';
    const transport = new FakeTransport({
      ListMCPServers: () => [mcpServer('everything', [{ name: 'longRunningOperation', title }])],
    });
    setup(tool(), transport);
    await screen.findByText('Old title');
    title = 'New title';
    await act(async () => transport.emit('mcp', {}));
    expect(await screen.findByText('New title')).toBeTruthy();
    expect(transport.callsOf('ListMCPServers')).toHaveLength(2);
  });

  it('keeps the model name of a tool the catalog does not know', () => {
    setup(tool({ name: 'read_file', state: 'done', result: 'x' }), new FakeTransport());
    expect(screen.getByText('read_file')).toBeTruthy();
  });

  it('shows a determinate progress bar with the server’s message while running', () => {
    setup(tool({ progress: { progress: 3, total: 10, message: 'Step 3 of 10' } }));
    const bar = screen.getByRole('progressbar', { name: /Progress of/ }) as HTMLProgressElement;
    expect(bar.getAttribute('value')).toBe('3');
    expect(bar.getAttribute('max')).toBe('10');
    expect(screen.getByText('Step 3 of 10')).toBeTruthy();
    expect(screen.getByText('30%')).toBeTruthy();
  });

  it('shows an indeterminate bar when the total is unknown, and none once the call is done', () => {
    const { rerender, transport } = setup(tool({ progress: { progress: 2, message: 'Working' } }));
    const bar = screen.getByRole('progressbar') as HTMLProgressElement;
    expect(bar.hasAttribute('value')).toBe(false);
    expect(screen.getByText('Working')).toBeTruthy();
    rerender(
      <TransportContext.Provider value={transport}>
        <ToolBlock tool={tool({ state: 'done', result: 'ok', progress: { progress: 2 } })} />
      </TransportContext.Provider>,
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('shows an image part as a thumbnail that opens full size; Esc closes it', () => {
    setup(tool({ state: 'done', result: 'ok', parts: [{ kind: 'image', mimeType: 'image/png', data: PNG, name: 'tiny.png' }] }));
    const thumb = screen.getByRole('button', { name: 'Show full size: tiny.png' });
    const img = within(thumb).getByRole('img', { name: 'tiny.png' }) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe(`data:image/png;base64,${PNG}`);
    fireEvent.click(thumb);
    const dialog = screen.getByRole('dialog', { name: 'tiny.png' });
    expect(within(dialog).getByRole('img', { name: 'tiny.png' })).toBeTruthy();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('never shows an image of another type (no data: URL for svg)', () => {
    const { container } = setup(
      tool({ state: 'done', result: 'ok', parts: [{ kind: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz48L3N2Zz4=' }] }),
    );
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText(/not shown/)).toBeTruthy();
  });

  it('a link part asks “Open example.com?” before opening, like open_url', async () => {
    const { transport, container } = setup(
      tool({ state: 'done', result: 'ok', parts: [{ kind: 'link', uri: 'https://example.com/report?id=7', title: 'Report' }] }),
    );
    expect(container.querySelector('a[href]')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Report/ }));
    expect(transport.opened).toEqual([]);
    const ask = screen.getByRole('group', { name: 'Open example.com?' });
    expect(within(ask).getByText('https://example.com/report?id=7')).toBeTruthy();
    // Cancel opens nothing.
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(transport.opened).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: /Report/ }));
    await act(async () => {
      fireEvent.click(within(screen.getByRole('group', { name: 'Open example.com?' })).getByRole('button', { name: 'Open' }));
    });
    expect(transport.opened).toEqual(['https://example.com/report?id=7']);
    expect(await screen.findByText('Opened')).toBeTruthy();
  });

  it('a link to another scheme is shown as text, never opened', () => {
    setup(tool({ state: 'done', result: 'ok', parts: [{ kind: 'link', uri: 'javascript:alert(1)', title: 'Click me' }] }));
    expect(screen.queryByRole('button', { name: /Click me/ })).toBeNull();
    expect(screen.getByText('Click me')).toBeTruthy();
  });

  it('shows structured content and embedded text resources in collapsible blocks', () => {
    const { container } = setup(
      tool({
        state: 'done',
        result: 'ok',
        parts: [
          { kind: 'structured', json: { temperature: 21, unit: 'C' } },
          { kind: 'resource', uri: 'file:///notes.md', name: 'notes.md', mimeType: 'text/markdown', data: '# Notes' },
        ],
      }),
    );
    const blocks = container.querySelectorAll('details.tool-collapsible');
    expect(blocks).toHaveLength(2);
    expect(blocks[0]!.textContent).toContain('"temperature": 21');
    expect(blocks[1]!.querySelector('summary')!.textContent).toContain('notes.md');
    expect(blocks[1]!.textContent).toContain('# Notes');
  });
});

describe('a call a rule let through', () => {
  it('says which rule and revokes it', async () => {
    const t = new FakeTransport({ RevokePermissionRule: () => null, ListMCPServers: () => [] });
    const tool = { id: 'c', name: 'write_file', args: '{}', argsComplete: true, messageId: 'm', state: 'done' as const,
      allowedBy: { id: 'rule-1', tool: 'write_file', scope: 'thread' as const, pattern: 'th', createdAt: 1 } };
    render(
      <TransportContext.Provider value={t}>
        <ToolBlock tool={tool} />
      </TransportContext.Provider>,
    );
    expect(screen.getByText(/Allowed by your rule \(write_file in this chat\)/)).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    });
    expect(t.callsOf('RevokePermissionRule')).toEqual([['rule-1']]);
    expect(screen.getByText(/Rule revoked/)).toBeTruthy();
  });
});

describe('a call a rule let through, in a read-only copy', () => {
  it('says which rule, and offers no Revoke (the copy cannot change its rules)', () => {
    const t = new FakeTransport({ RevokePermissionRule: () => null, ListMCPServers: () => [] });
    const tool = { id: 'c', name: 'write_file', args: '{}', argsComplete: true, messageId: 'm', state: 'done' as const,
      allowedBy: { id: 'rule-1', tool: 'write_file', scope: 'thread' as const, pattern: 'th', createdAt: 1 } };
    render(
      <TransportContext.Provider value={t}>
        <ReadOnlyCopyContext.Provider value>
          <ToolBlock tool={tool} />
        </ReadOnlyCopyContext.Provider>
      </TransportContext.Provider>,
    );
    expect(screen.getByText(/Allowed by your rule \(write_file in this chat\)/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Revoke' })).toBeNull();
  });
});

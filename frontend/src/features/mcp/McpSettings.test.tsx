import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { McpSettings, STARTING_POLL_MS } from './McpSettings';
import { configFromDraft, draftFromConfig, emptyDraft, parseEnv, validateDraft } from './McpServerForm';
import { offsetOf } from './McpConfigText';
import { FakeTransport } from '../../test/fakeTransport';
import { mcpConfigView, mcpServer } from '../../test/builders';
import { JunctureError } from '../../transport/errors';
import type { McpConfigView, McpServerConfig, McpServerStatus } from '../../transport/contract';
import { change } from '../../test/change';

const everything = { name: 'everything', config: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } };
const web = { name: 'web', config: { url: 'https://mcp.example.com/mcp', headers: { Authorization: '••••abcd' } } };

function statuses(): McpServerStatus[] {
  return [
    mcpServer(
      'everything',
      [
        { name: 'echo', title: 'Echo', readOnly: true },
        { name: 'delete', title: 'Delete things', destructive: true },
        { name: 'peek', title: 'Peek', claimsReadOnly: true },
      ],
      { title: 'Everything', sandbox: 'sandbox: landlock (writes: /ws, a private temporary folder; network: any)' },
    ),
    mcpServer('web', [], { transport: 'http', status: 'error', error: 'connection refused', restarts: 3, nextRetry: Date.now() + 4500 }),
  ];
}

function setup(view: McpConfigView = mcpConfigView([everything, web]), list: () => McpServerStatus[] = statuses, more = {}) {
  const t = new FakeTransport({
    GetMCPConfig: () => view,
    ListMCPServers: list,
    ...more,
  });
  render(<McpSettings transport={t} />);
  return t;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('McpSettings', () => {
  it('lists the servers with status, transport, tools and their badges', async () => {
    setup();
    const e = await screen.findByRole('listitem', { name: 'everything' });
    expect(within(e).getByText('Ready')).toBeTruthy();
    expect(within(e).getByText('Everything')).toBeTruthy();
    expect(within(e).getByText('Program (stdio)')).toBeTruthy();
    expect(within(e).getByText('npx -y @modelcontextprotocol/server-everything')).toBeTruthy();
    expect(within(e).getByLabelText('Sandbox').textContent).toBe('sandbox: landlock (writes: /ws, a private temporary folder; network: any)');
    const echo = within(e).getByText('Echo').closest('li')!;
    expect(within(echo).getByText('read-only')).toBeTruthy();
    expect(within(within(e).getByText('Delete things').closest('li')!).getByText('destructive')).toBeTruthy();
    expect(
      within(within(e).getByText('Peek').closest('li')!).getByText(
        'Says read-only now; Juncture keeps asking because it said otherwise when first seen',
      ),
    ).toBeTruthy();

    const w = screen.getByRole('listitem', { name: 'web' });
    expect(within(w).getByText('Error')).toBeTruthy();
    expect(within(w).getByText('connection refused')).toBeTruthy();
    expect(within(w).getByText(/restarting in 5 s/)).toBeTruthy();
    expect(within(w).getByText('restarted 3 times')).toBeTruthy();
    expect(within(w).getByText('URL (HTTP)')).toBeTruthy();
  });

  it('the add form saves a stdio server with arguments split by line and the environment parsed', async () => {
    const t = setup(mcpConfigView([]), () => [], {
      SaveMCPServer: (_prev: string, name: string, cfg: McpServerConfig) => mcpConfigView([{ name, config: cfg }]),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add server…' }));
    const form = screen.getByRole('form', { name: 'Add a tool server' });
    // Field errors inline.
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Add server' }));
    });
    expect(within(form).getByText('Give the server a name.')).toBeTruthy();
    expect(within(form).getByText('Enter the program to run.')).toBeTruthy();
    expect(t.callsOf('SaveMCPServer')).toEqual([]);

    change(within(form).getByLabelText('Name'), { target: { value: ' files ' } });
    change(within(form).getByLabelText('Command'), { target: { value: 'npx' } });
    change(within(form).getByLabelText('Arguments'), {
      target: { value: '-y\n@modelcontextprotocol/server-filesystem\n\n/home/ada/My Notes\n' },
    });
    change(within(form).getByLabelText('Environment'), { target: { value: 'LOG_LEVEL=debug\nTOKEN=a=b=c' } });
    change(within(form).getByLabelText('Working folder'), { target: { value: '/home/ada' } });
    change(within(form).getByLabelText('Approval'), { target: { value: 'ask' } });
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Add server' }));
    });
    expect(t.callsOf('SaveMCPServer')).toEqual([
      [
        '',
        'files',
        {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/ada/My Notes'],
          env: { LOG_LEVEL: 'debug', TOKEN: 'a=b=c' },
          cwd: '/home/ada',
          approval: 'ask',
        },
      ],
    ]);
    expect(screen.queryByRole('form')).toBeNull();
    expect(await screen.findByRole('listitem', { name: 'files' })).toBeTruthy();
  });

  it('editing an HTTP server keeps masked headers as they are (the saved secret stays)', async () => {
    const t = setup(mcpConfigView([web]), () => [], {
      SaveMCPServer: () => mcpConfigView([web]),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit web' }));
    const form = screen.getByRole('form', { name: 'Edit web' });
    expect((within(form).getByLabelText('Headers') as HTMLTextAreaElement).value).toBe('Authorization: ••••abcd');
    expect(within(form).getByText(/leave them as they are to keep the saved value/)).toBeTruthy();
    expect(within(form).getByText(/hints, not guarantees/)).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Save server' }));
    });
    expect(t.callsOf('SaveMCPServer')).toEqual([
      ['web', 'web', { url: 'https://mcp.example.com/mcp', headers: { Authorization: '••••abcd' } }],
    ]);
  });

  it('a refused save stays in the form with Go’s message', async () => {
    setup(mcpConfigView([]), () => [], {
      SaveMCPServer: () => {
        throw new JunctureError('conflict', 'A server called "a" is already configured.');
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add server…' }));
    const form = screen.getByRole('form', { name: 'Add a tool server' });
    change(within(form).getByLabelText('Name'), { target: { value: 'a' } });
    fireEvent.click(within(form).getByLabelText('URL (HTTP)'));
    change(within(form).getByLabelText('URL'), { target: { value: 'ftp://x' } });
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Add server' }));
    });
    expect(within(form).getByText('Enter an http:// or https:// URL.')).toBeTruthy();
    change(within(form).getByLabelText('URL'), { target: { value: 'https://x.example/mcp' } });
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Add server' }));
    });
    expect((await within(form).findByRole('alert')).textContent).toBe('Not saved: A server called "a" is already configured.');
  });

  it('Restart, Disable and Remove (after a confirmation) call Go for that server', async () => {
    const t = setup(undefined, statuses, {
      RestartMCPServer: () => null,
      SetMCPServerEnabled: () => mcpConfigView([{ ...everything, config: { ...everything.config, disabled: true } }, web]),
      DeleteMCPServer: () => mcpConfigView([everything]),
    });
    const restart = await screen.findByRole('button', { name: 'Restart everything' });
    await act(async () => {
      fireEvent.click(restart);
    });
    expect(t.callsOf('RestartMCPServer')).toEqual([['everything']]);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Disable everything' }));
    });
    expect(t.callsOf('SetMCPServerEnabled')).toEqual([['everything', false]]);
    expect(within(screen.getByRole('listitem', { name: 'everything' })).getByText('Disabled')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Enable everything' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Remove web' }));
    expect(t.callsOf('DeleteMCPServer')).toEqual([]);
    const confirm = screen.getByRole('group', { name: 'Remove web?' });
    await act(async () => {
      fireEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    });
    expect(t.callsOf('DeleteMCPServer')).toEqual([['web']]);
  });

  it('Show log reads the server’s log into a scrollable block, and Refresh reads it again', async () => {
    let n = 0;
    const t = setup(undefined, statuses, { MCPServerLog: () => `line ${++n}` });
    fireEvent.click(await screen.findByRole('button', { name: 'Show log of web' }));
    const log = await screen.findByLabelText('Log of web');
    await waitFor(() => expect(log.textContent).toBe('line 1'));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Refresh the log of web' }));
    });
    expect(screen.getByLabelText('Log of web').textContent).toBe('line 2');
    expect(t.callsOf('MCPServerLog')).toEqual([['web'], ['web']]);
  });

  it('a configuration that does not parse: a banner, the text editor open with the error, and Save text', async () => {
    const broken = mcpConfigView([], {
      text: '{\n  "mcpServers": {\n    "a": { "command": "x" },,\n  }\n}',
      error: { line: 3, column: 30, message: "invalid character ',' looking for beginning of object key string" },
    });
    const t = setup(broken, () => [], {
      SaveMCPConfigText: (text: string) => {
        if (text.includes(',,')) {
          throw new JunctureError('invalid-argument', 'line 3, column 30: still broken', { line: '3', column: '30' });
        }
        return mcpConfigView([{ name: 'a', config: { command: 'x' } }]);
      },
    });
    const banner = await screen.findByText(/mcp\.json does not parse/);
    expect(banner.textContent).toBe(
      "mcp.json does not parse: line 3, column 30: invalid character ',' looking for beginning of object key string; nothing from it was started. Fix it below.",
    );
    const ta = screen.getByLabelText('/home/ada/.config/juncture/mcp.json') as HTMLTextAreaElement;
    // The caret moves in an effect, after the banner's paint.
    await waitFor(() => expect(document.activeElement).toBe(ta));
    expect(ta.selectionStart).toBe(offsetOf(ta.value, 3, 30));
    expect(screen.queryByRole('button', { name: 'Add server…' })).toBeNull();
    // Saving the still-broken text shows Go's position.
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save text' }));
    });
    expect(screen.getByText('line 3, column 30: still broken')).toBeTruthy();
    change(ta, { target: { value: '{"mcpServers": {"a": {"command": "x"}}}' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save text' }));
    });
    expect(t.callsOf('SaveMCPConfigText')).toHaveLength(2);
    expect(screen.queryByText(/does not parse/)).toBeNull();
    expect(screen.getByRole('listitem', { name: 'a' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save text' })).toBeNull();
  });

  it('imports a Claude Desktop file and shows what was added and skipped', async () => {
    const t = setup(mcpConfigView([]), () => [], {
      ImportClaudeConfig: () => ({ added: ['github'], skipped: [{ name: 'everything', reason: 'already configured the same way' }] }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Import from Claude Desktop…' }));
    expect(screen.getByText('/home/ada/.config/Claude/claude_desktop_config.json')).toBeTruthy();
    const text = '{"mcpServers":{"github":{"command":"gh-mcp"}}}';
    const file = new File([text], 'claude_desktop_config.json', { type: 'application/json' });
    await act(async () => {
      change(screen.getByLabelText('Configuration file'), { target: { files: [file] } });
    });
    await waitFor(() => expect(t.callsOf('ImportClaudeConfig')).toEqual([[text]]));
    const summary = await screen.findByRole('status');
    expect(summary.textContent).toContain('Added 1: github');
    expect(summary.textContent).toContain('everything — already configured the same way');
    // The pasted text is the other way in.
    change(screen.getByLabelText('Or paste its text'), { target: { value: text } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Import text' }));
    });
    expect(t.callsOf('ImportClaudeConfig')).toHaveLength(2);
  });

  it('reloads on the "mcp" event', async () => {
    let view = mcpConfigView([everything]);
    const t = setup(undefined, () => [], {});
    t.responders.GetMCPConfig = () => view;
    await screen.findByRole('listitem', { name: 'everything' });
    view = mcpConfigView([everything, web]);
    await act(async () => t.emit('mcp', {}));
    expect(await screen.findByRole('listitem', { name: 'web' })).toBeTruthy();
  });

  it('polls ListMCPServers every 2 s while a server is starting, and stops once none is', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let state: McpServerStatus['status'] = 'starting';
    const t = setup(mcpConfigView([everything]), () => [mcpServer('everything', [], { status: state })]);
    await screen.findByText('Starting…');
    const calls = () => t.callsOf('ListMCPServers').length;
    const before = calls();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(STARTING_POLL_MS);
    });
    expect(calls()).toBe(before + 1);
    state = 'ready';
    await act(async () => {
      await vi.advanceTimersByTimeAsync(STARTING_POLL_MS);
    });
    expect(await screen.findByText('Ready')).toBeTruthy();
    const after = calls();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(STARTING_POLL_MS * 3);
    });
    expect(calls()).toBe(after);
  });
});

describe('McpServerForm helpers', () => {
  it('round-trips a config through the draft, keeping what the form does not show', () => {
    const cfg: McpServerConfig = { url: 'https://x.example/sse', type: 'sse', disabled: true, approval: 'trust' };
    expect(configFromDraft(draftFromConfig('x', cfg), cfg)).toEqual(cfg);
    expect(parseEnv('A=1\nnot a pair').error).toBe('Line 2: write KEY=VALUE.');
    expect(validateDraft(emptyDraft())).toEqual({ name: 'Give the server a name.', command: 'Enter the program to run.' });
  });
});

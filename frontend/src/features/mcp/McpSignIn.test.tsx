import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/preact';
import { McpSettings } from './McpSettings';
import { configFromDraft, draftFromConfig, validateDraft } from './McpServerForm';
import { FakeTransport } from '../../test/fakeTransport';
import { mcpConfigView, mcpServer } from '../../test/builders';
import type { McpServerStatus } from '../../transport/contract';

const notes = { name: 'notes', config: { url: 'https://notes.example/mcp', auth: { type: 'oauth' } } };

function withAuth(auth: NonNullable<McpServerStatus['auth']>): McpServerStatus[] {
  return [{ ...mcpServer('notes', [], { transport: 'http', status: 'error', error: 'notes asks you to sign in' }), auth }];
}

describe('MCP sign-in', () => {
  it('a server that needs a sign-in shows one button; it opens the authorization page', async () => {
    const t = new FakeTransport({
      GetMCPConfig: () => mcpConfigView([notes]),
      ListMCPServers: () => withAuth({ type: 'oauth', state: 'sign-in' }),
      SignInMCPServer: () => ({ url: 'https://auth.example/authorize?state=s' }),
    });
    render(<McpSettings transport={t} />);
    const row = await screen.findByRole('listitem', { name: 'notes' });
    expect(within(row).getByText('Needs sign-in')).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Sign out of notes' })).toBeNull();
    await act(async () => {
      fireEvent.click(within(row).getByRole('button', { name: 'Sign in: notes' }));
    });
    expect(t.callsOf('SignInMCPServer')).toEqual([['notes']]);
    expect(t.opened).toEqual(['https://auth.example/authorize?state=s']);
  });

  it('step-up names the scopes in words; signed in offers Sign out', async () => {
    const t = new FakeTransport({
      GetMCPConfig: () => mcpConfigView([notes]),
      ListMCPServers: () =>
        withAuth({ type: 'oauth', state: 'more-access', issuer: 'https://auth.example', scopes: ['notes:write'], message: 'The server asks for more access: notes write (notes:write).' }),
      SignOutMCPServer: () => null,
    });
    render(<McpSettings transport={t} />);
    const row = await screen.findByRole('listitem', { name: 'notes' });
    expect(within(row).getByText('The server asks for more access: notes write (notes:write).')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Allow more access: notes' })).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(row).getByRole('button', { name: 'Sign out of notes' }));
    });
    expect(t.callsOf('SignOutMCPServer')).toEqual([['notes']]);
  });

  it('the step-up is said once: in the sign-in bar, not again as the server\'s error', async () => {
    const status: McpServerStatus[] = [
      {
        ...mcpServer('notes', [], {
          transport: 'http',
          status: 'error',
          error: 'notes asks for more access (notes write (notes:write)): allow it with "Allow more access" in Settings, MCP servers',
        }),
        auth: { type: 'oauth', state: 'more-access', issuer: 'https://auth.example', scopes: ['notes:write'], message: 'The server asks for more access: notes write (notes:write).' },
      },
    ];
    const t = new FakeTransport({ GetMCPConfig: () => mcpConfigView([notes]), ListMCPServers: () => status });
    render(<McpSettings transport={t} />);
    const row = await screen.findByRole('listitem', { name: 'notes' });
    expect(within(row).getByRole('button', { name: 'Allow more access: notes' })).toBeTruthy();
    expect(row.textContent!.match(/asks for more access/g)).toHaveLength(1);
    expect(row.textContent!.match(/notes:write/g)).toHaveLength(1);
  });

  it('a signed-in server\'s own error still shows', async () => {
    const status: McpServerStatus[] = [
      { ...mcpServer('notes', [], { transport: 'http', status: 'error', error: 'connection refused' }), auth: { type: 'oauth', state: 'signed-in', issuer: 'https://auth.example' } },
    ];
    const t = new FakeTransport({ GetMCPConfig: () => mcpConfigView([notes]), ListMCPServers: () => status });
    render(<McpSettings transport={t} />);
    const row = await screen.findByRole('listitem', { name: 'notes' });
    expect(within(row).getByText('connection refused')).toBeTruthy();
  });

  it('the form saves client credentials with the secret, and keeps a masked one as it is', () => {
    const d = draftFromConfig('m2m', { url: 'https://m.example/mcp', auth: { type: 'client_credentials', clientId: 'robot', clientSecret: '••••' } });
    expect(d.auth).toBe('client_credentials');
    expect(configFromDraft(d).auth).toEqual({ type: 'client_credentials', clientId: 'robot', clientSecret: '••••' });
    expect(validateDraft({ ...d, clientSecret: '' }).auth).toBe('Client credentials need a client ID and a secret.');
    const none = draftFromConfig('x', { url: 'https://x.example/mcp' });
    expect(none.auth).toBe('none');
    expect(configFromDraft({ ...none, auth: 'oauth', scopes: 'a b' }).auth).toEqual({ type: 'oauth', scopes: ['a', 'b'] });
  });
});

import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/preact';
import { callView, type CallInfo } from './toolPreviews';

const call = (c: Partial<CallInfo>): CallInfo => ({ toolName: 'x', args: {}, preview: undefined, mcp: false, ...c });
const show = (c: CallInfo) => render(<>{callView(c).body}</>);

describe('callView: the preview registry', () => {
  it('shows run_command as its command and folder, the arguments collapsed', () => {
    const v = callView(call({ toolName: 'run_command', args: { command: ['ls', '-la'], cwd: '/tmp' } }));
    expect(v.args).toBe('closed');
    show(call({ toolName: 'run_command', args: { command: ['ls', '-la'], cwd: '/tmp' } }));
    expect(screen.getByLabelText('Command').textContent).toBe('$ ls -la');
    expect(screen.getByText('/tmp')).toBeTruthy();
  });

  it('asks open_url and copy_to_clipboard in words, without the arguments', () => {
    const open = callView(call({ toolName: 'open_url', args: { url: 'https://example.com/a' } }));
    expect(open.args).toBe('hidden');
    expect(open.title).toBeTruthy();
    const copy = callView(call({ toolName: 'copy_to_clipboard', args: { text: 'hé' } }));
    expect(copy.args).toBe('hidden');
    show(call({ toolName: 'copy_to_clipboard', args: { text: 'hé' } }));
    expect(screen.getByText(/2 characters/)).toBeTruthy();
  });

  it('gives an MCP tool no tool-name preview, even under a built-in name', () => {
    const v = callView(call({ toolName: 'open_url', args: { url: 'https://example.com' }, mcp: true }));
    expect(v.title).toBeUndefined();
    expect(v.args).toBe('open');
  });

  it('shows Go’s preview (a diff) for other tools, and Go’s command preview first', () => {
    const diff = callView(call({ toolName: 'write_file', preview: { kind: 'diff', title: 'a.txt', body: '+x\n', folder: '' } }));
    expect(diff.args).toBe('closed');
    expect(diff.body).not.toBeNull();
    const json = callView(call({ toolName: 'write_file', preview: { kind: 'json', title: '', body: '{}', folder: '' } }));
    expect(json).toEqual({ body: null, args: 'open' });
    const cmd = callView(call({ toolName: 'open_url', args: { url: 'https://e.com' }, preview: { kind: 'command', title: '', body: 'make', folder: '/w' } }));
    expect(cmd.title).toBeUndefined();
    show(call({ toolName: 'open_url', args: { url: 'https://e.com' }, preview: { kind: 'command', title: '', body: 'make', folder: '/w' } }));
    expect(screen.getByLabelText('Command').textContent).toBe('$ make');
  });

  it('hides the arguments of run_command when Go sent another preview beside it', () => {
    const v = callView(call({ toolName: 'run_command', args: { command: 'ls' }, preview: { kind: 'diff', title: '', body: '+a', folder: '' } }));
    expect(v.args).toBe('hidden');
  });
});

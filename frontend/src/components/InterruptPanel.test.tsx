import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { InterruptPanel } from './InterruptPanel';
import { classifyInterrupt, type ClassifiedInterrupt } from '../state/interrupts';
import type { Submission } from '../state/staging';
import type { Interrupt } from '../transport/contract';
import { fixtures } from '../test/fixtures';

function batch(): ClassifiedInterrupt[] {
  const last = fixtures.interrupt[fixtures.interrupt.length - 1]!;
  if (last.type !== 'RUN_FINISHED' || last.outcome.type !== 'interrupt') throw new Error('fixture');
  return last.outcome.interrupts.map((i) => classifyInterrupt(i, {}));
}

function setup(items: ClassifiedInterrupt[], onSubmit = vi.fn(async (_s: Submission) => undefined)) {
  const r = render(<InterruptPanel threadId="th-1" items={items} runError={null} onSubmit={onSubmit} />);
  return { ...r, onSubmit };
}

const single = () => [batch()[1]!]; // run_command approval

describe('InterruptPanel', () => {
  it('moves focus to the first card container, not to a button', () => {
    setup(single());
    const card = screen.getByRole('article', { name: 'Approval for run_command' });
    expect(document.activeElement).toBe(card);
  });

  it('shows the command and folder prominently for run_command', () => {
    setup(single());
    expect(screen.getByLabelText('Command').textContent).toContain('git status --short');
    expect(screen.getByText('/home/ada/project')).toBeTruthy();
  });

  it('Enter never approves (no default button, no form)', () => {
    const { onSubmit, container } = setup(single());
    const card = screen.getByRole('article', { name: 'Approval for run_command' });
    fireEvent.keyDown(card, { key: 'Enter' });
    fireEvent.keyUp(card, { key: 'Enter' });
    expect(onSubmit).not.toHaveBeenCalled();
    expect(container.querySelector('form')).toBeNull();
    for (const b of container.querySelectorAll('button')) expect(b.getAttribute('type')).toBe('button');
  });

  it('a single approval: "Allow once" sends immediately in one ResolveInterrupts batch', async () => {
    const { onSubmit } = setup(single());
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Allow once' }));
    });
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      permissions: [],
      resolutions: [{ interruptId: 'approval_tc-r', status: 'resolved', payload: { approved: true } }],
    });
  });

  it('"Always allow" offers the tool or the suggested command prefix and goes through RespondPermission', async () => {
    const { onSubmit } = setup(single());
    fireEvent.click(screen.getByRole('button', { name: 'Always allow…' }));
    const prefix = screen.getByRole('radio', { name: /Commands starting with “git status”/ });
    expect((prefix as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('radio', { name: 'Every run_command call' })).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Always allow' }));
    });
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      permissions: [{ toolCallId: 'tc-r', allow: true, remember: { scope: 'command-prefix', pattern: 'git status' } }],
      resolutions: [],
    });
  });

  it('"Edit arguments" validates JSON before allowing', async () => {
    const { onSubmit } = setup(single());
    fireEvent.click(screen.getByRole('button', { name: 'Edit arguments' }));
    const ta = screen.getByLabelText('Arguments (JSON)');
    fireEvent.change(ta, { target: { value: '{"command": ' } });
    expect(screen.getByRole('alert').textContent).toMatch(/Not valid JSON/);
    expect((screen.getByRole('button', { name: 'Allow with these arguments' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(ta, { target: { value: '[1]' } });
    expect(screen.getByRole('alert').textContent).toMatch(/JSON object/);
    fireEvent.change(ta, { target: { value: '{"command":"git status","cwd":"/tmp"}' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Allow with these arguments' }));
    });
    expect(onSubmit.mock.calls[0]![0].resolutions[0]!.payload).toEqual({
      approved: true,
      editedArgs: { command: 'git status', cwd: '/tmp' },
    });
  });

  it('several items: each is staged with Undo, a counter, and ONE submission when all are staged', async () => {
    const { onSubmit } = setup(batch());
    expect(screen.getByText(/0 of 3 answered/)).toBeTruthy();
    // The diff preview of write_file is shown.
    expect(screen.getByLabelText('Proposed changes').textContent).toContain('+- buy milk');

    const write = screen.getByRole('article', { name: 'Approval for write_file' });
    fireEvent.click(within(write).getByRole('button', { name: 'Allow once' }));
    expect(within(write).getByText('Approved')).toBeTruthy();
    expect(screen.getByText(/1 of 3 answered/)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();

    // Undo returns the item to pending.
    fireEvent.click(within(write).getByRole('button', { name: 'Undo' }));
    expect(screen.getByText(/0 of 3 answered/)).toBeTruthy();
    fireEvent.click(within(write).getByRole('button', { name: 'Deny…' }));
    fireEvent.change(within(write).getByLabelText(/Reason/), { target: { value: 'wrong list' } });
    fireEvent.click(within(write).getByRole('button', { name: 'Deny' }));
    expect(within(write).getByText('Denied')).toBeTruthy();

    const run = screen.getByRole('article', { name: 'Approval for run_command' });
    fireEvent.click(within(run).getByRole('button', { name: 'Allow once' }));
    expect(screen.getByText(/2 of 3 answered/)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();

    const question = screen.getByRole('article', { name: 'Question' });
    fireEvent.click(within(question).getByRole('radio', { name: 'work' }));
    await act(async () => {
      fireEvent.click(within(question).getByRole('button', { name: 'Submit answer' }));
    });
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      permissions: [],
      resolutions: [
        { interruptId: 'approval_tc-w', status: 'resolved', payload: { approved: false, payload: { reason: 'wrong list' } } },
        { interruptId: 'approval_tc-r', status: 'resolved', payload: { approved: true } },
        { interruptId: 'interrupt-1767225600000-2tnxhxy', status: 'resolved', payload: { list: 'work', urgent: false } },
      ],
    });
  });

  it('unbound items are a status line only: no controls, nothing to answer', () => {
    const unbound = batch().filter((i) => i.kind === 'unbound');
    const { container } = setup(unbound);
    expect(screen.getByText(/Waiting for an external reviewer/)).toBeTruthy();
    expect(container.querySelectorAll('button, input, textarea, select')).toHaveLength(0);
  });

  it('shows a rejected call under the form and lets the person answer again', async () => {
    const onSubmit = vi.fn(async () => {
      throw new Error('Interrupt approval_tc-r has expired.');
    });
    setup(single(), onSubmit);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Allow once' }));
    });
    expect(screen.getByRole('alert').textContent).toContain('has expired');
    expect(screen.getByRole('button', { name: 'Allow once' })).toBeTruthy();
  });

  it('maps RUN_ERROR item errors to their card', () => {
    const items = single();
    render(
      <InterruptPanel
        threadId="th-1"
        items={items}
        runError={{ message: 'invalid', itemErrors: { 'approval_tc-r': 'Approval approval_tc-r envelope is invalid' } }}
        onSubmit={vi.fn()}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('envelope is invalid');
  });

  it('uses Go\'s command preview (command + workspace folder) and reports a preview error', () => {
    const base = batch()[1]!.interrupt;
    const withPreview = (pv: unknown): Interrupt => ({ ...base, metadata: { ...base.metadata, 'juncture:preview': pv } });
    const { unmount } = setup([
      classifyInterrupt(withPreview({ kind: 'command', title: 'Run a command', body: 'make test', folder: '/srv/app' }), {}),
    ]);
    expect(screen.getByLabelText('Command').textContent).toContain('make test');
    expect(screen.getByText('/srv/app')).toBeTruthy();
    unmount();
    setup([classifyInterrupt(withPreview({ error: 'path escapes the workspace' }), {})]);
    expect(screen.getByText(/Preview unavailable: path escapes the workspace/)).toBeTruthy();
  });

  it('a question without a schema asks for free text', async () => {
    const it0: Interrupt = {
      id: 'q-1',
      reason: 'question',
      message: 'What should the file be called?',
      metadata: { 'tanstack:interruptBinding': { v: 1, kind: 'generic', interruptId: 'q-1', interruptedRunId: 'r', generation: 0 } },
    };
    const { onSubmit } = setup([classifyInterrupt(it0, {})]);
    fireEvent.change(screen.getByLabelText(/Your answer/), { target: { value: 'notes.md' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Submit answer' }));
    });
    expect(onSubmit.mock.calls[0]![0].resolutions).toEqual([{ interruptId: 'q-1', status: 'resolved', payload: 'notes.md' }]);
  });
});

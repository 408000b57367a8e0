import { act, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { FakeTransport } from '../../test/fakeTransport';
import type { PromptInfo } from '../../transport/mcpOffers';
import { PromptForm } from './PromptCommands';
import { change } from '../../test/change';

const team: PromptInfo = {
  server: 'everything',
  serverTitle: 'Everything Reference Server',
  name: 'completable-prompt',
  title: 'Team Management',
  description: 'First argument choice narrows values for second argument.',
  completes: true,
  arguments: [
    { name: 'department', description: 'Choose the department.', required: true },
    { name: 'name', description: 'Choose a team member.', required: true },
  ],
};

describe('PromptForm', () => {
  it('offers the server completions, sends the other arguments as context, and runs once every required one is filled', async () => {
    const t = new FakeTransport({
      CompleteMCP: (r) => ({
        values: r.argument === 'department' ? ['Engineering', 'Sales'].filter((d) => d.startsWith(r.value)) : r.known?.department === 'Sales' ? ['David', 'Eve'] : [],
        hasMore: false,
        cut: false,
      }),
    });
    const onRun = vi.fn();
    render(<PromptForm transport={t} prompt={team} busy={false} onRun={onRun} onCancel={() => {}} />);
    const insert = screen.getByRole('button', { name: 'Insert' });
    expect(insert).toHaveProperty('disabled', true);

    const dept = screen.getByLabelText(/department/);
    act(() => dept.focus());
    change(dept, { target: { value: 'Sa' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Sales' }));
    expect((dept as HTMLInputElement).value).toBe('Sales');

    const name = screen.getByLabelText(/^name/);
    act(() => name.focus());
    fireEvent.click(await screen.findByRole('button', { name: 'Eve' }));
    await waitFor(() => expect(insert).toHaveProperty('disabled', false));
    const last = t.callsOf('CompleteMCP').at(-1)?.[0] as { argument: string; known?: Record<string, string> };
    expect(last.argument).toBe('name');
    expect(last.known).toEqual({ department: 'Sales' });

    fireEvent.click(insert);
    expect(onRun).toHaveBeenCalledWith({ department: 'Sales', name: 'Eve' });
  });

  it('Escape cancels', () => {
    const onCancel = vi.fn();
    render(<PromptForm transport={new FakeTransport()} prompt={{ ...team, completes: false }} busy={false} onRun={() => {}} onCancel={onCancel} />);
    fireEvent.keyDown(screen.getByLabelText(/department/), { key: 'Escape' });
    expect(onCancel).toHaveBeenCalled();
  });
});

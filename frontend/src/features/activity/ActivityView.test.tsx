import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { ActivityView } from './ActivityView';
import { FakeTransport } from '../../test/fakeTransport';
import type { LedgerEntryView, LedgerFilter } from '../../transport/contract.gen';
import { change } from '../../test/change';

const ENTRIES: LedgerEntryView[] = [
  { seq: 3, at: Date.now(), kind: 'outcome', threadId: 't1', callId: 'c1', tool: 'run_command', outcome: 'ran', transport: 'runtime', prevHash: 'b', hash: 'c' },
  { seq: 2, at: Date.now(), kind: 'approved', threadId: 't1', callId: 'c1', tool: 'run_command', arguments: '{"command":"git status"}', transport: 'window', prevHash: 'a', hash: 'b' },
  { seq: 1, at: Date.now(), kind: 'rule-created', tool: 'run_command', transport: 'browser', ruleId: 'r1', prevHash: '', hash: 'a' },
];

function setup(extra: ConstructorParameters<typeof FakeTransport>[0] = {}) {
  const t = new FakeTransport(
    {
      ListLedger: () => ENTRIES,
      VerifyLedger: () => ({ entries: 3, ok: false, brokenSeq: 2, problem: 'its content does not match its hash (it was changed)' }),
      ClearLedger: () => null,
      ExportLedger: () => '',
      ...extra,
    },
    'browser',
  );
  const onOpenCall = vi.fn();
  const onClose = vi.fn();
  render(<ActivityView open transport={t} threads={[{ id: 't1', title: 'Repo status' }]} onClose={onClose} onOpenCall={onOpenCall} />);
  return Object.assign(t, { onOpenCall, onClose });
}

describe('Activity', () => {
  it('lists the entries in words, with their chat and transport; opens a call in its chat', async () => {
    const t = setup();
    const approved = (await screen.findByText('Approved once', { selector: '.activity-kind' })).closest('li')!;
    expect(approved.textContent).toContain('git status');
    expect(approved.textContent).toContain('in Repo status');
    expect(approved.textContent).toContain('by the window');
    expect(screen.getByText('Rule created', { selector: '.activity-kind' }).closest('li')!.textContent).toContain('by a browser');
    fireEvent.click(within(approved).getByRole('button', { name: 'Open in chat' }));
    expect(t.onOpenCall).toHaveBeenCalledWith('t1', 'c1');
  });

  it('filters by chat, decision, tool and search (ListLedger gets the filter)', async () => {
    const t = setup();
    await screen.findByText('Approved once', { selector: '.activity-kind' });
    change(screen.getByLabelText('Chat'), { target: { value: 't1' } });
    change(screen.getByLabelText('Decision'), { target: { value: 'denied-by-rule' } });
    change(screen.getByLabelText('Tool'), { target: { value: 'run_command' } });
    change(screen.getByLabelText('Search'), { target: { value: 'push' } });
    await waitFor(() => {
      const last = t.callsOf('ListLedger').at(-1)![0] as LedgerFilter;
      expect(last).toMatchObject({ threadId: 't1', kind: 'denied-by-rule', tool: 'run_command', search: 'push' });
    });
  });

  it('Verify shows the first broken link and marks its entry', async () => {
    setup();
    await screen.findByText('Approved once', { selector: '.activity-kind' });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    });
    expect(screen.getByRole('alert').textContent).toContain('broken at entry #2: its content does not match its hash');
    expect(screen.getByText('Approved once', { selector: '.activity-kind' }).closest('li')!.className).toContain('is-broken');
  });

  it('Clear asks first; keeping the ledger clears nothing', async () => {
    const t = setup();
    await screen.findByText('Approved once', { selector: '.activity-kind' });
    fireEvent.click(screen.getByRole('button', { name: 'Clear…' }));
    const ask = screen.getByRole('alertdialog');
    expect(ask.textContent).toContain('The clear itself is recorded');
    expect(document.activeElement?.textContent).toBe('Keep the ledger');
    fireEvent.click(within(ask).getByRole('button', { name: 'Keep the ledger' }));
    expect(t.callsOf('ClearLedger')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Clear…' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Clear the ledger' }));
    });
    expect(t.callsOf('ClearLedger')).toEqual([['clear']]);
  });
});

describe('Activity: the chat filter on a chat that is gone', () => {
  it('shows the chat as not listed, keeps filtering by it, and Every chat stays a click away', async () => {
    const t = new FakeTransport({ ListLedger: () => ENTRIES }, 'browser');
    const props = { open: true, transport: t, onClose: vi.fn(), onOpenCall: vi.fn() };
    const two = [
      { id: 't1', title: 'Repo status' },
      { id: 't2', title: 'Release notes' },
    ];
    const { rerender } = render(<ActivityView {...props} threads={two} />);
    await screen.findByText('Approved once', { selector: '.activity-kind' });
    const chat = screen.getByLabelText('Chat') as HTMLSelectElement;
    change(chat, { target: { value: 't2' } });
    await waitFor(() => expect((t.callsOf('ListLedger').at(-1)![0] as LedgerFilter).threadId).toBe('t2'));
    // The chat is deleted (elsewhere) while the view is open: the list loses it.
    rerender(<ActivityView {...props} threads={[two[0]!]} />);
    expect(chat.selectedOptions[0]?.textContent).toBe('A chat not listed');
    expect(chat.value).toBe('t2');
    expect((t.callsOf('ListLedger').at(-1)![0] as LedgerFilter).threadId).toBe('t2');
    change(chat, { target: { value: '' } });
    expect(chat.selectedOptions[0]?.textContent).toBe('Every chat');
    await waitFor(() => expect((t.callsOf('ListLedger').at(-1)![0] as LedgerFilter).threadId).toBeUndefined());
  });
});

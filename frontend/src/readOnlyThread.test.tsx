import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { App } from './App';
import { TransportContext } from './transport';
import { FakeTransport } from './test/fakeTransport';
import { emptyView, settingsView, thread, threadResponders } from './test/builders';
import type { Status, ThreadView } from './transport/contract';
import { fixtures } from './test/fixtures';

// A read-only copy of damaged data (Status.readOnly): an opened chat is for
// reading. The actions on its messages would each write the copy (a new
// version, an edit, a continued answer), which Go refuses: they are not
// offered, while copying a message stays.
const COPY = '/home/p/.local/share/juncture/juncture.db.damaged-copy';
const READ_ONLY: Status = { mode: 'desktop', configured: false, endpoint: '', model: '', readOnly: COPY, problem: 'The history database is damaged.' };

function stoppedThread() {
  const view = emptyView(thread('th-1', 'Stopped'));
  view.messages = [
    { id: 'u', threadId: 'th-1', role: 'user', content: 'Write a poem', status: 'complete', createdAt: 1 },
    { id: 'a', threadId: 'th-1', role: 'assistant', content: 'Roses are red,', status: 'interrupted', createdAt: 2 },
  ];
  return view;
}

function waitingThread(): ThreadView {
  const view = stoppedThread();
  const last = fixtures.interrupt[fixtures.interrupt.length - 1]!;
  if (last.type !== 'RUN_FINISHED' || last.outcome.type !== 'interrupt') throw new Error('fixture');
  view.interrupts = last.outcome.interrupts;
  return view;
}

/** The stopped answer is the second of two versions ("‹ 2/2 ›"). */
function withVersions(view: ThreadView): ThreadView {
  const [q, a] = view.messages;
  return { ...view, messages: [q!, { ...a!, branch: { index: 2, count: 2, siblings: ['a0', 'a'] } }] };
}

async function openStopped(status: Status, view: ThreadView = stoppedThread()) {
  const t = new FakeTransport({
    Status: () => status,
    GetSettings: () => settingsView({}, { baseUrl: 'environment', model: 'saved', loopGuard: 'default' }),
    ...threadResponders({ 'th-1': view }),
    SearchHistory: () => [],
    SelectBranch: () => view,
  });
  render(
    <TransportContext.Provider value={t}>
      <App />
    </TransportContext.Provider>,
  );
  const item = await screen.findByRole('button', { name: 'Stopped' });
  await act(async () => {
    fireEvent.click(item);
  });
  await screen.findByText('Roses are red,');
  return t;
}

describe('a chat opened in a read-only copy', () => {
  afterEach(cleanup);

  it('offers no Continue, Regenerate or Edit on its messages, and still Copy', async () => {
    await openStopped(READ_ONLY);
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Regenerate/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit message' })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Copy message' }).length).toBeGreaterThan(0);
  });

  it('its row in the list offers Export, not Rename, Pin or Delete (nor F2)', async () => {
    const t = await openStopped(READ_ONLY);
    const row = screen.getByRole('button', { name: 'Stopped' });
    fireEvent.keyDown(row, { key: 'F2' });
    expect(screen.queryByRole('textbox', { name: /title/i })).toBeNull();
    fireEvent.keyDown(row, { key: 'F10', shiftKey: true });
    const menu = await screen.findByRole('menu', { name: 'Options for Stopped' });
    const items = Array.from(menu.querySelectorAll('[role="menuitem"]')).map((b) => b.textContent);
    expect(items).toEqual(['Export as Markdown', 'Export as JSON']);
    expect(t.calls.filter((c) => ['RenameThread', 'PinThread', 'DeleteThread'].includes(c.method))).toEqual([]);
  });

  it('offers no new chat from a preset (it is made at once, in the copy)', async () => {
    await openStopped(READ_ONLY);
    expect(screen.queryByRole('button', { name: 'New chat from a preset' })).toBeNull();
  });

  // A copy shows another version without writing it (Go keeps the choice
  // in the copy's memory): the arrows work as in the live app.
  it('switches versions for reading', async () => {
    const t = await openStopped(READ_ONLY, withVersions(stoppedThread()));
    const prev = screen.getByRole('button', { name: 'Previous version' }) as HTMLButtonElement;
    expect(prev.disabled).toBe(false);
    fireEvent.click(prev);
    expect(t.callsOf('SelectBranch')).toEqual([['th-1', 'a0']]);
  });

  // Go refuses to leave a version decisions wait on, and a copy cannot
  // answer them: the arrows are not offered, and say why.
  it('keeps the version decisions wait on, and says why', async () => {
    const t = await openStopped(READ_ONLY, withVersions(waitingThread()));
    const prev = screen.getByRole('button', { name: 'Previous version' }) as HTMLButtonElement;
    expect(prev.disabled).toBe(true);
    expect(prev.title).toMatch(/^A read-only copy shows the version that was chosen/);
    fireEvent.click(prev);
    expect(t.callsOf('SelectBranch')).toEqual([]);
  });

  // Go counts only what can be answered (an unbound item, one whose call
  // is gone, holds no version: Stop leaves it), so neither do the arrows.
  it('switches versions where only unbound items are left', async () => {
    const waiting = waitingThread();
    // Recorded by another program: no binding to a call of this thread.
    const unbound: ThreadView = {
      ...waiting,
      interrupts: waiting.interrupts.map(({ metadata: _binding, ...it }) => it),
      interruptKinds: Object.fromEntries(waiting.interrupts.map((i) => [i.id, 'unbound' as const])),
    };
    const t = await openStopped(READ_ONLY, withVersions(unbound));
    const prev = screen.getByRole('button', { name: 'Previous version' }) as HTMLButtonElement;
    expect(prev.disabled).toBe(false);
    fireEvent.click(prev);
    expect(t.callsOf('SelectBranch')).toEqual([['th-1', 'a0']]);
  });

  it('says decisions were waiting, and offers no answer to them', async () => {
    await openStopped(READ_ONLY, waitingThread());
    expect(await screen.findByText(/waiting for your decisions; they cannot be answered in a read-only copy/)).toBeTruthy();
    expect(screen.queryByRole('article', { name: 'Approval for run_command' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Allow once' })).toBeNull();
  });

  it('offers the decisions when it is no copy', async () => {
    await openStopped({ ...READ_ONLY, configured: true, readOnly: undefined, problem: undefined }, waitingThread());
    expect(await screen.findByRole('article', { name: 'Approval for run_command' })).toBeTruthy();
    expect(screen.queryByText(/cannot be answered in a read-only copy/)).toBeNull();
  });

  it('offers them all when it is no copy', async () => {
    await openStopped({ ...READ_ONLY, configured: true, readOnly: undefined, problem: undefined });
    expect(screen.getByRole('button', { name: 'New chat from a preset' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Regenerate/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit message' })).toBeTruthy();
  });
});

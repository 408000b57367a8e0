import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { App } from '../../App';
import { TransportContext } from '../../transport';
import { FakeTransport } from '../../test/fakeTransport';
import { emptyView, settingsView, thread } from '../../test/builders';
import type { Message, Status, ThreadView } from '../../transport/contract';
import type { AguiEvent } from '../../transport/agui';
import { JunctureError } from '../../transport/errors';
import { change } from '../../test/change';

// Versions in the window: editing a question in place (EditMessage), the
// reload on juncture.path_changed, the "‹ 1/2 ›" switch (SelectBranch, and
// its refusal in a toast), and a search hit on another version.

const STATUS: Status = { mode: 'desktop', configured: true, endpoint: 'http://127.0.0.1:11434/v1', model: 'fake-model' };

const msg = (id: string, role: 'user' | 'assistant', content: string, extra: Partial<Message> = {}): Message => ({
  id,
  threadId: 'th-1',
  role,
  content,
  status: 'complete',
  createdAt: 1_700_000_000_000,
  ...extra,
});

const usage = { promptTokens: 20, completionTokens: 7, totalTokens: 27 };
const q = (index: number) => ({ index, count: 2, siblings: ['q1', 'q2'] });

function pathView(version: 0 | 1 | 2): ThreadView {
  const v = emptyView(thread('th-1', 'Animals'));
  v.eventSeq = 5;
  v.messages =
    version === 2
      ? [msg('q2', 'user', 'Tell me about giraffes', { branch: q(2) }), msg('a2', 'assistant', 'Giraffes are tall.', { parentId: 'q2', usage })]
      : [
          msg('q1', 'user', 'Tell me about zebras', version ? { branch: q(1) } : {}),
          msg('a1', 'assistant', 'Zebras are striped.', { parentId: 'q1', usage }),
        ];
  v.usage = { total: version ? { promptTokens: 40, completionTokens: 14, totalTokens: 54 } : usage, answers: version ? 2 : 1, unreported: 0 };
  return v;
}

function setup() {
  const state = { view: pathView(0) };
  const t = new FakeTransport({
    Status: () => STATUS,
    GetSettings: () => settingsView({ model: 'fake-model' }),
    ListThreads: () => ({ threads: [{ ...state.view.thread, running: false, waiting: 0 }], nextCursor: '' }),
    ListEndpoints: () => [],
    GetThread: () => state.view,
    EditMessage: (threadId) => ({ threadId, queued: false }),
    SelectBranch: () => state.view,
    SearchHistory: () => [],
  });
  render(
    <TransportContext.Provider value={t}>
      <App />
    </TransportContext.Provider>,
  );
  return { t, state };
}

function emit(t: FakeTransport, events: AguiEvent[], seq = 6) {
  act(() => {
    for (const event of events) t.emit('agui', { threadId: 'th-1', event, seq: seq++ });
  });
}

const pathChanged = (leafId: string, reason: string): AguiEvent => ({
  type: 'CUSTOM',
  name: 'juncture.path_changed',
  value: { threadId: 'th-1', leafId, reason },
});

async function open() {
  const item = await screen.findByRole('button', { name: 'Animals' });
  await act(async () => {
    fireEvent.click(item);
  });
  await screen.findByText('Tell me about zebras');
}

describe('versions in the window', () => {
  it('edit → Save & send → the reload on path_changed shows 2/2; ‹ goes back to the old version and its answer', async () => {
    const { t, state } = setup();
    await open();
    expect(screen.queryByRole('group', { name: 'Versions' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Edit message' }));
    const box = screen.getByRole('textbox', { name: 'Edit your message' });
    change(box, { target: { value: 'Tell me about giraffes' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save & send' }));
    });
    expect(t.callsOf('EditMessage')).toEqual([['th-1', 'q1', 'Tell me about giraffes']]);
    expect(t.callsOf('SendInput')).toEqual([]);

    // The run moves the path, says so, and the new question streams.
    state.view = pathView(2);
    emit(t, [
      { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r2' },
      { type: 'MESSAGES_SNAPSHOT', messages: [] },
      pathChanged('', 'edit'),
      { type: 'TEXT_MESSAGE_START', messageId: 'q2', role: 'user' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'q2', delta: 'Tell me about giraffes', offset: 0 },
      { type: 'TEXT_MESSAGE_END', messageId: 'q2' },
    ]);
    await screen.findByText('Version 2 of 2');
    expect(screen.queryByText('Tell me about zebras')).toBeNull();
    expect(screen.queryByText('Zebras are striped.')).toBeNull();
    expect(screen.getAllByText('Tell me about giraffes')).toHaveLength(1);
    expect(t.callsOf('GetThread').length).toBeGreaterThanOrEqual(2);
    // The thread's usage counts both versions' answers.
    expect(document.querySelector('.thread-usage')!.textContent).toMatch(/^54 tokens/);

    state.view = pathView(1);
    emit(t, [{ type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r2', outcome: { type: 'success', pendingToolCallIds: [] } }], 20);
    // Found before act: inside it Preact holds renders until it ends.
    const button = await screen.findByRole('button', { name: 'Previous version' });
    await act(async () => {
      fireEvent.click(button);
    });
    expect(t.callsOf('SelectBranch')).toEqual([['th-1', 'q1']]);
    // Outside a run the switch is announced with the "path" event (AG-UI has none there).
    act(() => t.emit('path', { threadId: 'th-1', leafId: 'a1', reason: 'branch' }));
    await screen.findByText('Version 1 of 2');
    expect(screen.getByText('Tell me about zebras')).toBeTruthy();
    await screen.findByText('Zebras are striped.');
    expect(screen.queryByText('Giraffes are tall.')).toBeNull();
  });

  it('a refused switch (something waits on this version) is said in a toast, and nothing moves', async () => {
    const { t, state } = setup();
    state.view = pathView(1);
    t.responders.SelectBranch = () => {
      throw new JunctureError('conflict', 'Something on this version waits for you. Answer or dismiss it before switching to another version.');
    };
    await open();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Next version' }));
    });
    await screen.findByText(/Could not switch versions: Something on this version waits for you/);
    expect(screen.getByText('Tell me about zebras')).toBeTruthy();
  });

  it('a search hit on another version switches to it before the thread shows', async () => {
    const { t, state } = setup();
    state.view = pathView(2);
    t.responders.SearchHistory = () => [
      {
        threadId: 'th-1',
        threadTitle: 'Animals',
        messageId: 'q1',
        role: 'user',
        parts: [
          { text: 'Tell me about ', match: false },
          { text: 'zebras', match: true },
        ],
        createdAt: 1_700_000_000_000,
        rank: 1,
      },
    ];
    t.responders.SelectBranch = () => {
      state.view = pathView(1);
      setTimeout(() => act(() => t.emit('path', { threadId: 'th-1', leafId: 'a1', reason: 'branch' })), 0);
      return state.view;
    };
    await screen.findByRole('button', { name: 'Animals' });
    change(screen.getByLabelText('Search conversations'), { target: { value: 'zebras' } });
    const list = await screen.findByRole('list', { name: 'Search results for zebras' });
    const hit = await within(list).findByRole('button');
    await act(async () => {
      fireEvent.click(hit);
    });
    await waitFor(() => expect(t.callsOf('SelectBranch')).toEqual([['th-1', 'q1']]));
    await screen.findByText('Version 1 of 2');
    expect(screen.getByText('Zebras are striped.')).toBeTruthy();
  });
});

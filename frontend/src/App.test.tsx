import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { App } from './App';
import { TransportContext } from './transport';
import { FakeTransport } from './test/fakeTransport';
import { bigThreadView, emptyView, settingsView, thread, threadResponders } from './test/builders';
import type { Status, ThreadView } from './transport/contract';
import type { AguiEvent } from './transport/agui';
import { fixtures } from './test/fixtures';
import { JunctureError } from './transport/errors';
import { change } from './test/change';
import { afterPaintRan } from './test/effects';

const STATUS: Status = { mode: 'desktop', configured: true, endpoint: 'http://127.0.0.1:11434/v1', model: 'llama3.1' };

function setup(views: Record<string, ThreadView>, status: Status = STATUS) {
  const t = new FakeTransport({
    Status: () => status,
    GetSettings: () => settingsView({}, { baseUrl: 'environment', model: 'saved', loopGuard: 'default' }),
    ...threadResponders(views),
    SendInput: (threadId) => ({ threadId, queued: false }),
    Interrupt: () => null,
    RemoveQueued: () => null,
    Answer: () => ({ continued: true, runId: 'run-next', waiting: [] }),
    NewThread: () => thread('new-1', ''),
    SearchHistory: () => [],
    DeleteThread: () => null,
    RenameThread: () => null,
    PinThread: () => null,
  });
  const r = render(
    <TransportContext.Provider value={t}>
      <App />
    </TransportContext.Provider>,
  );
  return { ...r, t };
}

async function openThread(title: string) {
  const item = await screen.findByRole('button', { name: title });
  await act(async () => {
    fireEvent.click(item);
  });
}

function emit(t: FakeTransport, threadId: string, events: AguiEvent[]) {
  act(() => {
    for (const event of events) t.emit('agui', { threadId, event, seq: 0 });
  });
}

describe('App', () => {
  beforeEach(() => {
    document.title = 'Juncture';
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('the sidebar shows what waits from the loaded list; live events win until the next list refresh', async () => {
    const { t } = setup({ 'th-1': emptyView(thread('th-1', 'Maths')), 'th-2': emptyView(thread('th-2', 'Notes')) });
    let waiting = 1;
    t.responders.ListThreads = () => ({
      threads: [
        { ...thread('th-1', 'Maths'), running: false, waiting },
        { ...thread('th-2', 'Notes'), running: true, waiting: 0 },
      ],
      nextCursor: '',
    });
    act(() => t.emit('threads', {}));
    // After a reload, no live event has been seen: the list alone tells.
    await screen.findByRole('button', { name: 'Maths', description: 'Waiting for your decision' });
    expect(screen.getByRole('button', { name: 'Notes', description: 'Running' })).toBeTruthy();
    // Live events win over the list…
    emit(t, 'th-1', [{ type: 'RUN_STARTED', threadId: 'th-1', runId: 'r' }]);
    expect(screen.getByRole('button', { name: 'Maths', description: 'Running' })).toBeTruthy();
    emit(t, 'th-1', [
      { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r', outcome: { type: 'success', pendingToolCallIds: [] } },
    ]);
    // A run's end reaches the sidebar one painted frame late (useThreadActivity).
    await afterPaintRan();
    expect(screen.getByRole('button', { name: 'Maths' }).getAttribute('aria-describedby')).toBeNull();
    // …until the list is read again.
    waiting = 2;
    act(() => t.emit('threads', {}));
    await screen.findByRole('button', { name: 'Maths', description: 'Waiting for your decision' });
  });

  it('opens a 2,000-message thread quickly and mounts only a window of rows', async () => {
    const view = bigThreadView('big', 2000);
    const { t, container } = setup({ big: view });
    const item = await screen.findByRole('button', { name: 'Big thread' });
    await act(async () => {
      fireEvent.click(item);
    });
    await screen.findByText(/Question number 1998/);
    // Only a window of rows is mounted: what keeps opening it quick. How
    // quick is measured by the bench (src/bench/render.bench.tsx, `make
    // bench`), not here: a time bound in a unit test fails on a loaded machine.
    const rows = container.querySelectorAll('.vlist-row');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(60);
    expect(t.callsOf('GetThread')).toEqual([['big']]);
  });

  it('streams an answer into the open thread, then shows it complete (with its usage, read from the store)', async () => {
    const view = emptyView(thread('th-1', 'Maths'));
    const { t } = setup({ 'th-1': view });
    await openThread('Maths');
    emit(t, 'th-1', fixtures.plain.slice(0, 8));
    await screen.findByText('Juncture is writing…');
    expect(screen.getByRole('button', { name: 'Stop (Esc)' })).toBeTruthy();
    // What Go has stored when the window reads the finished answer's usage.
    view.messages = [
      { id: 'm-u1', threadId: 'th-1', role: 'user', content: 'What is 2 + 2?', status: 'complete', createdAt: 1 },
      {
        id: 'm-a1',
        threadId: 'th-1',
        role: 'assistant',
        content: '2 + 2 equals **4**.\n\nAnything else?',
        status: 'complete',
        createdAt: 2,
        usage: { promptTokens: 12, completionTokens: 8, totalTokens: 20 },
      },
    ];
    emit(t, 'th-1', fixtures.plain.slice(8));
    await waitFor(() => expect(screen.queryByText('Juncture is writing…')).toBeNull());
    // The Markdown renderer is a lazy chunk: the text shows plain until it has loaded.
    expect((await screen.findByText('4')).tagName).toBe('STRONG');
    expect(screen.getByRole('button', { name: 'Send (Enter)' })).toBeTruthy();
    await screen.findByText('12 in · 8 out');
    await waitFor(() => expect(t.callsOf('GetThread')).toEqual([['th-1'], ['th-1']]));
  });

  it('a reload reopens the chat that was open; with nothing remembered it starts a new chat', async () => {
    const views = { 'th-1': emptyView(thread('th-1', 'Maths')), 'th-2': emptyView(thread('th-2', 'Notes')) };
    const first = setup(views);
    expect(first.t.callsOf('GetThread')).toEqual([]);
    await openThread('Notes');
    expect(window.sessionStorage.getItem('juncture.openThread')).toBe('th-2');
    first.unmount();
    const second = setup(views);
    await waitFor(() => expect(second.t.callsOf('GetThread')).toEqual([['th-2']]));
    await waitFor(() => expect(document.title).toBe('Notes — Juncture'));
  });

  it('a remembered chat that no longer exists falls back to a new chat', async () => {
    window.sessionStorage.setItem('juncture.openThread', 'gone');
    const { t } = setup({});
    await waitFor(() => expect(window.sessionStorage.getItem('juncture.openThread')).toBeNull());
    expect(t.callsOf('GetThread')).toEqual([['gone']]);
  });

  it('does not show an answer whose beginning was missed until the stored one is loaded', async () => {
    const stored: ThreadView = emptyView(thread('th-1', 'Maths'));
    const { t } = setup({ 'th-1': stored });
    await openThread('Maths');
    emit(t, 'th-1', [
      { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r2' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'x', delta: 'its only line.' },
    ]);
    await screen.findByLabelText('Catching up');
    expect(screen.queryByText(/its only line/)).toBeNull();
    stored.messages = [{ id: 'x', threadId: 'th-1', role: 'assistant', content: 'The tool returned its only line.', status: 'complete', createdAt: 1 }];
    emit(t, 'th-1', [
      { type: 'TEXT_MESSAGE_END', messageId: 'x' },
      { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r2', outcome: { type: 'success', pendingToolCallIds: [] } },
    ]);
    await screen.findByText('The tool returned its only line.');
    expect(t.callsOf('GetThread')).toEqual([['th-1'], ['th-1']]);
  });

  it('Enter sends (new chat creates the thread first); Shift+Enter does not', async () => {
    const { t } = setup({});
    const box = await screen.findByLabelText('Message');
    change(box, { target: { value: 'line one' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(t.callsOf('SendInput')).toEqual([]);
    await act(async () => {
      fireEvent.keyDown(box, { key: 'Enter' });
    });
    expect(t.callsOf('NewThread')).toHaveLength(1);
    expect(t.callsOf('SendInput')).toEqual([['new-1', 'line one']]);
    // The optimistic message is shown until Go echoes it.
    expect(screen.getByText('line one')).toBeTruthy();
  });

  it("Esc in an open dialog (an MCP App view opened larger) is the dialog's, not Stop; in a closed one shown inline it stops", async () => {
    const { t } = setup({ 'th-1': emptyView(thread('th-1', 'Busy')) });
    await openThread('Busy');
    emit(t, 'th-1', [{ type: 'RUN_STARTED', threadId: 'th-1', runId: 'r' }]);
    await screen.findByRole('button', { name: 'Stop (Esc)' });
    const dialog = document.createElement('dialog');
    const button = document.createElement('button');
    dialog.appendChild(button);
    document.body.appendChild(dialog);
    try {
      dialog.setAttribute('open', '');
      await act(async () => {
        fireEvent.keyDown(button, { key: 'Escape' });
      });
      expect(t.callsOf('Interrupt')).toEqual([]);
      dialog.removeAttribute('open');
      await act(async () => {
        fireEvent.keyDown(button, { key: 'Escape' });
      });
      expect(t.callsOf('Interrupt')).toEqual([['th-1']]);
    } finally {
      dialog.remove();
    }
  });

  // A click on the larger view's label or padding (nothing focusable) leaves
  // the focus on the body, behind the modal: Esc there is still the dialog's.
  it('Esc with the focus on the body while a modal dialog is open does not stop the run', async () => {
    const { t } = setup({ 'th-1': emptyView(thread('th-1', 'Busy')) });
    await openThread('Busy');
    emit(t, 'th-1', [{ type: 'RUN_STARTED', threadId: 'th-1', runId: 'r' }]);
    await screen.findByRole('button', { name: 'Stop (Esc)' });
    const dialog = document.createElement('dialog');
    dialog.setAttribute('open', '');
    document.body.appendChild(dialog);
    try {
      await act(async () => {
        fireEvent.keyDown(document.body, { key: 'Escape' });
      });
      expect(t.callsOf('Interrupt')).toEqual([]);
    } finally {
      dialog.remove();
    }
    await act(async () => {
      fireEvent.keyDown(document.body, { key: 'Escape' });
    });
    expect(t.callsOf('Interrupt')).toEqual([['th-1']]);
  });

  it('Stop and Esc call Interrupt while a turn runs; queued inputs show as removable chips', async () => {
    const { t } = setup({ 'th-1': emptyView(thread('th-1', 'Busy')) });
    await openThread('Busy');
    emit(t, 'th-1', [{ type: 'RUN_STARTED', threadId: 'th-1', runId: 'r' }]);
    await screen.findByRole('button', { name: 'Stop (Esc)' });
    act(() => t.emit('queue', { threadId: 'th-1', queued: ['and then this', 'one more'] }));
    const queue = await screen.findByRole('list', { name: 'Queued messages' });
    expect(within(queue).getAllByRole('listitem')).toHaveLength(2);
    await act(async () => {
      fireEvent.click(within(queue).getByRole('button', { name: /Remove queued message: one more/ }));
    });
    expect(t.callsOf('RemoveQueued')).toEqual([['th-1', 1]]);
    await act(async () => {
      fireEvent.keyDown(window, { key: 'Escape' });
    });
    expect(t.callsOf('Interrupt')).toEqual([['th-1']]);
    // Only text streamed: the turn shows stopped at once (state/stopShown.test.ts).
    await screen.findByRole('button', { name: 'Send (Enter)' });
    emit(t, 'th-1', [{ type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r', outcome: { type: 'cancelled' } }]);
    await act(async () => {}); // the run's end applies at once (and any refresh it asks for)
    emit(t, 'th-1', [{ type: 'RUN_STARTED', threadId: 'th-1', runId: 'r2' }]);
    const again = await screen.findByRole('button', { name: 'Stop (Esc)' });
    await act(async () => {
      fireEvent.click(again);
    });
    expect(t.callsOf('Interrupt')).toHaveLength(2);
  });

  it('an interrupted answer shows the badge without the marker, Continue resends, Regenerate makes a new version', async () => {
    const view = emptyView(thread('th-1', 'Stopped'));
    view.messages = [
      { id: 'u', threadId: 'th-1', role: 'user', content: 'Write a poem', status: 'complete', createdAt: 1 },
      {
        id: 'a',
        threadId: 'th-1',
        role: 'assistant',
        content: 'Roses are red,<system>User interrupted this message</system>',
        status: 'interrupted',
        createdAt: 2,
      },
    ];
    const { t, container } = setup({ 'th-1': view });
    await openThread('Stopped');
    await screen.findByText('Interrupted');
    expect(container.textContent).not.toContain('<system>');
    expect(container.textContent).toContain('Roses are red,');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    });
    // Continue grows the answer in place: no message of the person.
    expect(t.callsOf('ContinueAnswer')).toEqual([['th-1']]);
    expect(t.callsOf('SendInput')).toEqual([]);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /Regenerate/ }));
    });
    // A sibling of the answer: the question is not sent again.
    expect(t.callsOf('Regenerate')).toEqual([['th-1', 'a']]);
    expect(t.callsOf('SendInput')).toEqual([]);
  });

  it('shows an endpoint error message clearly', async () => {
    const view = emptyView(thread('th-1', 'Broken'));
    const { t } = setup({ 'th-1': view });
    await openThread('Broken');
    // What Go has stored by the time the UI resyncs after RUN_ERROR.
    view.messages = [
      {
        id: 'm-a5',
        threadId: 'th-1',
        role: 'assistant',
        content: '',
        status: 'error',
        error: 'endpoint answered 401: Incorrect API key provided',
        createdAt: 1,
      },
    ];
    emit(t, 'th-1', fixtures.runError);
    await screen.findByText('Incorrect API key provided');
    await waitFor(() => expect(t.callsOf('GetThread')).toHaveLength(2));
    // Said once, in the message: what happened, the endpoint's words, a way to Settings.
    const alerts = screen.getAllByRole('alert').filter((a) => a.textContent?.includes('Incorrect API key provided'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.textContent).toContain('The model endpoint answered with an error (HTTP 401).');
    expect(alerts[0]!.textContent).toContain('Check the API key in Settings.');
    expect(screen.queryByText(/The last turn failed\./)).toBeNull();
    fireEvent.click(within(alerts[0]!).getByRole('button', { name: 'Open Settings' }));
    await screen.findByRole('heading', { name: 'Settings' });
  });

  it('disables the composer with an explanation when no model is configured', async () => {
    setup({}, { ...STATUS, configured: false, problem: 'No model endpoint is set.' });
    // The empty chat says it too (and the composer's own note is hidden then, EmptyState.css).
    expect(await screen.findByRole('heading', { name: 'Connect a model to start' })).toBeTruthy();
    await screen.findAllByText('No model endpoint is set.');
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Open settings' }));
    await screen.findByRole('heading', { name: 'Settings' });
  });

  it('runs a live client tool and reports it; a restored one waits for "Run now"', async () => {
    const view = emptyView(thread('th-1', 'Tools'));
    const { t } = setup({ 'th-1': view, 'th-2': restoredView() });
    await openThread('Tools');
    emit(t, 'th-1', fixtures.clientTool);
    await waitFor(() => expect(t.callsOf('Answer')).toHaveLength(1));
    expect(t.copied).toEqual(['hello world']);
    expect(t.callsOf('Answer')[0]).toEqual([
      'th-1',
      { answers: [], clientResults: [{ toolCallId: 'tc-c', content: 'Copied 11 characters to the clipboard.' }] },
    ]);

    await openThread('Restored');
    await screen.findByText('This action was waiting when Juncture closed.');
    expect(t.opened).toEqual([]);
    expect(t.callsOf('Answer')).toHaveLength(1);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Run now' }));
    });
    expect(t.opened).toEqual(['https://example.org/docs']);
    expect(t.callsOf('Answer')[1]).toEqual([
      'th-2',
      { answers: [], clientResults: [{ toolCallId: 'tc-o', content: 'Opened https://example.org/docs in the browser.' }] },
    ]);
    // The window answers only through Answer.
    expect(t.callsOf('CompleteClientTool')).toEqual([]);
  });

  it('runs a client tool with the arguments of its pending-client record, not the streamed ones', async () => {
    const { t } = setup({ 'th-1': emptyView(thread('th-1', 'Links')) });
    await openThread('Links');
    emit(t, 'th-1', [
      { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r1' },
      { type: 'TOOL_CALL_START', toolCallId: 'tc-o', toolCallName: 'open_url', parentMessageId: 'm1' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'tc-o', delta: '{"url":"https://evil.example/original"}' },
      { type: 'TOOL_CALL_END', toolCallId: 'tc-o' },
      // The person edited the URL on the approval card; Go records what was approved.
      {
        type: 'CUSTOM',
        name: 'juncture.tool_state',
        value: {
          toolCallId: 'tc-o',
          state: 'pending-client',
          toolName: 'open_url',
          arguments: '{"url":"https://example.org/edited"}',
          edited: true,
        },
      },
      { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r1', outcome: { type: 'success', pendingToolCallIds: ['tc-o'] } },
    ]);
    await waitFor(() => expect(t.callsOf('Answer')).toHaveLength(1));
    expect(t.opened).toEqual(['https://example.org/edited']);
    expect(t.callsOf('Answer')[0]).toEqual([
      'th-1',
      { answers: [], clientResults: [{ toolCallId: 'tc-o', content: 'Opened https://example.org/edited in the browser.' }] },
    ]);
  });

  it('"Cancel" on a waiting action answers it as cancelled', async () => {
    const { t } = setup({ 'th-2': restoredView() });
    await openThread('Restored');
    await screen.findByText('This action was waiting when Juncture closed.');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    });
    expect(t.opened).toEqual([]);
    expect(t.callsOf('Answer')).toEqual([
      ['th-2', { answers: [], clientResults: [{ toolCallId: 'tc-o', content: '', cancelled: true }] }],
    ]);
  });

  it('each decision is one Answer call (remember inside); the card then says how many still wait', async () => {
    const { t } = setup({ 'th-1': emptyView(thread('th-1', 'Todo')) });
    t.responders.Answer = () => ({ continued: false, waiting: ['approval_tc-w', 'interrupt-1767225600000-2tnxhxy'] });
    await openThread('Todo');
    emit(t, 'th-1', fixtures.interrupt);
    const run = await screen.findByRole('article', { name: 'Approval for run_command' });
    fireEvent.click(within(run).getByRole('button', { name: 'Always allow…' }));
    await act(async () => {
      fireEvent.click(within(run).getByRole('button', { name: 'Always allow' }));
    });
    expect(t.callsOf('Answer')).toEqual([
      [
        'th-1',
        {
          answers: [
            {
              interruptId: 'approval_tc-r',
              status: 'resolved',
              payload: { approved: true },
              remember: { scope: 'command-prefix', pattern: 'git status' },
            },
          ],
          clientResults: [],
        },
      ],
    ]);
    expect(t.callsOf('RespondPermission')).toEqual([]);
    expect(t.callsOf('ResolveInterrupts')).toEqual([]);
    await waitFor(() => expect(within(run).getByRole('status').textContent).toMatch(/Always allowed.* — waiting for 2 more/));
    expect(screen.getByText('Waiting for 2 decisions')).toBeTruthy();
  });

  it('after a reload, an answered item of an incomplete batch says "Answered — waiting for N more"', async () => {
    const view = emptyView(thread('th-1', 'Paused'));
    const last = fixtures.interrupt[fixtures.interrupt.length - 1]!;
    if (last.type !== 'RUN_FINISHED' || last.outcome.type !== 'interrupt') throw new Error('fixture');
    view.interrupts = last.outcome.interrupts;
    view.answered = ['approval_tc-w'];
    setup({ 'th-1': view });
    await openThread('Paused');
    const write = await screen.findByRole('article', { name: 'Approval for write_file' });
    expect(within(write).getByRole('status').textContent).toMatch(/^Answered — waiting for 2 more/);
    expect(screen.getByText(/1 of 3 answered/)).toBeTruthy();
  });

  it('a refused answer is shown on its card', async () => {
    const { t } = setup({ 'th-1': emptyView(thread('th-1', 'Todo')) });
    t.responders.Answer = () => {
      throw new JunctureError('conflict', 'Too late: a new message came first.', { code: 'stale', runId: 'run-3' });
    };
    await openThread('Todo');
    emit(t, 'th-1', fixtures.interrupt);
    const run = await screen.findByRole('article', { name: 'Approval for run_command' });
    await act(async () => {
      fireEvent.click(within(run).getByRole('button', { name: 'Allow once' }));
    });
    expect((await within(run).findByRole('alert')).textContent).toContain('Too late: a new message came first.');
    expect(within(run).getByRole('button', { name: 'Allow once' })).toBeTruthy();
  });

  it('search shows highlighted parts and opens the hit', async () => {
    const { t } = setup({ big: bigThreadView('big', 50) });
    t.responders.SearchHistory = () => [
      {
        threadId: 'big',
        threadTitle: 'Big thread',
        messageId: 'big-m10',
        role: 'user',
        parts: [
          { text: 'Question number 10: can you help with ', match: false },
          { text: 'item', match: true },
          { text: ' <img src=x onerror=alert(1)>', match: false },
        ],
        createdAt: 1,
        rank: 0,
      },
    ];
    await screen.findByRole('button', { name: 'Big thread' });
    act(() => {
      fireEvent.keyDown(window, { key: 'k', ctrlKey: true });
    });
    const search = screen.getByLabelText('Search conversations');
    expect(document.activeElement).toBe(search);
    change(search, { target: { value: 'item' } });
    const hit = await screen.findByRole('button', { name: /Question number 10/ });
    expect(within(hit).getByText('item').tagName).toBe('MARK');
    expect(hit.querySelector('img')).toBeNull();
    await act(async () => {
      fireEvent.click(hit);
    });
    await waitFor(() => expect(document.querySelector('[data-message-id="big-m10"].is-highlighted')).not.toBeNull());
  });

  it('search shows a title hit as the title, and assistant snippets without Markdown syntax', async () => {
    const { t } = setup({ big: bigThreadView('big', 4) });
    t.responders.SearchHistory = () => [
      { threadId: 'big', threadTitle: 'Notes on tools', messageId: '', role: 'system', parts: [{ text: 'Notes on ', match: false }, { text: 'tools', match: true }], createdAt: 1, rank: 0 },
      {
        threadId: 'big',
        threadTitle: 'Notes on tools',
        messageId: 'big-m1',
        role: 'assistant',
        parts: [
          { text: '> The `write_file` ', match: false },
          { text: 'tools', match: true },
          { text: ' are **fast**, see [the docs](https://x.org)', match: false },
        ],
        createdAt: 2,
        rank: 1,
      },
    ];
    await screen.findByRole('button', { name: 'Big thread' });
    change(screen.getByLabelText('Search conversations'), { target: { value: 'tools' } });
    const list = await screen.findByRole('list', { name: 'Search results for tools' });
    const [titleHit, msgHit] = within(list).getAllByRole('button');
    expect(titleHit!.textContent).not.toMatch(/system:/);
    expect(within(titleHit!).getByText('tools').tagName).toBe('MARK');
    expect(titleHit!.querySelector('.search-hit-title')?.textContent).toBe('Notes on tools');
    expect(msgHit!.querySelector('.search-hit-snippet')?.textContent).toBe('Juncture: The write_file tools are fast, see the docs');
  });

  it('delete hides the thread with an Undo toast and calls DeleteThread only after ~10 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { t } = setup({ 'th-1': emptyView(thread('th-1', 'Keep me')), 'th-2': emptyView(thread('th-2', 'Drop me')) });
    await screen.findByRole('button', { name: 'Drop me' });
    fireEvent.click(screen.getByRole('button', { name: 'Options for Drop me' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    expect(screen.queryByRole('button', { name: 'Drop me' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(screen.getByRole('button', { name: 'Drop me' })).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(11000);
    });
    expect(t.callsOf('DeleteThread')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Options for Drop me' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    await act(async () => {
      vi.advanceTimersByTime(9000);
    });
    expect(t.callsOf('DeleteThread')).toEqual([]);
    await act(async () => {
      vi.advanceTimersByTime(1500);
    });
    expect(t.callsOf('DeleteThread')).toEqual([['th-2']]);
  });

  it('renames inline and pins', async () => {
    const { t } = setup({ 'th-1': emptyView(thread('th-1', 'Old name')) });
    await screen.findByRole('button', { name: 'Old name' });
    fireEvent.click(screen.getByRole('button', { name: 'Options for Old name' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Rename' }));
    const input = screen.getByLabelText('Conversation title');
    change(input, { target: { value: 'New name' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(t.callsOf('RenameThread')).toEqual([['th-1', 'New name']]);
    await screen.findByRole('button', { name: 'New name' });
    fireEvent.click(screen.getByRole('button', { name: 'Options for New name' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Pin' }));
    expect(t.callsOf('PinThread')).toEqual([['th-1', true]]);
    expect(screen.getByRole('region', { name: 'Pinned' })).toBeTruthy();
    // The chat button is named by its title alone; the status is its description.
    const chat = screen.getByRole('button', { name: 'New name', description: 'Pinned' });
    expect(chat.getAttribute('title')).toBe('New name');
  });

  it('prefixes the title when an approval arrives while the window is not focused', async () => {
    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    const { t } = setup({ 'th-1': emptyView(thread('th-1', 'Todo')) });
    await openThread('Todo');
    emit(t, 'th-1', fixtures.interrupt);
    await waitFor(() => expect(document.title.startsWith('(3) Approval needed — ')).toBe(true));
    await screen.findByRole('article', { name: 'Approval for write_file' });
    expect(screen.getByText(/Waiting for an external reviewer/)).toBeTruthy();
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    expect(document.title.startsWith('(')).toBe(false);
  });
});

function restoredView(): ThreadView {
  const v = emptyView(thread('th-2', 'Restored'));
  v.messages = [
    {
      id: 'a',
      threadId: 'th-2',
      role: 'assistant',
      content: 'Opening the docs.',
      toolCalls: [{ id: 'tc-o', name: 'open_url', arguments: '{"url":"https://example.org/docs"}' }],
      status: 'complete',
      createdAt: 1,
    },
  ];
  v.clientTools = [
    {
      toolCallId: 'tc-o',
      threadId: 'th-2',
      runId: 'r',
      toolName: 'open_url',
      arguments: '{"url":"https://example.org/docs"}',
      state: 'pending',
      createdAt: 1,
    },
  ];
  v.toolStates = { 'tc-o': 'pending-client' };
  return v;
}

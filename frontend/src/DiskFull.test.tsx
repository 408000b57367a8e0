// Issue 19, defect 10: on a full disk the message is not saved, the window
// says so and keeps the text; a save failing mid-stream shows at once.
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { App } from './App';
import { TransportContext } from './transport';
import { FakeTransport } from './test/fakeTransport';
import { emptyView, thread } from './test/builders';
import type { Status } from './transport/contract';
import { JunctureError } from './transport/errors';
import { change } from './test/change';

const STATUS: Status = { mode: 'desktop', configured: true, endpoint: 'http://127.0.0.1:11434/v1', model: 'llama3.1' };
const DISK_FULL = 'Disk full: your message was not saved. Free some space on the disk, then send it again.';

function setup(sendInput: () => never | { threadId: string; queued: boolean }) {
  const view = emptyView(thread('th-1', 'Notes'));
  const t = new FakeTransport({
    Status: () => STATUS,
    ListThreads: () => ({ threads: [{ ...view.thread, running: false, waiting: 0 }], nextCursor: '' }),
    GetThread: () => view,
    SendInput: sendInput,
    NewThread: () => thread('new-1', ''),
  });
  render(
    <TransportContext.Provider value={t}>
      <App />
    </TransportContext.Provider>,
  );
  return t;
}

describe('a full disk', () => {
  it('keeps the message in the composer and says it was not saved', async () => {
    const t = setup(() => {
      throw new JunctureError('disk-full', DISK_FULL);
    });
    // Found before act: inside it Preact holds renders until it ends.
    const button = await screen.findByRole('button', { name: 'Notes' });
    await act(async () => {
      fireEvent.click(button);
    });
    const box = await screen.findByLabelText<HTMLTextAreaElement>('Message');
    change(box, { target: { value: 'words I do not want to lose' } });
    await act(async () => {
      fireEvent.keyDown(box, { key: 'Enter' });
    });
    expect(t.callsOf('SendInput')).toEqual([['th-1', 'words I do not want to lose']]);
    await waitFor(() => expect(box.value).toBe('words I do not want to lose'));
    expect(await screen.findByText(DISK_FULL)).toBeTruthy();
    // The optimistic copy of the message is gone: it was never stored.
    const log = screen.queryByRole('log');
    if (log) expect(within(log).queryByText('words I do not want to lose')).toBeNull();
  });

  it('shows a save failing mid-stream as soon as Go says so, and clears it when saving works again', async () => {
    const t = setup(() => ({ threadId: 'th-1', queued: false }));
    await screen.findByRole('button', { name: 'Notes' });
    const problem = 'Disk full: Juncture cannot save right now, so the answer being written is not being kept.';
    act(() => t.emit('status', { ...STATUS, saveProblem: problem }));
    expect((await screen.findByText(problem)).getAttribute('role')).toBe('alert');
    act(() => t.emit('status', STATUS));
    expect(screen.queryByText(problem)).toBeNull();
  });
});

import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/preact';
import { MessageRow, MessageThreadContext, type MessageThread } from './Message';
import type { MessageItem } from '../../state/derive';
import type { UIMessage } from '../../state/types';
import { change } from '../../test/change';

function item(m: Partial<UIMessage> & Pick<UIMessage, 'id' | 'role'>, extra: Partial<MessageItem> = {}): MessageItem {
  const message: UIMessage = { content: '', reasoning: '', reasoningStreaming: false, toolCallIds: [], status: 'complete', createdAt: 1, ...m };
  return { key: m.id, message, tools: [], isLastUser: false, isLastAssistant: false, ...extra };
}

function renderRow(it: MessageItem, ctx: MessageThread, rowProps: { onRegenerate?: (i: MessageItem) => void } = {}) {
  return render(
    <MessageThreadContext.Provider value={ctx}>
      <MessageRow item={it} highlighted={false} idle={!ctx.running} {...rowProps} />
    </MessageThreadContext.Provider>,
  );
}

describe('MessageRow: versions, editing, regenerating, usage', () => {
  it('shows the switcher on a question with versions and selects the next one', () => {
    const onSelectBranch = vi.fn();
    renderRow(item({ id: 'q2', role: 'user', content: 'giraffes', branch: { index: 2, count: 3, siblings: ['q1', 'q2', 'q3'] } }), {
      running: false,
      onSelectBranch,
    });
    expect(screen.getByText('Version 2 of 3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next version' }));
    fireEvent.click(screen.getByRole('button', { name: 'Previous version' }));
    expect(onSelectBranch.mock.calls).toEqual([['q3'], ['q1']]);
  });

  it('edits a question in place: Enter sends, Shift+Enter is a new line, Esc cancels', async () => {
    const onEdit = vi.fn(async () => {});
    renderRow(item({ id: 'q1', role: 'user', content: 'zebras' }), { running: false, onEdit });
    fireEvent.click(screen.getByRole('button', { name: 'Edit message' }));
    const box = screen.getByRole('textbox', { name: 'Edit your message' }) as HTMLTextAreaElement;
    expect(box.value).toBe('zebras');
    expect(document.activeElement).toBe(box);
    // Unchanged: nothing to send.
    expect((screen.getByRole('button', { name: 'Save & send' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByText('zebras')).toBeTruthy();
    expect(onEdit).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Edit message' }));
    const box2 = screen.getByRole('textbox', { name: 'Edit your message' });
    change(box2, { target: { value: 'giraffes' } });
    fireEvent.keyDown(box2, { key: 'Enter', shiftKey: true });
    expect(onEdit).not.toHaveBeenCalled();
    await act(async () => {
      fireEvent.keyDown(box2, { key: 'Enter' });
    });
    expect(onEdit.mock.calls).toEqual([['q1', 'giraffes']]);
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('keeps the editor open with the reason when the edit is refused', async () => {
    const onEdit = vi.fn(async () => {
      throw new Error('agent: the thread is already running a turn.');
    });
    renderRow(item({ id: 'q1', role: 'user', content: 'zebras' }), { running: false, onEdit });
    fireEvent.click(screen.getByRole('button', { name: 'Edit message' }));
    change(screen.getByRole('textbox'), { target: { value: 'giraffes' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save & send' }));
    });
    expect((await screen.findByRole('alert')).textContent).toBe('agent: the thread is already running a turn.');
    expect((screen.getByRole('textbox') as HTMLTextAreaElement).value).toBe('giraffes');
  });

  it('offers no edit while the thread runs', () => {
    renderRow(item({ id: 'q1', role: 'user', content: 'zebras' }), { running: true, onEdit: async () => {} });
    expect(screen.queryByRole('button', { name: 'Edit message' })).toBeNull();
  });

  it('Regenerate on the last answer of a finished turn (not only after an error), hidden while running', () => {
    const onRegenerate = vi.fn();
    const answer = item({ id: 'a1', role: 'assistant', content: 'Zebras are striped.', usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 } }, { isTurnEnd: true });
    const { rerender } = renderRow(answer, { running: false }, { onRegenerate });
    fireEvent.click(screen.getByRole('button', { name: /Regenerate/ }));
    expect(onRegenerate).toHaveBeenCalledWith(answer);
    expect(screen.getByText('10 in · 5 out')).toBeTruthy();
    rerender(
      <MessageThreadContext.Provider value={{ running: true }}>
        <MessageRow item={answer} highlighted={false} idle={false} onRegenerate={onRegenerate} />
      </MessageThreadContext.Provider>,
    );
    expect(screen.queryByRole('button', { name: /Regenerate/ })).toBeNull();
    // An answer in the middle of a turn (a tool call followed) has none.
    rerender(
      <MessageThreadContext.Provider value={{ running: false }}>
        <MessageRow item={{ ...answer, isTurnEnd: false }} highlighted={false} idle onRegenerate={onRegenerate} />
      </MessageThreadContext.Provider>,
    );
    expect(screen.queryByRole('button', { name: /Regenerate/ })).toBeNull();
  });

  it('shows a version switcher and usage on an answer; nothing about usage while it streams or before the store is read', () => {
    const { container, rerender } = renderRow(
      item({ id: 'a2', role: 'assistant', content: 'Zebras are horses.', model: 'm1', usage: { promptTokens: 2000, completionTokens: 100, totalTokens: 2100 }, branch: { index: 2, count: 2, siblings: ['a1', 'a2'] } }, { isTurnEnd: true }),
      { running: false, onSelectBranch: () => {}, priceOf: (m) => (m === 'm1' ? { inputPerMTok: 1, outputPerMTok: 2 } : null) },
    );
    expect(screen.getByText('Version 2 of 2')).toBeTruthy();
    expect(container.querySelector('.usage-line')!.textContent).toBe('2k in · 100 out · $0.0022');
    rerender(
      <MessageThreadContext.Provider value={{ running: false }}>
        <MessageRow item={item({ id: 'a3', role: 'assistant', content: 'Live', detailsPending: true })} highlighted={false} idle />
      </MessageThreadContext.Provider>,
    );
    expect(container.querySelector('.usage-line')).toBeNull();
    rerender(
      <MessageThreadContext.Provider value={{ running: false }}>
        <MessageRow item={item({ id: 'a4', role: 'assistant', content: 'Old answer' })} highlighted={false} idle />
      </MessageThreadContext.Provider>,
    );
    expect(container.querySelector('.usage-line')!.getAttribute('title')).toBe('The endpoint did not report token usage');
  });

  it('shows the thread’s instructions as a muted divider that opens to the text, not a bubble', () => {
    const { container } = renderRow(item({ id: 's1', role: 'system', content: 'Answer in French.' }), { running: false });
    expect(container.querySelector('.msg-user-bubble, .msg-system')).toBeNull();
    const summary = screen.getByText('Instructions updated');
    expect(container.querySelector('details')!.open).toBe(false);
    fireEvent.click(summary);
    expect(container.querySelector('details')!.open).toBe(true);
    expect(screen.getByText('Answer in French.')).toBeTruthy();
  });
});

import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/preact';
import { MessageRow, MessageThreadContext } from './Message';
import { deriveThread } from '../../state/derive';
import { emptyThreadState, type ThreadState, type ToolCallView, type UIMessage } from '../../state/types';

function msg(m: Partial<UIMessage> & Pick<UIMessage, 'id' | 'role'>): UIMessage {
  return { content: '', reasoning: '', reasoningStreaming: false, toolCallIds: [], status: 'complete', createdAt: 1, ...m };
}

function call(id: string, messageId: string, name: string, result: string): ToolCallView {
  return { id, name, args: '{}', argsComplete: true, messageId, state: 'done', result };
}

// q, the model's answer that showed the view (call-show, then "Shown."),
// then the view's own call (an assistant message no model wrote).
function thread(): ThreadState {
  return {
    ...emptyThreadState('th'),
    messages: [
      msg({ id: 'q', role: 'user', content: 'show it' }),
      msg({ id: 'a1', role: 'assistant', toolCallIds: ['call-show'] }),
      msg({ id: 'a2', role: 'assistant', content: 'Shown.', usage: { promptTokens: 3, completionTokens: 1, totalTokens: 4 } }),
      msg({ id: 'v1', role: 'assistant', toolCallIds: ['view-abc'] }),
    ],
    toolCalls: {
      'call-show': call('call-show', 'a1', 'apps__clock', 'It is 12:00.'),
      'view-abc': call('view-abc', 'v1', 'apps__stamp', 'stamped: hi'),
    },
  };
}

describe("a view's tool call in the chat", () => {
  it('sits in no empty answer and offers no Regenerate; the answer before it keeps its own', () => {
    const d = deriveThread(thread());
    const [, , answer, view] = d.items;
    expect(view!.isViewCall).toBe(true);
    expect(view!.isTurnEnd).toBeFalsy();
    expect(answer!.isTurnEnd).toBe(true);
    expect(answer!.isLastAssistant).toBe(true);
    const onRegenerate = vi.fn();
    const { container } = render(
      <MessageThreadContext.Provider value={{ running: false, threadId: 'th' }}>
        <MessageRow item={view!} highlighted={false} idle onRegenerate={onRegenerate} />
      </MessageThreadContext.Provider>,
    );
    expect(screen.queryByRole('button', { name: /Regenerate/ })).toBeNull();
    expect(screen.queryByRole('article', { name: 'Juncture said' })).toBeNull();
    expect(screen.getByRole('article', { name: 'Asked by a view' })).toBeTruthy();
    expect(container.querySelector('.msg-actions')).toBeNull();
    expect(container.querySelector('.usage-line')).toBeNull();
    expect(container.textContent).toContain('apps__stamp');
  });

  it('a message that mixes a model call with a view-looking id is the model\'s', () => {
    const s = thread();
    s.messages[3] = msg({ id: 'v1', role: 'assistant', content: 'Text.', toolCallIds: ['view-abc'] });
    expect(deriveThread(s).items[3]!.isViewCall).toBeFalsy();
  });
});

import { describe, expect, it } from 'vitest';
import type { MessageItem } from '../../state/derive';
import { resolveHit } from './ThreadView';

const item = (key: string, tools: { id: string; result?: string }[] = []): MessageItem => ({
  key,
  message: { id: key, role: 'assistant', content: '', reasoning: '', reasoningStreaming: false, toolCallIds: [], status: 'complete', createdAt: 1 },
  tools: tools.map((t) => ({ id: t.id, name: 'list_files', args: '{}', argsComplete: true, messageId: key, ...(t.result ? { result: t.result } : {}) })),
  isLastUser: false,
  isLastAssistant: false,
});

describe('resolveHit', () => {
  const items = [item('m1'), item('m2', [{ id: 'tc1', result: 'notes.md\nzephyr.txt\n' }, { id: 'tc2', result: 'other zephyr' }])];

  it('finds a message by its id', () => {
    expect(resolveHit(items, 'm1', 'x', ['x'])).toEqual({ key: 'm1', inTool: false });
  });

  it('finds a tool result (not a row of its own) in the call that it answers, by its snippet', () => {
    expect(resolveHit(items, 'tool-msg-9', 'zephyr.txt', ['zephyr'])).toEqual({ key: 'm2', inTool: true });
    expect(resolveHit(items, 'tool-msg-9', 'nothing like it', ['zephyr'])).toEqual({ key: 'm2', inTool: true });
    expect(resolveHit(items, 'tool-msg-9', 'nothing', ['absent'])).toBeNull();
  });
});

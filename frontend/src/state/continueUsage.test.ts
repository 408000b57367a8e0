import { describe, expect, it } from 'vitest';
import { threadReducer } from './threadReducer';
import { emptyThreadState } from './types';
import type { ThreadView } from '../transport/contract';
import { emptyView, thread } from '../test/builders';

// A continued answer grows a stored message in place: its usage changes, so
// it is read again when the run ends (as a new answer's is), and no stale or
// missing ("—") usage shows meanwhile.
const view: ThreadView = {
  ...emptyView(thread('th-1', 'T')),
  messages: [
    { id: 'u', threadId: 'th-1', role: 'user', content: 'write', status: 'complete', createdAt: 1 },
    {
      id: 'a',
      threadId: 'th-1',
      role: 'assistant',
      content: 'Half',
      status: 'complete',
      createdAt: 2,
      usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
    },
  ],
  usage: { answers: 1, total: { promptTokens: 10, completionTokens: 5, totalTokens: 15 }, unreported: 0 },
};

describe('usage of a continued answer', () => {
  it('TestContinuedAnswerUsageRefetched: pending while it streams, read again when the run ends', () => {
    let s = threadReducer(emptyThreadState('th-1'), { type: 'load', view });
    expect(s.messages.find((m) => m.id === 'a')?.detailsPending).toBeUndefined();
    s = threadReducer(s, {
      type: 'events',
      events: [
        { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r2' },
        { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: ' and the rest' },
        { type: 'TEXT_MESSAGE_END', messageId: 'a' },
      ],
    });
    expect(s.messages.find((m) => m.id === 'a')?.detailsPending).toBe(true);
    s = threadReducer(s, { type: 'events', events: [{ type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r2', outcome: { type: 'success', pendingToolCallIds: [] } }] });
    expect(s.needsRefresh).toBe(true);
  });
});

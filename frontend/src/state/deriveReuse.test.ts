// A streamed token makes a new thread state; what the decision cards read
// (state/derive's decisions) stays the same arrays, so the memoized cards
// skip the frame. A change to what they depend on makes new ones.
import { describe, expect, it } from 'vitest';
import { threadReducer } from './threadReducer';
import { emptyThreadState, type ThreadState } from './types';
import { deriveThread } from './derive';
import type { AguiEvent } from '../transport/agui';

const ev = (events: AguiEvent[], s: ThreadState = emptyThreadState('th')) => threadReducer(s, { type: 'events', events });

describe('deriveThread keeps the decisions while only text changes', () => {
  it('the same arrays across streamed tokens', () => {
    const a = ev([
      { type: 'RUN_STARTED', threadId: 'th', runId: 'r1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'Half' },
    ]);
    const b = ev([{ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: ' an answer' }], a);
    const da = deriveThread(a);
    const db = deriveThread(b);
    expect(db).not.toBe(da);
    expect(db.items[0]!.message.content).toBe('Half an answer');
    for (const k of ['interrupts', 'actionable', 'unbound', 'answered', 'waiting'] as const) expect(db[k], k).toBe(da[k]);
  });

  it('new ones when an interrupt arrives, with what they say', () => {
    const a = ev([
      { type: 'RUN_STARTED', threadId: 'th', runId: 'r1' },
      { type: 'TOOL_CALL_START', toolCallId: 'tc', toolCallName: 'write_file', parentMessageId: 'a1' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'tc', delta: '{}' },
      { type: 'TOOL_CALL_END', toolCallId: 'tc' },
    ]);
    const b = ev(
      [
        {
          type: 'RUN_FINISHED',
          threadId: 'th',
          runId: 'r1',
          outcome: { type: 'interrupt', interrupts: [{ id: 'approval_tc', reason: 'tool_call', message: 'Approve write_file', toolCallId: 'tc' }] },
        },
      ],
      a,
    );
    const da = deriveThread(a);
    const db = deriveThread(b);
    expect(db.interrupts).not.toBe(da.interrupts);
    expect(db.interrupts.map((c) => c.interrupt.id)).toEqual(['approval_tc']);
    // answering it changes what is waiting
    const c = threadReducer(b, { type: 'answered', ids: ['approval_tc'], result: { continued: false, waiting: [] } } as never);
    const dc = deriveThread(c);
    expect(dc.answered.has('approval_tc')).toBe(true);
    expect(dc.answered).not.toBe(db.answered);
  });
});

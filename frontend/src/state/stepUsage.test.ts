import { describe, expect, it } from 'vitest';
import { threadReducer } from './threadReducer';
import { emptyThreadState } from './types';
import type { AguiEvent } from '../transport/agui';
import type { ThreadView } from '../transport/contract';
import { thread } from '../test/builders';

// Issue 22 #17: a step that ends in tool calls waiting for the person (an
// approval, a client tool) showed no usage live while a reload showed it:
// the step is stored whole when the run pauses, so its usage is read then,
// without replacing what waits (the cards, answers given so far).
const usage = { promptTokens: 41, completionTokens: 6, totalTokens: 47 };
const events: AguiEvent[] = [
  { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r1' },
  { type: 'TEXT_MESSAGE_START', messageId: 'u', role: 'user' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'u', delta: 'write a note' },
  { type: 'TEXT_MESSAGE_END', messageId: 'u' },
  { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'Writing it.' },
  { type: 'TOOL_CALL_START', toolCallId: 'tc', toolCallName: 'write_file', parentMessageId: 'a' },
  { type: 'TOOL_CALL_ARGS', toolCallId: 'tc', delta: '{"path":"n.txt"}' },
  { type: 'TOOL_CALL_END', toolCallId: 'tc' },
  { type: 'TEXT_MESSAGE_END', messageId: 'a' },
  { type: 'CUSTOM', name: 'juncture.tool_state', value: { toolCallId: 'tc', state: 'awaiting-approval', toolName: 'write_file' } },
  {
    type: 'RUN_FINISHED',
    threadId: 'th-1',
    runId: 'r1',
    outcome: { type: 'interrupt', interrupts: [{ id: 'approval_tc', reason: 'tool_call', message: 'Approve write_file', toolCallId: 'tc' }] },
  },
] as AguiEvent[];

const view = {
  thread: thread('th-1', 'T'),
  messages: [
    { id: 'u', threadId: 'th-1', role: 'user', content: 'write a note', status: 'complete', createdAt: 1 },
    {
      id: 'a', threadId: 'th-1', role: 'assistant', content: 'Writing it.', status: 'complete', createdAt: 2, runId: 'r1', usage, model: 'fake-model',
      toolCalls: [{ id: 'tc', name: 'write_file', arguments: '{"path":"n.txt"}' }],
    },
  ],
  running: false, queued: [], interrupts: [], interruptKinds: {}, clientTools: [], toolStates: { tc: 'awaiting-approval' }, answered: [], eventSeq: 20, editedArgs: {},
  usage: { answers: 1, total: usage, unreported: 0 },
} as unknown as ThreadView;

describe('usage of a step that waits', () => {
  it('TestToolStepUsageShownWhileItWaits: read when the run pauses, the waiting items left as they are', () => {
    let s = threadReducer(emptyThreadState('th-1'), { type: 'events', events });
    expect(s.phase).toBe('awaiting');
    expect(s.messages.find((m) => m.id === 'a')?.detailsPending).toBe(true);
    expect(s.needsDetails).toBe(true);
    const interrupts = s.interrupts;
    s = threadReducer(s, { type: 'detailsAsked' });
    expect(s.needsDetails).toBe(false);
    s = threadReducer(s, { type: 'details', view });
    const a = s.messages.find((m) => m.id === 'a')!;
    expect(a.usage).toEqual(usage);
    expect(a.model).toBe('fake-model');
    expect(a.detailsPending).toBeUndefined();
    expect(s.usage).toEqual(view.usage);
    expect(s.interrupts).toBe(interrupts);
    expect(s.phase).toBe('awaiting');
  });

  it('leaves a message the view does not have whole (still streaming there) pending', () => {
    let s = threadReducer(emptyThreadState('th-1'), { type: 'events', events });
    const streaming = { ...view, messages: view.messages.map((m) => (m.id === 'a' ? { ...m, status: 'streaming', usage: undefined } : m)) } as ThreadView;
    s = threadReducer(s, { type: 'details', view: streaming });
    expect(s.messages.find((m) => m.id === 'a')?.detailsPending).toBe(true);
  });
});

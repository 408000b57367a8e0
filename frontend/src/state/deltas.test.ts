import { describe, expect, it } from 'vitest';
import { mergeDelta } from './deltas';
import { coalesce } from './batcher';
import { parseEventData } from '../transport/events';
import { loadView } from './load';
import { emptyThreadState } from './types';
import { emptyView, thread } from '../test/builders';

describe('mergeDelta', () => {
  it.each([
    ['appends a delta that starts at the end', 'ab', 'cd', 2, 'abcd', false],
    ['skips a delta the text already has', 'abcd', 'cd', 2, 'abcd', false],
    ['appends only the part beyond the end (a straddling delta)', 'abc', 'cde', 2, 'abcde', false],
    ['counts UTF-16 code units (a surrogate pair is two)', 'a🙂', '🙂b', 1, 'a🙂b', false],
    ['reports a gap and still shows the delta', 'ab', 'xy', 5, 'abxy', true],
    ['appends a delta without an offset as it is', 'ab', 'ab', undefined, 'abab', false],
  ])('%s', (_name, have, delta, offset, want, gap) => {
    expect(mergeDelta(have, delta, offset)).toEqual({ text: want, gap });
  });
});

describe('delta offsets through the transport and the batcher', () => {
  it('copies the envelope offset and seq onto the event', () => {
    const v = parseEventData('agui', { threadId: 't', seq: 7, offset: 3, event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x' } });
    expect(v).toEqual({ threadId: 't', seq: 7, event: { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x', offset: 3 } });
  });

  it('merges only contiguous deltas', () => {
    const out = coalesce([
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'ab', offset: 0 },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'cd', offset: 2 },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'cd', offset: 2 }, // a repeat: kept apart
    ]);
    expect(out.map((e) => ('delta' in e ? e.delta : ''))).toEqual(['abcd', 'cd']);
  });
});

describe('loading a view that says which events it reflects', () => {
  // Reload 1.5 s into "write a long essay": the snapshot holds the answer
  // as far as it streamed; the events after its seq continue it exactly,
  // whatever the window had before.
  const live = {
    ...emptyView(thread('th', 'Essay')),
    eventSeq: 40,
    running: true,
    runId: 'r1',
    messages: [
      { id: 'u', threadId: 'th', role: 'user' as const, content: 'write a long essay', status: 'complete' as const, createdAt: 1 },
      { id: 'a', threadId: 'th', role: 'assistant' as const, content: 'w001 w002 w003 ', reasoning: 'hmm', status: 'streaming' as const, createdAt: 2 },
    ],
  };

  it('continues the live answer with no hole and nothing twice', () => {
    const stale = { ...emptyThreadState('th'), messages: [] };
    const s = loadView(stale, live, [
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'w003 w004 ', offset: 10 }, // straddles the snapshot
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'w005 ', offset: 20 },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'a-reasoning', delta: 'hmm.', offset: 0 },
    ], false);
    const a = s.messages.find((m) => m.id === 'a');
    expect(a?.content).toBe('w001 w002 w003 w004 w005 ');
    expect(a?.reasoning).toBe('hmm.');
    expect(s.messages.filter((m) => m.role === 'assistant')).toHaveLength(1);
    expect(s.needsResync).toBeFalsy();
  });
});

describe('edited arguments', () => {
  it('shows what ran after a reload (ThreadView.editedArgs)', () => {
    const view = {
      ...emptyView(thread('th', 'Edit')),
      eventSeq: 5,
      editedArgs: { c1: '{"path":"mine.txt"}' },
      messages: [
        { id: 'a', threadId: 'th', role: 'assistant' as const, content: '', toolCalls: [{ id: 'c1', name: 'write_file', arguments: '{"path":"model.txt"}' }], status: 'complete' as const, createdAt: 1 },
        { id: 'r', threadId: 'th', role: 'tool' as const, content: 'done', toolCallId: 'c1', status: 'complete' as const, createdAt: 2 },
      ],
    };
    const s = loadView(emptyThreadState('th'), view, [], false);
    expect(s.toolCalls.c1?.args).toBe('{"path":"mine.txt"}');
    expect(s.toolCalls.c1?.edited).toBe(true);
  });
});

describe('Continue in place', () => {
  it('a stopped answer grows: its mark goes away and the text continues at its offset', () => {
    const view = {
      ...emptyView(thread('th', 'Poem')),
      eventSeq: 9,
      messages: [
        { id: 'a', threadId: 'th', role: 'assistant' as const, content: 'Roses are red,\n\n<system>User interrupted this message</system>', status: 'complete' as const, createdAt: 1 },
      ],
    };
    const s0 = loadView(emptyThreadState('th'), view, [], false);
    expect(s0.messages[0]?.status).toBe('interrupted');
    const s = loadView(emptyThreadState('th'), view, [
      { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: ' violets are blue.', offset: 14 },
      { type: 'TEXT_MESSAGE_END', messageId: 'a' },
    ], false);
    expect(s.messages).toHaveLength(1);
    expect(s.messages[0]?.content).toBe('Roses are red, violets are blue.');
    expect(s.messages[0]?.status).toBe('complete');
  });
});

// Stop as the person sees it (issue 26): the answer shows stopped in the
// frame after the key when only text streams; a run with a tool call open
// waits for the runtime's word.
import { describe, expect, it } from 'vitest';
import { threadReducer } from './threadReducer';
import { emptyThreadState, type ThreadState } from './types';
import { deriveThread } from './derive';
import type { AguiEvent } from '../transport/agui';

const ev = (events: AguiEvent[], s: ThreadState = emptyThreadState('th')) => threadReducer(s, { type: 'events', events });
const streaming: AguiEvent[] = [
  { type: 'RUN_STARTED', threadId: 'th', runId: 'r1' },
  { type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'Half an ans' },
];

describe('TestStopShownBeforeTheRuntimeConfirms', () => {
  it('ends a text-only stream at once, keeps the run id, and the cancelled RUN_FINISHED changes nothing the person sees', () => {
    const s = threadReducer(ev(streaming), { type: 'stopping' });
    const v = deriveThread(s);
    expect(v.status).toBe('idle');
    expect(v.items[0]!.message.status).toBe('interrupted');
    expect(s.runId).toBe('r1');
    // what was on its way still lands, then the runtime confirms
    const after = ev(
      [
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'wer' },
        { type: 'TEXT_MESSAGE_END', messageId: 'a1' },
        { type: 'RUN_FINISHED', threadId: 'th', runId: 'r1', outcome: { type: 'cancelled' } },
      ],
      s,
    );
    const w = deriveThread(after);
    expect(w.status).toBe('idle');
    expect(w.items[0]!.message.status).toBe('interrupted');
    expect(w.items[0]!.message.content).toBe('Half an answer');
    expect(after.runId).toBeNull();
  });

  it('leaves a run with an open tool call to the runtime', () => {
    const s0 = ev([
      ...streaming,
      { type: 'TOOL_CALL_START', toolCallId: 'tc', toolCallName: 'run_command', parentMessageId: 'a1' },
    ]);
    expect(threadReducer(s0, { type: 'stopping' })).toBe(s0);
  });

  it('does nothing when no run streams, and a failed Interrupt asks for the store', () => {
    const idle = emptyThreadState('th');
    expect(threadReducer(idle, { type: 'stopping' })).toBe(idle);
    expect(threadReducer(idle, { type: 'stopFailed', threadId: 'th' })).toBe(idle);
    const shown = threadReducer(ev(streaming), { type: 'stopping' });
    expect(threadReducer(shown, { type: 'stopFailed', threadId: 'th' }).needsResync).toBe(true);
  });

  it("a failed Interrupt of a chat left meanwhile changes nothing in the chat open now", () => {
    // Esc in chat A, then chat B opened before A's Interrupt call failed:
    // B (shown stopped too, from its own Stop) is not A's to resync.
    const other = threadReducer(ev(streaming, emptyThreadState('th')), { type: 'stopping' });
    expect(threadReducer(other, { type: 'stopFailed', threadId: 'A' })).toBe(other);
  });
});

// Breaks found against the Stop shown at the key (s4/break4): the window
// decides "only text streams" from what it has seen, but the runtime may
// already be past that point when the Interrupt lands.
describe('TestStopShownRuntimeWasFurther', () => {
  it('TestStopShownThenAToolStarts: a call of the run that starts after the key shows the run running again (Stop, not Send)', () => {
    // The model's stream had ended in a tool call already: the runtime runs
    // it (a MustComplete tool finishes first) and the window must say so.
    const s = threadReducer(ev(streaming), { type: 'stopping' });
    expect(deriveThread(s).status).toBe('idle');
    const started = ev(
      [
        { type: 'TEXT_MESSAGE_END', messageId: 'a1' },
        { type: 'TOOL_CALL_START', toolCallId: 'tc', toolCallName: 'run_command', parentMessageId: 'a1' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'tc', delta: '{}' },
        { type: 'TOOL_CALL_END', toolCallId: 'tc' },
        { type: 'CUSTOM', name: 'juncture.tool_state', value: { toolCallId: 'tc', state: 'running' } },
      ],
      s,
    );
    expect(deriveThread(started).status).toBe('running');
    const done = ev([{ type: 'RUN_FINISHED', threadId: 'th', runId: 'r1', outcome: { type: 'cancelled' } }], started);
    expect(deriveThread(done).status).toBe('idle');
    expect(done.toolCalls['tc']!.state).toBe('interrupted-mid-run');
  });

  it('TestStopShownThenTheRunCompletes: a run that ended on its own before the Interrupt shows its answer complete, not stopped', () => {
    // The runtime ignores an Interrupt after the run's terminal event: the
    // stored answer is complete, and so must the shown one be.
    const s = threadReducer(ev(streaming), { type: 'stopping' });
    const after = ev(
      [
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'wer' },
        { type: 'TEXT_MESSAGE_END', messageId: 'a1' },
        { type: 'RUN_FINISHED', threadId: 'th', runId: 'r1', outcome: { type: 'success', pendingToolCallIds: [] } },
      ],
      s,
    );
    const v = deriveThread(after);
    expect(v.status).toBe('idle');
    expect(v.items[0]!.message.content).toBe('Half an answer');
    expect(v.items[0]!.message.status).toBe('complete');
  });
});

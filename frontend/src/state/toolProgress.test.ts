import { describe, expect, it } from 'vitest';
import { threadReducer } from './threadReducer';
import { emptyThreadState, type ThreadState } from './types';
import type { AguiEvent } from '../transport/agui';
import { parseAguiEvent } from '../transport/agui';
import { emptyView, thread } from '../test/builders';

function ev(raw: Record<string, unknown>): AguiEvent {
  const e = parseAguiEvent(raw);
  if (!e) throw new Error(`does not parse: ${JSON.stringify(raw)}`);
  return e;
}

const toolState = (value: Record<string, unknown>) => ev({ type: 'CUSTOM', name: 'juncture.tool_state', value });

const start: AguiEvent[] = [
  ev({ type: 'RUN_STARTED', threadId: 'th-1', runId: 'r1' }),
  ev({ type: 'TOOL_CALL_START', toolCallId: 'tc', toolCallName: 'everything__longRunningOperation', parentMessageId: 'm1' }),
  ev({ type: 'TOOL_CALL_ARGS', toolCallId: 'tc', delta: '{"duration":5}' }),
  ev({ type: 'TOOL_CALL_END', toolCallId: 'tc' }),
  toolState({ toolCallId: 'tc', state: 'running' }),
];

function run(events: AguiEvent[], s: ThreadState = emptyThreadState('th-1')): ThreadState {
  return threadReducer(s, { type: 'events', events });
}

describe('threadReducer: MCP progress and parts', () => {
  it('keeps the latest progress while running; the final state clears it and brings the parts', () => {
    let s = run([...start, toolState({ toolCallId: 'tc', state: 'running', progress: { progress: 1, total: 5, message: 'Step 1' } })]);
    expect(s.toolCalls.tc!.progress).toEqual({ progress: 1, total: 5, message: 'Step 1' });
    s = run([toolState({ toolCallId: 'tc', state: 'running', progress: { progress: 4, total: 5, message: 'Step 4' } })], s);
    expect(s.toolCalls.tc!.progress).toEqual({ progress: 4, total: 5, message: 'Step 4' });
    // A running event without a report keeps the last one.
    s = run([toolState({ toolCallId: 'tc', state: 'running' })], s);
    expect(s.toolCalls.tc!.progress?.progress).toBe(4);
    s = run(
      [
        toolState({
          toolCallId: 'tc',
          state: 'done',
          parts: [
            { kind: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
            { kind: 'link', uri: 'https://example.com/report', title: 'Report' },
          ],
        }),
        ev({ type: 'TOOL_CALL_RESULT', messageId: 'res', toolCallId: 'tc', content: 'Done in 5 steps' }),
      ],
      s,
    );
    const t = s.toolCalls.tc!;
    expect(t.state).toBe('done');
    expect(t.progress).toBeUndefined();
    expect(t.result).toBe('Done in 5 steps');
    expect(t.parts).toEqual([
      { kind: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { kind: 'link', uri: 'https://example.com/report', title: 'Report' },
    ]);
  });

  it('a failed or interrupted state ends the progress too, and a result alone clears it', () => {
    const withProgress = run([...start, toolState({ toolCallId: 'tc', state: 'running', progress: { progress: 2 } })]);
    expect(withProgress.toolCalls.tc!.progress).toEqual({ progress: 2 });
    expect(run([toolState({ toolCallId: 'tc', state: 'interrupted-mid-run' })], withProgress).toolCalls.tc!.progress).toBeUndefined();
    expect(run([toolState({ toolCallId: 'tc', state: 'failed' })], withProgress).toolCalls.tc!.progress).toBeUndefined();
    const res = run([ev({ type: 'TOOL_CALL_RESULT', messageId: 'res', toolCallId: 'tc', content: 'ok' })], withProgress);
    expect(res.toolCalls.tc!.progress).toBeUndefined();
  });

  it('does not mutate the previous state', () => {
    const a = run([...start, toolState({ toolCallId: 'tc', state: 'running', progress: { progress: 1, total: 2 } })]);
    const before = a.toolCalls.tc;
    const b = run([toolState({ toolCallId: 'tc', state: 'done', parts: [{ kind: 'structured', json: { ok: true } }] })], a);
    expect(a.toolCalls.tc).toBe(before);
    expect(before!.progress).toEqual({ progress: 1, total: 2 });
    expect(b.toolCalls.tc!.parts).toEqual([{ kind: 'structured', json: { ok: true } }]);
  });

  it('a loaded thread takes the parts of the stored tool result', () => {
    const view = emptyView(thread('th-1'));
    view.messages = [
      {
        id: 'a1',
        threadId: 'th-1',
        role: 'assistant',
        content: '',
        status: 'complete',
        createdAt: 1,
        toolCalls: [{ id: 'tc', name: 'everything__getTinyImage', arguments: '{}' }],
      },
      {
        id: 't1',
        threadId: 'th-1',
        role: 'tool',
        content: 'An image',
        toolCallId: 'tc',
        status: 'complete',
        createdAt: 2,
        parts: [{ kind: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }],
      },
    ];
    view.toolStates = { tc: 'done' };
    const s = threadReducer(emptyThreadState('th-1'), { type: 'load', view });
    expect(s.toolCalls.tc!.parts).toEqual([{ kind: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }]);
    expect(s.toolCalls.tc!.state).toBe('done');
  });
});

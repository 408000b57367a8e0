import { describe, expect, it } from 'vitest';
import { fixtures } from '../test/fixtures';
import { reduceEvents, threadReducer } from './threadReducer';
import { emptyThreadState, type ThreadState } from './types';
import { deriveThread } from './derive';
import type { AguiEvent } from '../transport/agui';
import type { ThreadView } from '../transport/contract';

function run(events: AguiEvent[], one = false, start: ThreadState = emptyThreadState('th-1')): ThreadState {
  if (!one) return threadReducer(start, { type: 'events', events });
  // Event by event must give the same result as one batch.
  return events.reduce((s, e) => threadReducer(s, { type: 'events', events: [e] }), start);
}

describe.each([
  ['one batch', false],
  ['event by event', true],
])('threadReducer (%s)', (_name, one) => {
  it('reduces a plain answer', () => {
    const s = run(fixtures.plain, one);
    const v = deriveThread(s);
    expect(v.status).toBe('idle');
    expect(v.items.map((i) => [i.message.role, i.message.content, i.message.status])).toEqual([
      ['user', 'What is 2 + 2?', 'complete'],
      ['assistant', '2 + 2 equals **4**.\n\nAnything else?', 'complete'],
    ]);
    expect(v.items[1]!.isLastAssistant).toBe(true);
    expect(v.items[0]!.isLastUser).toBe(true); // the last question (what the composer used to prefill)
  });

  it('reduces a stream stopped mid-way (juncture.stopped + cancelled)', () => {
    const s = run(fixtures.stopped, one);
    const v = deriveThread(s);
    expect(v.status).toBe('idle');
    expect(v.items).toHaveLength(1);
    const m = v.items[0]!.message;
    expect(m.status).toBe('interrupted');
    expect(m.content).toBe('Let me look at the files in your');
    // The dropped call is gone from the message and the map.
    expect(m.toolCallIds).toEqual([]);
    expect(v.items[0]!.tools).toEqual([]);
    expect(s.toolCalls['tc-9']).toBeUndefined();
  });

  it('reduces an interrupt with two approvals, a question and an unbound item', () => {
    const s = run(fixtures.interrupt, one);
    const v = deriveThread(s);
    expect(v.status).toBe('awaiting-decisions');
    expect(v.phase).toBe('awaiting');
    expect(v.interrupts.map((i) => i.kind)).toEqual(['approval', 'approval', 'question', 'unbound']);
    expect(v.actionable).toHaveLength(3);
    expect(v.unbound).toHaveLength(1);
    const [w, r] = v.interrupts;
    if (w?.kind !== 'approval' || r?.kind !== 'approval') throw new Error('expected approvals');
    expect(w.toolName).toBe('write_file');
    expect(w.toolCallId).toBe('tc-w');
    expect(w.preview?.kind).toBe('diff');
    expect(w.reasonField).toBe('payload');
    expect(w.canEditArgs).toBe(true);
    expect(r.args).toEqual({ command: 'git status --short', cwd: '/home/ada/project' });
    expect(r.suggestedRules).toEqual([{ scope: 'command-prefix', pattern: 'git status' }]);
    const msg = v.items[1]!;
    expect(msg.tools.map((t) => [t.name, t.state, t.argsComplete])).toEqual([
      ['write_file', 'awaiting-approval', true],
      ['run_command', 'awaiting-approval', true],
    ]);
    expect(JSON.parse(msg.tools[0]!.args)).toEqual({ path: 'notes/todo.md', content: '- buy milk\n- call Ada\n' });
  });

  it('reduces a success with pendingToolCallIds into a pending client tool', () => {
    const s = run(fixtures.clientTool, one);
    const v = deriveThread(s);
    expect(v.status).toBe('idle');
    expect(v.clientTools).toEqual([
      { toolCallId: 'tc-c', toolName: 'copy_to_clipboard', arguments: '{"text":"hello world"}', restored: false },
    ]);
    expect(v.items[0]!.tools[0]!.state).toBe('pending-client');
  });

  it('reduces a RUN_ERROR ending', () => {
    const s = run(fixtures.runError, one);
    const v = deriveThread(s);
    expect(v.status).toBe('error');
    expect(v.runError?.message).toMatch(/401 Unauthorized/);
    expect(v.runError?.code).toBe('endpoint');
    const m = v.items[0]!.message;
    expect(m.status).toBe('error');
    expect(m.error).toBe('401 Unauthorized: Incorrect API key provided');
    expect(s.needsResync).toBe(true);
  });

  it('reduces reasoning and tool calls with results', () => {
    const s = run(fixtures.reasoningTools, one);
    const v = deriveThread(s);
    expect(v.items.map((i) => i.message.id)).toEqual(['m-a6', 'm-a7']);
    const first = v.items[0]!;
    expect(first.message.reasoning).toBe('The user wants the README. I should read it first.');
    expect(first.message.reasoningStreaming).toBe(false);
    expect(first.message.content).toBe('Reading the README.');
    expect(first.tools.map((t) => [t.id, t.state, t.result, !!t.isError])).toEqual([
      ['tc-1', 'done', '# Juncture\nA desktop assistant.', false],
      ['tc-2', 'failed', 'open missing.md: no such file', true],
    ]);
    // Tool results are attached to their calls, not listed as messages.
    expect(v.items.some((i) => i.message.role === 'tool')).toBe(false);
  });

  it('lets a MESSAGES_SNAPSHOT replace the state', () => {
    const s = run(fixtures.snapshot, one);
    const v = deriveThread(s);
    expect(v.items.map((i) => i.message.id)).toEqual(['s-u1', 's-a1', 's-a2']);
    expect(v.items[1]!.tools).toEqual([
      expect.objectContaining({ id: 'call-1', name: 'delete_file', result: 'deleted a.txt', state: 'done' }),
    ]);
    expect(v.items[2]!.message.status).toBe('interrupted');
    expect(v.items[2]!.message.reasoning).toBe('All done, summarise.');
    expect(s.agentState).toEqual({ mode: 'review' });
    expect(s.messages.find((m) => m.id === 'm-old')).toBeUndefined();
  });
});

describe('threadReducer streaming details', () => {
  it('shows partial text while streaming and marks the run running', () => {
    const events = fixtures.plain.slice(0, 8);
    const v = deriveThread(run(events));
    expect(v.status).toBe('running');
    expect(v.streaming).toBe(true);
    expect(v.items[1]!.message.content).toBe('2 + 2 equals **4**.');
  });

  it('a new run clears answered interrupts and keeps unbound ones (they belong to someone else)', () => {
    const paused = run(fixtures.interrupt);
    const unbound = deriveThread(paused).unbound.map((i) => i.interrupt.id);
    expect(unbound).toHaveLength(1);
    const s = run([{ type: 'RUN_STARTED', threadId: 'th-1', runId: 'run-3b', parentRunId: 'run-3' }], false, paused);
    expect(deriveThread(s).interrupts.filter((i) => i.kind !== 'unbound')).toEqual([]);
    expect(deriveThread(s).interrupts.map((i) => i.interrupt.id)).toEqual(unbound);
    expect(deriveThread(s).status).toBe('running');
    const done = run([{ type: 'RUN_FINISHED', threadId: 'th-1', runId: 'run-3b', outcome: { type: 'success', pendingToolCallIds: [] } }], false, s);
    expect(deriveThread(done).unbound.map((i) => i.interrupt.id)).toEqual(unbound);
  });

  it('keeps interrupts and maps item errors on a failure terminal (RUN_ERROR without RUN_STARTED)', () => {
    const paused = run(fixtures.interrupt);
    const s = run(
      [
        {
          type: 'RUN_ERROR',
          message: 'Missing resume entry for interrupt approval_tc-r.',
          code: 'unknown-interrupt',
          metadata: {
            tanstack: {
              interruptErrors: [{ scope: 'item', interruptId: 'approval_tc-r', message: 'Missing resume entry.' }],
            },
          },
        },
      ],
      false,
      paused,
    );
    const v = deriveThread(s);
    expect(v.actionable).toHaveLength(3);
    expect(v.status).toBe('awaiting-decisions');
    expect(v.runError?.itemErrors).toEqual({ 'approval_tc-r': 'Missing resume entry.' });
  });

  it('falls back to interrupted states for calls left open by a cancelled run', () => {
    const s = run([
      { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r' },
      { type: 'TOOL_CALL_START', toolCallId: 'a', toolCallName: 'run_command' },
      { type: 'TOOL_CALL_END', toolCallId: 'a' },
      { type: 'CUSTOM', name: 'juncture.tool_state', value: { toolCallId: 'a', state: 'running' } },
      { type: 'TOOL_CALL_START', toolCallId: 'b', toolCallName: 'write_file' },
      { type: 'TOOL_CALL_END', toolCallId: 'b' },
      { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r', outcome: { type: 'cancelled' } },
    ]);
    expect(s.toolCalls.a?.state).toBe('interrupted-mid-run');
    expect(s.toolCalls.b?.state).toBe('interrupted');
    // Both calls hang off one synthesised assistant message.
    expect(s.messages).toHaveLength(1);
    expect(s.messages[0]!.toolCallIds).toEqual(['a', 'b']);
  });

  it('expands TEXT_MESSAGE_CHUNK and TOOL_CALL_CHUNK', () => {
    const s = run([
      { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r' },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'c1', delta: 'Hel' },
      { type: 'TEXT_MESSAGE_CHUNK', delta: 'lo' },
      { type: 'TOOL_CALL_CHUNK', toolCallId: 't1', toolCallName: 'read_file', parentMessageId: 'c1', delta: '{"p' },
      { type: 'TOOL_CALL_CHUNK', delta: '":1}' },
    ]);
    expect(s.messages[0]!.content).toBe('Hello');
    expect(s.toolCalls.t1).toMatchObject({ name: 'read_file', args: '{"p":1}', messageId: 'c1' });
  });

  it('replaces an optimistic user message with the echoed one', () => {
    let s = threadReducer(emptyThreadState('th-1'), { type: 'localUser', id: 'local-1', text: 'Hi', createdAt: 1 });
    expect(s.messages[0]!.local).toBe(true);
    s = run(fixtures.plain.slice(0, 4), false, s);
    expect(s.messages.map((m) => [m.id, !!m.local])).toEqual([['m-u1', false]]);
  });

  it('leaves untouched messages with the same identity across a batch', () => {
    const a = run(fixtures.plain);
    const b = run(
      [
        { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r2' },
        { type: 'TEXT_MESSAGE_START', messageId: 'n', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'n', delta: 'x' },
      ],
      false,
      a,
    );
    expect(b.messages[0]).toBe(a.messages[0]);
    expect(b.messages[1]).toBe(a.messages[1]);
    expect(deriveThread(b).items[0]).toBe(deriveThread(a).items[0]);
  });
});

describe('load from GetThread', () => {
  const view: ThreadView = {
    eventSeq: 0,
    editedArgs: {},
    usage: { total: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, answers: 0, unreported: 0 },
    thread: { id: 'th-1', title: 'Todo', pinned: false, createdAt: 1, updatedAt: 2, options: { systemPrompt: '' } },
    messages: [
      { id: 'u', threadId: 'th-1', role: 'user', content: 'copy it', status: 'complete', createdAt: 1 },
      {
        id: 'a',
        threadId: 'th-1',
        role: 'assistant',
        content: 'Sure',
        toolCalls: [
          { id: 'c1', name: 'copy_to_clipboard', arguments: '{"text":"x"}' },
          { id: 'c2', name: 'read_file', arguments: '{"path":"a"}' },
        ],
        status: 'complete',
        createdAt: 2,
      },
      {
        id: 't2',
        threadId: 'th-1',
        role: 'tool',
        toolCallId: 'c2',
        toolName: 'read_file',
        content: 'boom',
        isError: true,
        status: 'complete',
        createdAt: 3,
      },
      {
        id: 'b',
        threadId: 'th-1',
        role: 'assistant',
        content: 'Half an answ<system>User interrupted this message</system>',
        status: 'interrupted',
        createdAt: 4,
      },
    ],
    running: false,
    queued: ['later'],
    interrupts: [],
    interruptKinds: {},
    answered: [],
    clientTools: [
      {
        toolCallId: 'c1',
        threadId: 'th-1',
        runId: 'r',
        toolName: 'copy_to_clipboard',
        arguments: '{"text":"x"}',
        state: 'pending',
        createdAt: 2,
      },
    ],
    toolStates: { c1: 'pending-client', c2: 'failed' },
  };

  it('builds messages, tool results, restored client tools and the queue', () => {
    const s = threadReducer(emptyThreadState('th-1'), { type: 'load', view });
    const v = deriveThread(s);
    expect(v.items.map((i) => i.message.id)).toEqual(['u', 'a', 'b']);
    expect(v.items[1]!.tools.map((t) => [t.id, t.state, t.result ?? null])).toEqual([
      ['c1', 'pending-client', null],
      ['c2', 'failed', 'boom'],
    ]);
    expect(v.clientTools).toEqual([
      { toolCallId: 'c1', toolName: 'copy_to_clipboard', arguments: '{"text":"x"}', restored: true },
    ]);
    expect(v.queued).toEqual(['later']);
    expect(v.status).toBe('idle');
  });

  const streamingView = (content: string, extra: Partial<ThreadView> = {}): ThreadView => ({
    ...view,
    running: true,
    queued: [],
    clientTools: [],
    toolStates: {},
    messages: [view.messages[0]!, { id: 'a', threadId: 'th-1', role: 'assistant', content, status: 'streaming', createdAt: 2 }],
    ...extra,
  });

  it('drops buffered deltas of messages the store has finished, and applies the rest', () => {
    const done = { ...view, running: true, messages: view.messages.slice(0, 2) };
    const s = threadReducer(emptyThreadState('th-1'), {
      type: 'load',
      view: done,
      pending: [
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 're' },
        { type: 'TEXT_MESSAGE_END', messageId: 'a' },
        { type: 'TEXT_MESSAGE_START', messageId: 'z', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'z', delta: 'new' },
      ],
    });
    expect(s.messages.find((m) => m.id === 'a')?.content).toBe('Sure');
    expect(s.messages.find((m) => m.id === 'a')?.status).toBe('complete');
    // A START for a message the snapshot lacks creates it.
    expect(s.messages.find((m) => m.id === 'z')).toMatchObject({ content: 'new', status: 'streaming' });
    expect(s.messages.find((m) => m.id === 'z')?.partial).toBeUndefined();
    expect(s.needsResync).toBe(false);
  });

  it('continues a message seen live from its START with the buffered deltas (checkpoint is older)', () => {
    const live = run([
      { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'Hello, ' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'wor' },
    ]);
    const s = threadReducer(live, {
      type: 'load',
      view: streamingView('Hello'),
      pending: [
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'ld' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: '!' },
      ],
    });
    expect(s.messages.map((m) => [m.id, m.content])).toEqual([
      ['u', 'copy it'],
      ['a', 'Hello, world!'],
    ]);
    expect(s.phase).toBe('running');
    expect(s.runId).toBe('r1');
    expect(s.needsResync).toBe(false);
  });

  it('keeps a live message the store does not have yet, and its buffered deltas', () => {
    const live = run([
      { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'n', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'n', delta: 'The write_file ' },
      { type: 'TOOL_CALL_START', toolCallId: 'c9', toolCallName: 'write_file', parentMessageId: 'n' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c9', delta: '{"pa' },
    ]);
    const s = threadReducer(live, {
      type: 'load',
      view: { ...view, running: true, messages: view.messages.slice(0, 2), clientTools: [], toolStates: {} },
      pending: [
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'n', delta: 'tool returned' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'c9', delta: 'th":"x"}' },
      ],
    });
    const n = s.messages.find((m) => m.id === 'n')!;
    expect(n.content).toBe('The write_file tool returned');
    expect(n.partial).toBeUndefined();
    expect(s.toolCalls.c9?.args).toBe('{"path":"x"}');
    expect(s.needsResync).toBe(false);
  });

  it('overlaps buffered deltas with a checkpointed message it never saw live: nothing lost or doubled', () => {
    const s = threadReducer(emptyThreadState('th-1'), {
      type: 'load',
      view: streamingView('One two thr'),
      pending: [
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: ' tw' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: 'o three' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: ' four' },
      ],
    });
    expect(s.messages.find((m) => m.id === 'a')?.content).toBe('One two three four');
    // A gap before the buffer cannot be ruled out: refetch when quiet.
    expect(s.needsResync).toBe(true);
  });

  it('hides a message whose START was missed and asks for a resync', () => {
    const s = run([
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'x', delta: 'its only line' },
      { type: 'TEXT_MESSAGE_END', messageId: 'x' },
    ]);
    expect(s.messages[0]).toMatchObject({ id: 'x', partial: true, content: 'its only line' });
    expect(s.needsResync).toBe(true);
    // The stored message replaces it.
    const loaded = threadReducer(s, {
      type: 'load',
      view: { ...view, messages: [{ id: 'x', threadId: 'th-1', role: 'assistant', content: 'The tool returned its only line', status: 'complete', createdAt: 5 }] },
    });
    expect(loaded.messages[0]).toMatchObject({ id: 'x', content: 'The tool returned its only line' });
    expect(loaded.messages[0]!.partial).toBeUndefined();
    expect(loaded.needsResync).toBe(false);
  });

  it('ignores a load for another thread', () => {
    const s0 = emptyThreadState('th-2');
    expect(threadReducer(s0, { type: 'load', view })).toBe(s0);
  });

  it('applies queue updates', () => {
    const s = threadReducer(emptyThreadState('th-1'), { type: 'queue', queued: ['a', 'b'] });
    expect(deriveThread(s).queued).toEqual(['a', 'b']);
  });
});

describe('protocol state owned by Go', () => {
  const base: ThreadView = {
    eventSeq: 0,
    editedArgs: {},
    usage: { total: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, answers: 0, unreported: 0 },
    thread: { id: 'th-1', title: 'T', pinned: false, createdAt: 1, updatedAt: 1, options: { systemPrompt: '' } },
    messages: [],
    running: false,
    queued: [],
    interrupts: [],
    interruptKinds: {},
    answered: [],
    clientTools: [],
    toolStates: {},
  };

  it("a loaded view's tool states win over deriving them from the result (denied, dismissed, awaiting-answer)", () => {
    const s = threadReducer(emptyThreadState('th-1'), {
      type: 'load',
      view: {
        ...base,
        messages: [
          {
            id: 'a',
            threadId: 'th-1',
            role: 'assistant',
            content: '',
            toolCalls: [
              { id: 'd', name: 'write_file', arguments: '{}' },
              { id: 'q', name: 'ask_user', arguments: '{}' },
              { id: 'x', name: 'ask_user', arguments: '{}' },
              { id: 'f', name: 'read_file', arguments: '{}' },
              { id: 'm', name: 'run_command', arguments: '{}' },
            ],
            status: 'complete',
            createdAt: 1,
          },
          { id: 'td', threadId: 'th-1', role: 'tool', toolCallId: 'd', content: 'Denied: wrong file', isError: true, status: 'complete', createdAt: 2 },
          { id: 'tx', threadId: 'th-1', role: 'tool', toolCallId: 'x', content: 'Interrupted: dismissed', isError: true, status: 'complete', createdAt: 3 },
          { id: 'tf', threadId: 'th-1', role: 'tool', toolCallId: 'f', content: 'no such file', isError: true, status: 'complete', createdAt: 4 },
          // Go stored the state with the result (no toolStates entry for it).
          { id: 'tm', threadId: 'th-1', role: 'tool', toolCallId: 'm', content: 'No.', isError: true, toolState: 'denied', status: 'complete', createdAt: 5 },
        ],
        toolStates: { d: 'denied', q: 'awaiting-answer', x: 'interrupted' },
      },
    });
    expect(Object.fromEntries(Object.values(s.toolCalls).map((t) => [t.id, t.state]))).toEqual({
      d: 'denied',
      q: 'awaiting-answer',
      x: 'interrupted',
      f: 'failed', // no state from Go: derived from the error result
      m: 'denied',
    });
  });

  it('keeps a live awaiting-answer tool state (it used to be dropped)', () => {
    const s = run([
      { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r' },
      { type: 'TOOL_CALL_START', toolCallId: 'q', toolCallName: 'ask_user' },
      { type: 'TOOL_CALL_END', toolCallId: 'q' },
      { type: 'CUSTOM', name: 'juncture.tool_state', value: { toolCallId: 'q', state: 'awaiting-answer' } },
    ]);
    expect(s.toolCalls.q?.state).toBe('awaiting-answer');
  });

  it('a pending client call takes its arguments from the pending-client record, not from TOOL_CALL_ARGS', () => {
    const s = run([
      { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r' },
      { type: 'TOOL_CALL_START', toolCallId: 'o', toolCallName: 'open_url' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'o', delta: '{"url":"https://a.example/original"}' },
      { type: 'TOOL_CALL_END', toolCallId: 'o' },
      {
        type: 'CUSTOM',
        name: 'juncture.tool_state',
        value: { toolCallId: 'o', state: 'pending-client', toolName: 'open_url', arguments: '{"url":"https://b.example/edited"}', edited: true },
      },
      { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r', outcome: { type: 'success', pendingToolCallIds: ['o'] } },
    ]);
    expect(deriveThread(s).clientTools).toEqual([
      { toolCallId: 'o', toolName: 'open_url', arguments: '{"url":"https://b.example/edited"}', edited: true, restored: false },
    ]);
    expect(s.toolCalls.o?.state).toBe('pending-client');
    expect(s.needsResync).toBe(false);
  });

  it('a pending client call without a record is never guessed from the stream: it is fetched', () => {
    const s = run([
      { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r' },
      { type: 'TOOL_CALL_START', toolCallId: 'o', toolCallName: 'open_url' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'o', delta: '{"url":"https://a.example/original"}' },
      { type: 'TOOL_CALL_END', toolCallId: 'o' },
      { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r', outcome: { type: 'success', pendingToolCallIds: ['o'] } },
    ]);
    expect(s.clientTools).toEqual([]);
    expect(s.toolCalls.o?.state).toBe('pending-client');
    expect(s.needsResync).toBe(true);
  });

  it('Answer results: partial answers are kept per item until the run continues', () => {
    const paused = threadReducer(emptyThreadState('th-1'), {
      type: 'load',
      view: { ...base, interrupts: interruptsOf(fixtures.interrupt), answered: ['approval_tc-w'] },
    });
    expect([...deriveThread(paused).answered]).toEqual(['approval_tc-w']);
    expect(deriveThread(paused).waiting).toEqual(['approval_tc-r', 'interrupt-1767225600000-2tnxhxy']);
    const more = threadReducer(paused, {
      type: 'answered',
      ids: ['approval_tc-r'],
      result: { continued: false, waiting: ['interrupt-1767225600000-2tnxhxy'] },
    });
    expect([...deriveThread(more).answered]).toEqual(['approval_tc-w', 'approval_tc-r']);
    expect(deriveThread(more).waiting).toEqual(['interrupt-1767225600000-2tnxhxy']);
    // A stale result for items no longer pending changes nothing.
    expect(threadReducer(more, { type: 'answered', ids: ['gone'], result: { continued: false, waiting: [] } })).toBe(more);
    // The continuation starts: the new run has nothing answered.
    const next = run([{ type: 'RUN_STARTED', threadId: 'th-1', runId: 'run-3b', parentRunId: 'run-3' }], false, more);
    expect(next.answered).toEqual([]);
    expect(next.waiting).toBeNull();
  });
});

function interruptsOf(events: AguiEvent[]) {
  const last = events[events.length - 1]!;
  if (last.type !== 'RUN_FINISHED' || last.outcome.type !== 'interrupt') throw new Error('fixture');
  return last.outcome.interrupts;
}

describe('reduceEvents', () => {
  it('returns the same state for an empty batch', () => {
    const s = emptyThreadState('th-1');
    expect(reduceEvents(s, [])).toBe(s);
  });
});

import { describe, expect, it } from 'vitest';
import { threadReducer } from './threadReducer';
import { deriveThread } from './derive';
import { emptyThreadState, type BranchInfo, type ThreadState, type ThreadUsageTotals, type TokenUsage } from './types';
import type { AguiEvent } from '../transport/agui';
import type { Message, ThreadView } from '../transport/contract';

// Branches (an edit, a regenerate, a switch) and token usage in the one
// reducer: what the store says about a message is kept, juncture.path_changed
// asks for a reload, and the answer streaming after it is neither lost nor
// doubled by that reload.

type Extras = { parentId?: string; branch?: BranchInfo; usage?: TokenUsage; model?: string };

function msg(id: string, role: Message['role'], content: string, extra: Extras & Partial<Message> = {}): Message {
  return { id, threadId: 'th-1', role, content, status: 'complete', createdAt: 1, ...extra } as Message;
}

function view(messages: Message[], extra: Partial<ThreadView> & { usage?: ThreadUsageTotals } = {}): ThreadView {
  return {
    thread: { id: 'th-1', title: 'Rivers', pinned: false, createdAt: 1, updatedAt: 2 },
    messages,
    running: false,
    queued: [],
    interrupts: [],
    interruptKinds: {},
    clientTools: [],
    toolStates: {},
    answered: [],
    eventSeq: 10,
    editedArgs: {},
    ...extra,
  } as ThreadView;
}

const load = (s: ThreadState, v: ThreadView, pending: AguiEvent[] = []) => threadReducer(s, { type: 'load', view: v, pending });
const events = (s: ThreadState, evs: AguiEvent[]) => threadReducer(s, { type: 'events', events: evs });

const u1 = { promptTokens: 12, completionTokens: 30, totalTokens: 42 };
const pathChanged = (leafId: string, threadId = 'th-1'): AguiEvent => ({
  type: 'CUSTOM',
  name: 'juncture.path_changed',
  value: { threadId, leafId, reason: 'edit' },
});

const first = view(
  [
    msg('q1', 'user', 'Tell me about zebras'),
    msg('a1', 'assistant', 'Zebras are striped.', { parentId: 'q1', usage: u1, model: 'fake-model' }),
  ],
  { usage: { total: u1, answers: 1, unreported: 0 } },
);

describe('branches and usage in the reducer', () => {
  it('keeps what the store says about each message: parent, branch, usage, model; and the thread’s usage', () => {
    const s = load(
      emptyThreadState('th-1'),
      view(
        [
          msg('sys', 'system', 'Answer in French.'),
          msg('q2', 'user', 'Tell me about giraffes', { parentId: 'sys', branch: { index: 2, count: 2, siblings: ['q1', 'q2'] } }),
          msg('a2', 'assistant', 'Giraffes are tall.', { parentId: 'q2', usage: u1, model: 'fake-model', branch: { index: 1, count: 1, siblings: ['a2'] } }),
        ],
        { usage: { total: u1, answers: 2, unreported: 1 } },
      ),
    );
    expect(s.messages.map((m) => [m.id, m.role])).toEqual([
      ['sys', 'system'],
      ['q2', 'user'],
      ['a2', 'assistant'],
    ]);
    expect(s.messages[1]).toMatchObject({ parentId: 'sys', branch: { index: 2, count: 2, siblings: ['q1', 'q2'] } });
    // A lone child has no switcher.
    expect(s.messages[2]!.branch).toBeUndefined();
    expect(s.messages[2]).toMatchObject({ usage: u1, model: 'fake-model' });
    expect(s.messages[2]!.detailsPending).toBeUndefined();
    expect(s.usage).toEqual({ total: u1, answers: 2, unreported: 1 });
  });

  it('juncture.path_changed asks for a reload now (mid-run too); another thread’s is ignored', () => {
    const s = load(emptyThreadState('th-1'), first);
    expect(events(s, [pathChanged('q9', 'th-2')]).needsReload).toBe(false);
    const r = events(s, [{ type: 'RUN_STARTED', threadId: 'th-1', runId: 'r2' }, pathChanged('q1')]);
    expect(r.needsReload).toBe(true);
    expect(r.phase).toBe('running');
    expect(threadReducer(r, { type: 'reloaded' }).needsReload).toBe(false);
  });

  it('edit → snapshot + path_changed → the new question → its answer: the reload neither loses nor doubles the answer', () => {
    let s = load(emptyThreadState('th-1'), first);
    // EditMessage: the run moves the path to the branch point (the start) and says so.
    s = events(s, [
      { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r2' },
      { type: 'MESSAGES_SNAPSHOT', messages: [] },
      pathChanged(''),
      { type: 'TEXT_MESSAGE_START', messageId: 'q2', role: 'user' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'q2', delta: 'Tell me about giraffes', offset: 0 },
      { type: 'TEXT_MESSAGE_END', messageId: 'q2' },
      { type: 'TEXT_MESSAGE_START', messageId: 'a2', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a2', delta: 'Giraffes ', offset: 0 },
    ]);
    // The old version is gone at once; the new question and its answer stream.
    expect(s.messages.map((m) => [m.id, m.content])).toEqual([
      ['q2', 'Tell me about giraffes'],
      ['a2', 'Giraffes '],
    ]);
    expect(s.needsReload).toBe(true);
    s = threadReducer(s, { type: 'reloaded' });
    // More streams while GetThread is in flight; the view reflects events up to its eventSeq.
    const branch = { index: 2, count: 2, siblings: ['q1', 'q2'] };
    const v = view(
      [
        msg('q2', 'user', 'Tell me about giraffes', { branch }),
        msg('a2', 'assistant', 'Giraffes are', { parentId: 'q2', status: 'streaming' }),
      ],
      { running: true, runId: 'r2', usage: { total: u1, answers: 1, unreported: 0 } },
    );
    s = load(s, v, [
      // Buffered after the view's eventSeq: one delta overlaps the view, one follows it.
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a2', delta: 'are', offset: 9 },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a2', delta: ' tall.', offset: 12 },
    ]);
    expect(s.messages.map((m) => [m.id, m.content, m.status])).toEqual([
      ['q2', 'Tell me about giraffes', 'complete'],
      ['a2', 'Giraffes are tall.', 'streaming'],
    ]);
    expect(s.messages[0]!.branch).toEqual(branch);
    // Later live events go on from there.
    s = events(s, [
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a2', delta: ' Very.', offset: 18 },
      { type: 'TEXT_MESSAGE_END', messageId: 'a2' },
      { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r2', outcome: { type: 'success', pendingToolCallIds: [] } },
    ]);
    const d = deriveThread(s);
    expect(d.items.map((i) => [i.message.role, i.message.content])).toEqual([
      ['user', 'Tell me about giraffes'],
      ['assistant', 'Giraffes are tall. Very.'],
    ]);
    expect(d.status).toBe('idle');
    // The answer was a checkpoint in the view: its usage is read once it is stored whole.
    expect(s.messages[1]!.detailsPending).toBe(true);
    expect(s.needsRefresh).toBe(true);
  });

  it('regenerate: one question, a new answer; the old one leaves with the snapshot', () => {
    let s = load(emptyThreadState('th-1'), first);
    s = events(s, [
      { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r3' },
      { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'q1', role: 'user', content: 'Tell me about zebras', toolCalls: [] }] },
      pathChanged('q1'),
      { type: 'TEXT_MESSAGE_START', messageId: 'a3', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a3', delta: 'Zebras are horses', offset: 0 },
      { type: 'TEXT_MESSAGE_END', messageId: 'a3' },
      { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r3', outcome: { type: 'success', pendingToolCallIds: [] } },
    ]);
    expect(s.messages.map((m) => [m.id, m.role])).toEqual([
      ['q1', 'user'],
      ['a3', 'assistant'],
    ]);
    expect(s.messages.filter((m) => m.role === 'user')).toHaveLength(1);
    // The question keeps what the store said about it.
    expect(s.messages[0]!.detailsPending).toBeUndefined();
    // The new answer's usage and branch come from the store: nothing is shown for them until then.
    expect(s.messages[1]!.detailsPending).toBe(true);
    expect(s.messages[1]!.usage).toBeUndefined();
    expect(s.needsRefresh).toBe(true);
    const done = load(
      threadReducer(threadReducer(s, { type: 'reloaded' }), { type: 'resynced' }),
      view([
        msg('q1', 'user', 'Tell me about zebras'),
        msg('a3', 'assistant', 'Zebras are horses', { parentId: 'q1', usage: u1, branch: { index: 2, count: 2, siblings: ['a1', 'a3'] } }),
      ]),
    );
    expect(done.messages[1]).toMatchObject({ usage: u1, branch: { index: 2, count: 2 } });
    expect(done.messages[1]!.detailsPending).toBeUndefined();
    expect(done.needsRefresh).toBe(false);
  });

  it('asks for the stored details once a turn is over, not while it waits for a decision', () => {
    const s = load(emptyThreadState('th-1'), first);
    const waiting = events(s, [
      { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r4' },
      { type: 'TEXT_MESSAGE_START', messageId: 'a4', role: 'assistant' },
      { type: 'TEXT_MESSAGE_END', messageId: 'a4' },
      { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r4', outcome: { type: 'interrupt', interrupts: [] } },
    ]);
    expect(waiting.needsRefresh).toBe(false);
    const stopped = events(waiting, [
      { type: 'RUN_STARTED', threadId: 'th-1', runId: 'r5' },
      { type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r5', outcome: { type: 'cancelled' } },
    ]);
    expect(stopped.needsRefresh).toBe(true);
    // Nothing new from the stream: nothing to fetch.
    expect(events(s, [{ type: 'RUN_FINISHED', threadId: 'th-1', runId: 'r6', outcome: { type: 'success', pendingToolCallIds: [] } }]).needsRefresh).toBe(false);
  });

  it('the refresh after a turn keeps which remembered rule let a call run (said live, not in the view)', () => {
    const call = { id: 'c1', name: 'write_file', arguments: '{"path":"notes.txt"}' };
    const v = view([msg('q', 'user', 'write a note'), msg('a', 'assistant', 'Saving.', { toolCalls: [call] }),
      msg('r', 'tool', 'Created notes.txt', { toolCallId: 'c1', toolName: 'write_file' })], { toolStates: { c1: 'done' }, eventSeq: 10 });
    const rule = { id: 'rule-1', tool: 'write_file', scope: 'thread', pattern: 'th-1', createdAt: 1 };
    const live = events(load(emptyThreadState('th-1'), v), [
      { type: 'CUSTOM', name: 'juncture.tool_state', value: { toolCallId: 'c1', state: 'running', allowedBy: rule } },
      { type: 'CUSTOM', name: 'juncture.tool_state', value: { toolCallId: 'c1', state: 'done' } },
    ]);
    expect(live.toolCalls['c1']?.allowedBy?.id).toBe('rule-1');
    const refreshed = load(live, { ...v, eventSeq: 12 });
    expect(refreshed.toolCalls['c1']?.allowedBy?.id).toBe('rule-1');
    expect(refreshed.toolCalls['c1']?.state).toBe('done');
    // Another thread's view carries nothing over.
    expect(load(emptyThreadState('th-1'), v).toolCalls['c1']?.allowedBy).toBeUndefined();
  });

  it('a reload keeps the objects of messages that did not change (their rows are not rendered again)', () => {
    const s = load(emptyThreadState('th-1'), first);
    const switched = load(
      s,
      view([
        msg('q1', 'user', 'Tell me about zebras'),
        msg('a3', 'assistant', 'Zebras are horses', { parentId: 'q1', branch: { index: 2, count: 2, siblings: ['a1', 'a3'] } }),
      ]),
    );
    expect(switched.messages[0]).toBe(s.messages[0]);
    expect(switched.messages[1]).not.toBe(s.messages[1]);
    expect(deriveThread(switched).items[0]).toBe(deriveThread(s).items[0]);
    // A changed detail is a new object.
    const relabeled = load(switched, view([msg('q1', 'user', 'Tell me about zebras', { branch: { index: 1, count: 2, siblings: ['q1', 'qx'] } })]));
    expect(relabeled.messages[0]).not.toBe(switched.messages[0]);
  });

  it('marks the last answer of every turn (Regenerate goes there)', () => {
    const s = load(
      emptyThreadState('th-1'),
      view([
        msg('q1', 'user', 'list files'),
        msg('a1', 'assistant', 'Let me look.', { toolCalls: [{ id: 'c1', name: 'list_files', arguments: '{}' }] }),
        msg('t1', 'tool', 'a.txt', { toolCallId: 'c1' }),
        msg('a1b', 'assistant', 'One file.'),
        msg('sys', 'system', 'Be brief.'),
        msg('q2', 'user', 'thanks'),
        msg('a2', 'assistant', 'You are welcome.'),
      ]),
    );
    expect(deriveThread(s).items.map((i) => [i.key, !!i.isTurnEnd])).toEqual([
      ['q1', false],
      ['a1', false],
      ['a1b', true],
      ['sys', false],
      ['q2', false],
      ['a2', true],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { classifyInterrupt, readBinding, approvalPayload } from './interrupts';
import { answerBatch, cancelAll, clientResultBatch, toItemAnswer, type Decision } from './answers';
import type { Interrupt } from '../transport/contract';
import { fixtures } from '../test/fixtures';

function interruptsOf(): Interrupt[] {
  const last = fixtures.interrupt[fixtures.interrupt.length - 1]!;
  if (last.type !== 'RUN_FINISHED' || last.outcome.type !== 'interrupt') throw new Error('fixture');
  return last.outcome.interrupts;
}

const validBinding = {
  v: 1,
  kind: 'generic',
  interruptId: 'i-1',
  interruptedRunId: 'run-1',
  generation: 0,
};

describe('readBinding (tanstack-interrupts §6.3, opened)', () => {
  const withB = (b: unknown): Interrupt => ({ id: 'i-1', reason: 'x', metadata: { 'tanstack:interruptBinding': b } });
  it.each([
    ['valid generic', validBinding, 'generic'],
    ['v absent reads as 1', { ...validBinding, v: undefined }, 'generic'],
    ['v "1"', { ...validBinding, v: '1' }, null],
    ['v 2', { ...validBinding, v: 2 }, null],
    ['id mismatch', { ...validBinding, interruptId: 'other' }, null],
    ['generation "0"', { ...validBinding, generation: '0' }, null],
    ['generation -1', { ...validBinding, generation: -1 }, null],
    ['generation 1.5', { ...validBinding, generation: 1.5 }, null],
    ['no run id', { ...validBinding, interruptedRunId: '' }, null],
    ['bad expiresAt', { ...validBinding, expiresAt: 'soon' }, null],
    ['empty responseSchemaHash', { ...validBinding, responseSchemaHash: '' }, null],
    ['first-party without key', { ...validBinding, definitionId: 'd', batchIndex: 0 }, null],
    ['first-party complete', { ...validBinding, definitionId: 'd', key: 'k', batchIndex: 2 }, 'generic'],
    ['unknown kind', { ...validBinding, kind: 'magic' }, null],
    ['approval missing hashes', { ...validBinding, kind: 'tool-approval', toolName: 't', toolCallId: 'c' }, null],
    ['array', [validBinding], null],
    ['missing', undefined, null],
  ])('%s', (_n, b, kind) => {
    const r = readBinding(withB(b));
    expect(r?.kind ?? null).toBe(kind);
  });
});

describe('classifyInterrupt', () => {
  it('classifies the fixture batch', () => {
    const kinds = interruptsOf().map((i) => classifyInterrupt(i, {}).kind);
    expect(kinds).toEqual(['approval', 'approval', 'question', 'unbound']);
  });

  it('an approval whose toolCallId disagrees with its binding is unbound', () => {
    const it0 = { ...interruptsOf()[0]!, toolCallId: 'someone-else' };
    expect(classifyInterrupt(it0, {}).kind).toBe('unbound');
  });

  it('places a deny reason where the schema allows it', () => {
    const c = classifyInterrupt(interruptsOf()[0]!, {});
    if (c.kind !== 'approval') throw new Error('approval');
    expect(approvalPayload(c, { approved: false, reason: ' not now ' })).toEqual({
      approved: false,
      payload: { reason: 'not now' },
    });
    // Juncture's reject branch requires the payload object.
    expect(approvalPayload(c, { approved: false })).toEqual({ approved: false, payload: {} });
    expect(approvalPayload({ ...c, reasonField: null }, { approved: false, reason: 'x' })).toEqual({ approved: false });
    expect(approvalPayload({ ...c, reasonField: 'reason' }, { approved: false, reason: 'x' })).toEqual({
      approved: false,
      reason: 'x',
    });
    expect(approvalPayload(c, { approved: true, editedArgs: { path: 'b' } })).toEqual({
      approved: true,
      editedArgs: { path: 'b' },
    });
  });
});

describe('toItemAnswer (one Answer per decision)', () => {
  const items = interruptsOf().map((i) => classifyInterrupt(i, {}));
  const [w, r, q] = items.map((i) => i.interrupt.id);
  const [wi, ri, qi] = items;

  it('a single decision is a batch of that one item (unbound ones are never answered)', () => {
    expect(answerBatch([{ item: wi!, decision: { kind: 'approve' } }])).toEqual({
      answers: [{ interruptId: w, status: 'resolved', payload: { approved: true } }],
      clientResults: [],
    });
  });

  it('a remembered approval carries its rule inside the ItemAnswer (no RespondPermission first)', () => {
    const decisions: [typeof wi, Decision][] = [
      [wi, { kind: 'deny', reason: 'wrong file' }],
      [ri, { kind: 'approve', remember: { scope: 'command-prefix', pattern: 'git status' } }],
      [qi, { kind: 'answer', payload: { list: 'home' } }],
    ];
    expect(decisions.map(([item, d]) => toItemAnswer(item!, d))).toEqual([
      { interruptId: 'approval_tc-w', status: 'resolved', payload: { approved: false, payload: { reason: 'wrong file' } } },
      {
        interruptId: 'approval_tc-r',
        status: 'resolved',
        payload: { approved: true },
        remember: { scope: 'command-prefix', pattern: 'git status' },
      },
      { interruptId: q, status: 'resolved', payload: { list: 'home' } },
    ]);
  });

  it('every item a remembered approval: each ItemAnswer has its own rule', () => {
    expect(toItemAnswer(wi!, { kind: 'approve', remember: { scope: 'tool' } })).toEqual({
      interruptId: 'approval_tc-w',
      status: 'resolved',
      payload: { approved: true },
      remember: { scope: 'tool' },
    });
    expect(toItemAnswer(ri!, { kind: 'approve', remember: { scope: 'command-prefix', pattern: 'git status' } })).toEqual({
      interruptId: 'approval_tc-r',
      status: 'resolved',
      payload: { approved: true },
      remember: { scope: 'command-prefix', pattern: 'git status' },
    });
  });

  it('cancel is a cancelled entry without payload; cancelAll covers every bound item', () => {
    expect(answerBatch([
      { item: wi!, decision: { kind: 'approve', editedArgs: { path: 'x' } } },
      { item: ri!, decision: { kind: 'approve' } },
      { item: qi!, decision: { kind: 'cancel' } },
    ]).answers).toEqual([
      { interruptId: w, status: 'resolved', payload: { approved: true, editedArgs: { path: 'x' } } },
      { interruptId: r, status: 'resolved', payload: { approved: true } },
      { interruptId: q, status: 'cancelled' },
    ]);
    expect(cancelAll(items).map((x) => x.interruptId)).toEqual([w, r, q]);
  });

  it('a client tool outcome is an Answer with only clientResults', () => {
    expect(clientResultBatch({ toolCallId: 'tc-c', content: '', cancelled: true })).toEqual({
      answers: [],
      clientResults: [{ toolCallId: 'tc-c', content: '', cancelled: true }],
    });
  });
});

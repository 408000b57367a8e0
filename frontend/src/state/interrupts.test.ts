import { describe, expect, it } from 'vitest';
import { classifyInterrupt, readBinding, approvalPayload } from './interrupts';
import { buildSubmission, cancelAll, type Staged } from './staging';
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

describe('buildSubmission', () => {
  const items = interruptsOf().map((i) => classifyInterrupt(i, {}));
  const [w, r, q] = items.map((i) => i.interrupt.id);

  it('waits until every actionable item is staged (unbound ones excluded)', () => {
    expect(buildSubmission(items, { [w!]: { kind: 'approve' } })).toBeNull();
  });

  it('sends remembered approvals through RespondPermission, then the complete batch', () => {
    const staged: Record<string, Staged> = {
      [w!]: { kind: 'deny', reason: 'wrong file' },
      [r!]: { kind: 'approve', remember: { scope: 'command-prefix', pattern: 'git status' } },
      [q!]: { kind: 'answer', payload: { list: 'home' } },
    };
    expect(buildSubmission(items, staged)).toEqual({
      permissions: [{ toolCallId: 'tc-r', allow: true, remember: { scope: 'command-prefix', pattern: 'git status' } }],
      resolutions: [
        { interruptId: 'approval_tc-w', status: 'resolved', payload: { approved: false, payload: { reason: 'wrong file' } } },
        { interruptId: 'approval_tc-r', status: 'resolved', payload: { approved: true } },
        { interruptId: q, status: 'resolved', payload: { list: 'home' } },
      ],
    });
  });

  it('only RespondPermission calls when every item is a remembered approval', () => {
    const two = items.slice(0, 2);
    const staged: Record<string, Staged> = {
      [w!]: { kind: 'approve', remember: { scope: 'tool' } },
      [r!]: { kind: 'approve', remember: { scope: 'command-prefix', pattern: 'git status' } },
    };
    expect(buildSubmission(two, staged)).toEqual({
      permissions: [
        { toolCallId: 'tc-w', allow: true, remember: { scope: 'tool' } },
        { toolCallId: 'tc-r', allow: true, remember: { scope: 'command-prefix', pattern: 'git status' } },
      ],
      resolutions: [],
    });
  });

  it('cancel stages a cancelled entry without payload; cancelAll covers every bound item', () => {
    const staged: Record<string, Staged> = {
      [w!]: { kind: 'approve', editedArgs: { path: 'x' } },
      [r!]: { kind: 'approve' },
      [q!]: { kind: 'cancel' },
    };
    expect(buildSubmission(items, staged)?.resolutions).toEqual([
      { interruptId: w, status: 'resolved', payload: { approved: true, editedArgs: { path: 'x' } } },
      { interruptId: r, status: 'resolved', payload: { approved: true } },
      { interruptId: q, status: 'cancelled' },
    ]);
    expect(cancelAll(items).map((x) => x.interruptId)).toEqual([w, r, q]);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/preact';
import { InterruptPanel } from './InterruptPanel';
import { forgetDrafts } from './drafts';
import { classifyInterrupt } from '../../state/interrupts';
import type { AnswerResult } from '../../transport/contract';
import { fixtures } from '../../test/fixtures';
import { change } from '../../test/change';

function writeApproval() {
  const last = fixtures.interrupt[fixtures.interrupt.length - 1]!;
  if (last.type !== 'RUN_FINISHED' || last.outcome.type !== 'interrupt') throw new Error('fixture');
  return classifyInterrupt(last.outcome.interrupts[0]!, {});
}

afterEach(() => forgetDrafts());

describe('ApprovalCard: editing a write_file', () => {
  it('TestEditedWriteFileDiffFollowsTheEdit: the diff follows the edited content as it is typed', () => {
    const onAnswer = vi.fn(async (): Promise<AnswerResult> => ({ continued: true, runId: 'r', waiting: [] }));
    render(<InterruptPanel threadId="th-1" items={[writeApproval()]} runError={null} onAnswer={onAnswer} />);
    const card = screen.getByRole('article', { name: 'Approval for write_file' });
    expect(within(card).getByLabelText('Proposed changes').textContent).toContain('+- buy milk');
    fireEvent.click(within(card).getByRole('button', { name: 'Edit arguments' }));
    change(within(card).getByLabelText('Arguments (JSON)'), {
      target: { value: JSON.stringify({ path: 'notes/todo.md', content: '- buy bread\n- buy eggs\n' }) },
    });
    const diff = within(card).getByLabelText('Proposed changes').textContent ?? '';
    expect(diff).toContain('+- buy eggs');
    expect(diff).not.toContain('buy milk');
    expect(diff).not.toContain('-- buy bread');
    // Back to the file's own content: no changes.
    change(within(card).getByLabelText('Arguments (JSON)'), {
      target: { value: JSON.stringify({ path: 'notes/todo.md', content: '- buy bread\n' }) },
    });
    expect(within(card).getByLabelText('Proposed content').textContent).toMatch(/^No changes/);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/preact';
import { InterruptPanel } from './InterruptPanel';
import { forgetDrafts } from './drafts';
import { classifyInterrupt, type ClassifiedInterrupt } from '../../state/interrupts';
import type { AnswerBatch, AnswerResult, Interrupt } from '../../transport/contract';
import { fixtures } from '../../test/fixtures';
import { refusedExample } from './ruleWords';
import { change } from '../../test/change';

function runCommand(): ClassifiedInterrupt {
  const last = fixtures.interrupt[fixtures.interrupt.length - 1]!;
  if (last.type !== 'RUN_FINISHED' || last.outcome.type !== 'interrupt') throw new Error('fixture');
  return classifyInterrupt(last.outcome.interrupts[1]!, {});
}

function setup(items: ClassifiedInterrupt[]) {
  const onAnswer = vi.fn(async (_b: AnswerBatch): Promise<AnswerResult> => ({ continued: true, runId: 'r2', waiting: [] }));
  render(<InterruptPanel threadId="th-1" items={items} runError={null} onAnswer={onAnswer} />);
  return onAnswer;
}

afterEach(() => forgetDrafts());

describe('the approval card’s rules', () => {
  it('Always allow: a duration, what the rule covers and one call it would refuse; the duration is sent', async () => {
    const onAnswer = setup([runCommand()]);
    fireEvent.click(screen.getByRole('button', { name: 'Always allow…' }));
    expect((screen.getByRole('radio', { name: /Commands starting with “git status”/ }) as HTMLInputElement).checked).toBe(true);
    const reach = screen.getByLabelText('What this rule covers');
    expect(reach.textContent).toContain('start with the words “git status”');
    expect(reach.textContent).toContain('git push');
    change(screen.getByLabelText('How long'), { target: { value: '15m' } });
    expect(reach.textContent).toMatch(/for 15 minutes \(until /);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Always allow' }));
    });
    expect(onAnswer.mock.calls[0]![0].answers[0]!.remember).toEqual({ scope: 'command-prefix', pattern: 'git status', duration: '15m' });
  });

  it('"Every call" says it covers everything; until revoked sends no duration', async () => {
    const onAnswer = setup([runCommand()]);
    fireEvent.click(screen.getByRole('button', { name: 'Always allow…' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Every run_command call' }));
    expect(screen.getByLabelText('What this rule covers').textContent).toMatch(/Covers everything/);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Always allow' }));
    });
    expect(onAnswer.mock.calls[0]![0].answers[0]!.remember).toEqual({ scope: 'tool' });
  });

  it('Never allow: a deny rule with its reason and duration rides with the denial', async () => {
    const onAnswer = setup([runCommand()]);
    fireEvent.click(screen.getByRole('button', { name: 'Never allow…' }));
    expect(screen.getByLabelText('What this rule refuses').textContent).toMatch(/even where an “Always allow” rule covers them/);
    change(screen.getByLabelText(/Reason — the model reads it/), { target: { value: 'not on this repo' } });
    change(screen.getByLabelText('How long'), { target: { value: 'chat' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Never allow' }));
    });
    const a = onAnswer.mock.calls[0]![0].answers[0]!;
    expect(JSON.stringify(a.payload)).toContain('not on this repo');
    expect(a.remember).toEqual({ scope: 'command-prefix', pattern: 'git status', duration: 'chat', deny: true, reason: 'not on this repo' });
  });

  it('an MCP tool offers its argument rules (argument and glob kept) before the tool and the server', async () => {
    const last = fixtures.interrupt[fixtures.interrupt.length - 1]!;
    if (last.type !== 'RUN_FINISHED' || last.outcome.type !== 'interrupt') throw new Error('fixture');
    const base = last.outcome.interrupts[1]!;
    // An MCP tool's approval: Go offers the call's argument first, then the tool and its server.
    const interrupt: Interrupt = {
      ...base,
      metadata: {
        ...base.metadata,
        'juncture:suggestedRules': [
          { tool: 'run_command', scope: 'arg-equals', arg: 'path', pattern: '/srv/a.txt' },
          { tool: 'run_command', scope: 'arg-prefix', arg: 'path', pattern: '/srv/' },
          { tool: 'run_command', scope: 'tool-identity', pattern: 'fp' },
          { tool: 'mcp:files', scope: 'server', pattern: 'files' },
        ],
      },
    };
    const item = classifyInterrupt(interrupt, {});
    if (item.kind !== 'approval') throw new Error(`classified as ${item.kind}`);
    expect(item.suggestedRules[0]).toEqual({ scope: 'arg-equals', arg: 'path', pattern: '/srv/a.txt' });
    const onAnswer = setup([item]);
    fireEvent.click(screen.getByRole('button', { name: 'Always allow…' }));
    const first = screen.getByRole('radio', { name: /when path is “\/srv\/a.txt”/ }) as HTMLInputElement;
    expect(first.checked).toBe(true);
    expect(screen.getByLabelText('What this rule covers').textContent).toContain('path = “/srv/a.txt-other”');
    fireEvent.click(screen.getByRole('radio', { name: /starts with “\/srv\/”/ }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Always allow' }));
    });
    expect(onAnswer.mock.calls[0]![0].answers[0]!.remember).toEqual({ scope: 'arg-prefix', arg: 'path', pattern: '/srv/' });
  });

  it('refusedExample names a call each scope stops at', () => {
    expect(refusedExample('run_command', { scope: 'command-prefix', pattern: 'git status' })).toBe('git push');
    expect(refusedExample('run_command', { scope: 'command-glob', pattern: 'ls -la *' })).toBe('ls -la && rm -rf ~');
    expect(refusedExample('open_url', { scope: 'host', pattern: 'example.com' })).toContain('another host');
    expect(refusedExample('read_file', { scope: 'folder-glob', pattern: '/w/docs', glob: '*.md' })).toContain('/w/docs/run.sh');
    expect(refusedExample('run_command', { scope: 'tool' })).toBeNull();
  });
});

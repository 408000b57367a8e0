import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/preact';
import { InterruptPanel } from './InterruptPanel';
import { forgetDrafts } from './drafts';
import { classifyInterrupt, type ClassifiedInterrupt } from '../../state/interrupts';
import type { AnswerBatch, AnswerResult, Interrupt } from '../../transport/contract';
import { fixtures } from '../../test/fixtures';
import { JunctureError } from '../../transport/errors';
import type { JsonValue } from '../../transport/json';
import { change } from '../../test/change';

function batch(): ClassifiedInterrupt[] {
  const last = fixtures.interrupt[fixtures.interrupt.length - 1]!;
  if (last.type !== 'RUN_FINISHED' || last.outcome.type !== 'interrupt') throw new Error('fixture');
  return last.outcome.interrupts.map((i) => classifyInterrupt(i, {}));
}

const notYet = (waiting: string[]): AnswerResult => ({ continued: false, waiting });

function setup(
  items: ClassifiedInterrupt[],
  onAnswer = vi.fn(async (_b: AnswerBatch): Promise<AnswerResult> => ({ continued: true, runId: 'r2', waiting: [] })),
  extra: { answered?: ReadonlySet<string>; waiting?: string[] } = {},
) {
  const r = render(<InterruptPanel threadId="th-1" items={items} runError={null} onAnswer={onAnswer} {...extra} />);
  return { ...r, onAnswer };
}

/** An Answer that keeps the run waiting until every item of batch() was answered (over all its calls), then continues it. */
function answersUntilAll() {
  const ids = ['approval_tc-w', 'approval_tc-r', 'interrupt-1767225600000-2tnxhxy'];
  const onAnswer = vi.fn(async (b: AnswerBatch): Promise<AnswerResult> => {
    const answered = new Set([...onAnswer.mock.calls.flatMap(([x]) => x.answers), ...b.answers].map((a) => a.interruptId));
    const waiting = ids.filter((id) => !answered.has(id));
    return waiting.length ? notYet(waiting) : { continued: true, runId: 'run-3b', waiting: [] };
  });
  return onAnswer;
}

/** A question without a schema (free text), as its generic binding names it. */
function freeTextQuestion(id: string): ClassifiedInterrupt {
  const it: Interrupt = {
    id,
    reason: 'question',
    message: 'What should the file be called?',
    metadata: { 'tanstack:interruptBinding': { v: 1, kind: 'generic', interruptId: id, interruptedRunId: 'r', generation: 0 } },
  };
  return classifyInterrupt(it, {});
}

const single = () => [batch()[1]!]; // run_command approval

// Drafts are kept by interrupt id across cards (see useDraft); each test starts clean.
afterEach(() => forgetDrafts());

/** Presses Esc on el; returns whether the card handled it (the window's "Esc stops the run" then skips it). */
function escape(el: Element): boolean {
  const e = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
  el.dispatchEvent(e);
  return e.defaultPrevented;
}

/** An approval for a tool that acts in this window. */
function windowApproval(toolName: string, args: Record<string, string>): ClassifiedInterrupt {
  return {
    kind: 'approval',
    interrupt: { id: `approval_${toolName}`, reason: 'tool_call', message: `Approval required to run ${toolName}` } as Interrupt,
    toolCallId: `tc-${toolName}`,
    toolName,
    args,
    argsText: JSON.stringify(args, null, 2),
    suggestedRules: [],
    canEditArgs: true,
    reasonField: 'payload',
  };
}

const REFUSED =
  'the answers were refused: Approval approval_tc-r edited arguments are invalid: command must be a string One or more interrupt resolutions are invalid.';

describe('InterruptPanel', () => {
  it('moves focus to the first card container, not to a button', () => {
    setup(single());
    const card = screen.getByRole('article', { name: 'Approval for run_command' });
    expect(document.activeElement).toBe(card);
  });

  it('shows the command and folder prominently for run_command', () => {
    setup(single());
    expect(screen.getByLabelText('Command').textContent).toContain('git status --short');
    expect(screen.getByText('/home/ada/project')).toBeTruthy();
  });

  it('Enter never approves (no default button, no form)', () => {
    const { onAnswer, container } = setup(single());
    const card = screen.getByRole('article', { name: 'Approval for run_command' });
    fireEvent.keyDown(card, { key: 'Enter' });
    fireEvent.keyUp(card, { key: 'Enter' });
    expect(onAnswer).not.toHaveBeenCalled();
    expect(container.querySelector('form')).toBeNull();
    for (const b of container.querySelectorAll('button')) expect(b.getAttribute('type')).toBe('button');
  });

  it('a single approval: "Allow once" sends immediately in one Answer call', async () => {
    const { onAnswer } = setup(single());
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Allow once' }));
    });
    expect(onAnswer).toHaveBeenCalledTimes(1);
    expect(onAnswer.mock.calls[0]![0]).toEqual({
      answers: [{ interruptId: 'approval_tc-r', status: 'resolved', payload: { approved: true } }],
      clientResults: [],
    });
  });

  it('"Always allow" offers the tool or the suggested command prefix and sends ONE Answer with remember inside', async () => {
    const { onAnswer } = setup(single());
    fireEvent.click(screen.getByRole('button', { name: 'Always allow…' }));
    const prefix = screen.getByRole('radio', { name: /Commands starting with “git status”/ });
    expect((prefix as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('radio', { name: 'Every run_command call' })).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Always allow' }));
    });
    expect(onAnswer).toHaveBeenCalledTimes(1);
    expect(onAnswer.mock.calls[0]![0]).toEqual({
      answers: [
        {
          interruptId: 'approval_tc-r',
          status: 'resolved',
          payload: { approved: true },
          remember: { scope: 'command-prefix', pattern: 'git status' },
        },
      ],
      clientResults: [],
    });
  });

  it('"Edit arguments" validates JSON before allowing', async () => {
    const { onAnswer } = setup(single());
    fireEvent.click(screen.getByRole('button', { name: 'Edit arguments' }));
    const ta = screen.getByLabelText('Arguments (JSON)');
    change(ta, { target: { value: '{"command": ' } });
    expect(screen.getByRole('alert').textContent).toMatch(/Not valid JSON/);
    expect((screen.getByRole('button', { name: 'Allow with these arguments' }) as HTMLButtonElement).disabled).toBe(true);
    change(ta, { target: { value: '[1]' } });
    expect(screen.getByRole('alert').textContent).toMatch(/JSON object/);
    change(ta, { target: { value: '{"command":"git status","cwd":"/tmp"}' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Allow with these arguments' }));
    });
    expect(onAnswer).toHaveBeenCalledTimes(1);
    expect(onAnswer.mock.calls[0]![0].answers[0]!.payload).toEqual({
      approved: true,
      editedArgs: { command: 'git status', cwd: '/tmp' },
    });
  });

  it('several items: each decision is sent at once (one Answer each), with a counter, and can be changed', async () => {
    const onAnswer = answersUntilAll();
    setup(batch(), onAnswer);
    expect(screen.getByText(/0 of 3 answered/)).toBeTruthy();
    // The diff preview of write_file is shown.
    expect(screen.getByLabelText('Proposed changes').textContent).toContain('+- buy milk');

    const write = screen.getByRole('article', { name: 'Approval for write_file' });
    await act(async () => {
      fireEvent.click(within(write).getByRole('button', { name: 'Allow once' }));
    });
    expect(within(write).getByText('Approved')).toBeTruthy();
    expect(within(write).getByText(/waiting for 2 more/)).toBeTruthy();
    expect(screen.getByText(/1 of 3 answered/)).toBeTruthy();
    // Sent at once, alone.
    expect(onAnswer).toHaveBeenCalledTimes(1);
    expect(onAnswer.mock.calls[0]![0]).toEqual({
      answers: [{ interruptId: 'approval_tc-w', status: 'resolved', payload: { approved: true } }],
      clientResults: [],
    });

    // "Change answer" reopens the choices; Go keeps the first answer until a new one replaces it.
    fireEvent.click(within(write).getByRole('button', { name: 'Change answer' }));
    expect(within(write).getByRole('button', { name: 'Allow once' })).toBeTruthy();
    expect(screen.getByText(/1 of 3 answered/)).toBeTruthy();
    fireEvent.click(within(write).getByRole('button', { name: 'Deny…' }));
    change(within(write).getByLabelText(/Reason/), { target: { value: 'wrong list' } });
    await act(async () => {
      fireEvent.click(within(write).getByRole('button', { name: 'Deny' }));
    });
    expect(within(write).getByText('Denied')).toBeTruthy();

    const run = screen.getByRole('article', { name: 'Approval for run_command' });
    await act(async () => {
      fireEvent.click(within(run).getByRole('button', { name: 'Allow once' }));
    });
    expect(screen.getByText(/2 of 3 answered/)).toBeTruthy();
    expect(within(run).getByText(/waiting for 1 more/)).toBeTruthy();
    expect(onAnswer).toHaveBeenCalledTimes(3);

    const question = screen.getByRole('article', { name: 'Question' });
    fireEvent.click(within(question).getByRole('radio', { name: 'work' }));
    await act(async () => {
      fireEvent.click(within(question).getByRole('button', { name: 'Submit answer' }));
    });
    expect(onAnswer).toHaveBeenCalledTimes(4);
    // The same answers the single batch used to carry, one Answer per decision
    // (the deny replaced the first approval of write_file).
    expect(onAnswer.mock.calls.slice(1).map(([b]) => b)).toEqual([
      {
        answers: [{ interruptId: 'approval_tc-w', status: 'resolved', payload: { approved: false, payload: { reason: 'wrong list' } } }],
        clientResults: [],
      },
      { answers: [{ interruptId: 'approval_tc-r', status: 'resolved', payload: { approved: true } }], clientResults: [] },
      {
        answers: [{ interruptId: 'interrupt-1767225600000-2tnxhxy', status: 'resolved', payload: { list: 'work', urgent: false } }],
        clientResults: [],
      },
    ]);
    expect(screen.getByText(/3 of 3 answered/)).toBeTruthy();
  });

  it('after a reload, items Go already keeps an answer for say "Answered — waiting for N more"', () => {
    const items = batch();
    setup(items, undefined, { answered: new Set(['approval_tc-w']), waiting: ['approval_tc-r', 'interrupt-1767225600000-2tnxhxy'] });
    const write = screen.getByRole('article', { name: 'Approval for write_file' });
    expect(within(write).getByRole('status').textContent).toMatch(/^Answered — waiting for 2 more/);
    expect(within(write).queryByRole('button', { name: 'Allow once' })).toBeNull();
    expect(screen.getByText(/1 of 3 answered/)).toBeTruthy();
    // It can still be changed; focus stays on the card as the choices come back.
    fireEvent.click(within(write).getByRole('button', { name: 'Change answer' }));
    expect(within(write).getByRole('button', { name: 'Allow once' })).toBeTruthy();
    expect(document.activeElement).toBe(write);
    fireEvent.click(within(write).getByRole('button', { name: 'Keep my answer' }));
    expect(within(write).getByText(/waiting for 2 more/)).toBeTruthy();
  });

  it('a refused or too-late answer is shown on its card; the answer kept before still stands', async () => {
    let n = 0;
    const onAnswer = vi.fn(async (): Promise<AnswerResult> => {
      n += 1;
      if (n === 1) return notYet(['approval_tc-r']);
      throw new JunctureError('conflict', 'Too late: this batch was already answered elsewhere.');
    });
    setup(batch().slice(0, 2), onAnswer);
    const write = screen.getByRole('article', { name: 'Approval for write_file' });
    await act(async () => {
      fireEvent.click(within(write).getByRole('button', { name: 'Allow once' }));
    });
    fireEvent.click(within(write).getByRole('button', { name: 'Change answer' }));
    fireEvent.click(within(write).getByRole('button', { name: 'Deny…' }));
    await act(async () => {
      fireEvent.click(within(write).getByRole('button', { name: 'Deny' }));
    });
    expect(within(write).getByRole('alert').textContent).toContain('Too late');
    // The person is still changing it; keeping it shows the answer Go kept.
    fireEvent.click(within(write).getByRole('button', { name: 'Keep my answer' }));
    expect(within(write).getByText('Approved')).toBeTruthy();
    expect(onAnswer).toHaveBeenCalledTimes(2);
  });

  it('unbound items are a status line only: no controls, nothing to answer', () => {
    const unbound = batch().filter((i) => i.kind === 'unbound');
    const { container } = setup(unbound);
    expect(screen.getByText(/Waiting for an external reviewer/)).toBeTruthy();
    expect(container.querySelectorAll('button, input, textarea, select')).toHaveLength(0);
  });

  it('shows a rejected call under the form and lets the person answer again', async () => {
    const onAnswer = vi.fn(async (): Promise<AnswerResult> => {
      throw new JunctureError('invalid-argument', 'Interrupt approval_tc-r has expired.', { code: 'stale', runId: 'run-3' });
    });
    setup(single(), onAnswer);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Allow once' }));
    });
    expect(screen.getByRole('alert').textContent).toContain('has expired');
    expect(screen.getByRole('button', { name: 'Allow once' })).toBeTruthy();
  });

  it('maps RUN_ERROR item errors to their card', () => {
    const items = single();
    render(
      <InterruptPanel
        threadId="th-1"
        items={items}
        runError={{ message: 'invalid', itemErrors: { 'approval_tc-r': 'Approval approval_tc-r envelope is invalid' } }}
        onAnswer={vi.fn()}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('envelope is invalid');
  });

  it('uses Go\'s command preview (command + workspace folder) and reports a preview error', () => {
    const base = batch()[1]!.interrupt;
    const withPreview = (pv: JsonValue): Interrupt => ({ ...base, metadata: { ...base.metadata, 'juncture:preview': pv } });
    const { unmount } = setup([
      classifyInterrupt(
        withPreview({
          kind: 'command',
          title: 'Run a command',
          body: 'make test',
          folder: '/srv/app',
          sandbox: 'sandbox: landlock (writes: /srv/app, a private temporary folder; network: none)',
        }),
        {},
      ),
    ]);
    expect(screen.getByLabelText('Command').textContent).toContain('make test');
    expect(screen.getByText('/srv/app')).toBeTruthy();
    // What the command can write and reach, from Go's preview.
    expect(screen.getByLabelText('Sandbox').textContent).toBe(
      'sandbox: landlock (writes: /srv/app, a private temporary folder; network: none)',
    );
    unmount();
    setup([classifyInterrupt(withPreview({ error: 'path escapes the workspace' }), {})]);
    expect(screen.getByText(/Preview unavailable: path escapes the workspace/)).toBeTruthy();
  });

  it('a question without a schema asks for free text', async () => {
    const { onAnswer } = setup([freeTextQuestion('q-1')]);
    change(screen.getByLabelText(/Your answer/), { target: { value: 'notes.md' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Submit answer' }));
    });
    expect(onAnswer.mock.calls[0]![0].answers).toEqual([{ interruptId: 'q-1', status: 'resolved', payload: 'notes.md' }]);
  });

  it('Deny…: focus in the reason; Esc closes the form (handled), keeps the reason and focuses Deny…; Enter denies with it', async () => {
    const { onAnswer } = setup(single());
    fireEvent.click(screen.getByRole('button', { name: 'Deny…' }));
    const input = screen.getByLabelText(/Reason/) as HTMLInputElement;
    expect(document.activeElement).toBe(input);
    change(input, { target: { value: 'not on main' } });
    let handled = false;
    act(() => {
      handled = escape(input);
    });
    expect(handled).toBe(true);
    expect(screen.queryByLabelText(/Reason/)).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Deny…' }));
    expect(onAnswer).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Deny…' }));
    const again = screen.getByLabelText(/Reason/) as HTMLInputElement;
    expect(again.value).toBe('not on main');
    await act(async () => {
      fireEvent.keyDown(again, { key: 'Enter' });
    });
    expect(onAnswer).toHaveBeenCalledTimes(1);
    expect(onAnswer.mock.calls[0]![0].answers[0]!.payload).toEqual({ approved: false, payload: { reason: 'not on main' } });
  });

  it('Always allow… focuses the chosen rule and Edit arguments the editor; Back and Esc return focus to the button', () => {
    setup(single());
    fireEvent.click(screen.getByRole('button', { name: 'Always allow…' }));
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: /Commands starting with/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Always allow…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit arguments' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Arguments (JSON)'));
    act(() => {
      escape(screen.getByLabelText('Arguments (JSON)'));
    });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit arguments' }));
  });

  it('Esc and Back keep an edit of the arguments; "Undo my edits" restores the model’s', () => {
    setup(single());
    fireEvent.click(screen.getByRole('button', { name: 'Edit arguments' }));
    const original = (screen.getByLabelText('Arguments (JSON)') as HTMLTextAreaElement).value;
    change(screen.getByLabelText('Arguments (JSON)'), { target: { value: '{"command":"git log"}' } });
    act(() => {
      escape(screen.getByLabelText('Arguments (JSON)'));
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit arguments' }));
    expect((screen.getByLabelText('Arguments (JSON)') as HTMLTextAreaElement).value).toBe('{"command":"git log"}');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit arguments' }));
    expect((screen.getByLabelText('Arguments (JSON)') as HTMLTextAreaElement).value).toBe('{"command":"git log"}');
    fireEvent.click(screen.getByRole('button', { name: 'Undo my edits' }));
    expect((screen.getByLabelText('Arguments (JSON)') as HTMLTextAreaElement).value).toBe(original);
  });

  it('refused edited arguments keep the editor open, with the problem in plain words and no interrupt id', async () => {
    const onAnswer = vi.fn(async (): Promise<AnswerResult> => {
      throw new JunctureError('invalid-argument', REFUSED, { code: 'invalid-edited-args', runId: 'run-9' });
    });
    setup(single(), onAnswer);
    fireEvent.click(screen.getByRole('button', { name: 'Edit arguments' }));
    change(screen.getByLabelText('Arguments (JSON)'), { target: { value: '{"command": 5}' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Allow with these arguments' }));
    });
    const editor = screen.getByLabelText('Arguments (JSON)') as HTMLTextAreaElement;
    expect(editor.value).toBe('{"command": 5}');
    expect(editor.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(editor);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('command must be text');
    expect(alert.textContent).not.toMatch(/approval_tc-r|interrupt/i);
    expect((screen.getByRole('button', { name: 'Allow with these arguments' }) as HTMLButtonElement).disabled).toBe(true);
    // Changing the text clears the refusal.
    change(editor, { target: { value: '{"command": "ls"}' } });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('the edit and the refusal survive the card going away and coming back (a refused batch restarts the run)', () => {
    const items = single();
    // The Answer call is still out when the run restarts.
    const props = { threadId: 'th-1', onAnswer: vi.fn(() => new Promise<AnswerResult>(() => {})) };
    const { rerender } = render(<InterruptPanel {...props} items={items} runError={null} />);
    fireEvent.click(screen.getByRole('button', { name: 'Edit arguments' }));
    change(screen.getByLabelText('Arguments (JSON)'), { target: { value: '{"command": 5}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Allow with these arguments' }));
    // What a refused complete batch does: RUN_STARTED clears the items, the resync brings them back with the error.
    rerender(<InterruptPanel {...props} items={[]} runError={null} />);
    expect(screen.queryByLabelText('Arguments (JSON)')).toBeNull();
    rerender(
      <InterruptPanel
        {...props}
        items={single()}
        runError={{ message: 'invalid', itemErrors: { 'approval_tc-r': REFUSED.replace(/^the answers were refused: /, '') } }}
      />,
    );
    const editor = screen.getByLabelText('Arguments (JSON)') as HTMLTextAreaElement;
    expect(editor.value).toBe('{"command": 5}');
    expect(screen.getByRole('alert').textContent).toContain('command must be text');
  });

  it('after a card is answered focus moves to the next card that needs an answer; after the last, to the composer', async () => {
    const composer = document.createElement('div');
    composer.className = 'composer';
    composer.innerHTML = '<textarea aria-label="Message"></textarea>';
    document.body.appendChild(composer);
    try {
      const onAnswer = answersUntilAll();
      setup(batch(), onAnswer);
      const write = screen.getByRole('article', { name: 'Approval for write_file' });
      const run = screen.getByRole('article', { name: 'Approval for run_command' });
      const question = screen.getByRole('article', { name: 'Question' });
      // Answering the second card first: focus goes on to the question, then back to the first.
      // (A click focuses its button in a browser; jsdom needs it said.)
      within(run).getByRole('button', { name: 'Allow once' }).focus();
      await act(async () => {
        fireEvent.click(within(run).getByRole('button', { name: 'Allow once' }));
      });
      expect(document.activeElement).toBe(question);
      fireEvent.click(within(question).getByRole('radio', { name: 'work' }));
      within(question).getByRole('button', { name: 'Submit answer' }).focus();
      await act(async () => {
        fireEvent.click(within(question).getByRole('button', { name: 'Submit answer' }));
      });
      expect(document.activeElement).toBe(write);
      within(write).getByRole('button', { name: 'Allow once' }).focus();
      await act(async () => {
        fireEvent.click(within(write).getByRole('button', { name: 'Allow once' }));
      });
      expect(document.activeElement).toBe(composer.querySelector('textarea'));
    } finally {
      composer.remove();
    }
  });

  it('Esc in a question field returns focus to the card and keeps the text; it never reaches the window', () => {
    const { onAnswer } = setup([freeTextQuestion('q-esc')]);
    const field = screen.getByLabelText(/Your answer/) as HTMLTextAreaElement;
    change(field, { target: { value: 'notes.md' } });
    field.focus();
    let handled = false;
    act(() => {
      handled = escape(field);
    });
    expect(handled).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole('article', { name: 'Question' }));
    expect((screen.getByLabelText(/Your answer/) as HTMLTextAreaElement).value).toBe('notes.md');
    expect(onAnswer).not.toHaveBeenCalled();
  });

  it('a question card leads with the question; a free-text question has no "Clear choice"', () => {
    const it0: Interrupt = {
      id: 'q-2',
      reason: 'question',
      message: 'What should the file be called?',
      metadata: { 'tanstack:interruptBinding': { v: 1, kind: 'generic', interruptId: 'q-2', interruptedRunId: 'r', generation: 0 } },
    };
    setup([classifyInterrupt(it0, {})]);
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe('What should the file be called?');
    expect(screen.queryByText('Juncture has a question')).toBeNull();
    expect(screen.queryByRole('button', { name: /Clear/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Skip question' })).toBeTruthy();
  });

  it('open_url asks “Open example.com?” with the full URL; copy_to_clipboard shows the text, neither as JSON', () => {
    const { unmount } = setup([windowApproval('open_url', { url: 'https://example.com/docs?page=2' })]);
    const open = screen.getByRole('article', { name: 'Approval for open_url' });
    expect(within(open).getByRole('heading', { level: 3 }).textContent).toBe('Open example.com?');
    expect(within(open).getByLabelText('Address').textContent).toBe('https://example.com/docs?page=2');
    expect(open.textContent).not.toContain('"url"');
    unmount();
    setup([windowApproval('copy_to_clipboard', { text: 'Hello there' })]);
    const copy = screen.getByRole('article', { name: 'Approval for copy_to_clipboard' });
    expect(within(copy).getByRole('heading', { level: 3 }).textContent).toBe('Copy to clipboard?');
    expect(within(copy).getByLabelText('Text to copy').textContent).toBe('Hello there');
    expect(copy.textContent).toMatch(/11 characters/);
    expect(copy.textContent).not.toContain('"text"');
  });

  it('an open_url that is not http(s) says it cannot be opened', () => {
    setup([windowApproval('open_url', { url: 'file:///etc/passwd' })]);
    expect(screen.getByText(/opens only http and https links/)).toBeTruthy();
  });
});

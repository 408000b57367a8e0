import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/preact';
import { InterruptPanel } from './InterruptPanel';
import { TransportContext } from '../../transport';
import { FakeTransport } from '../../test/fakeTransport';
import { mcpPrompt, mcpServer } from '../../test/builders';
import { classifyInterrupt } from '../../state/interrupts';
import type { AnswerBatch, Interrupt } from '../../transport/contract';
import type { JsonObject } from '../../transport/json';
import { change } from '../../test/change';

const URL_SCHEMA: JsonObject = { type: 'object', properties: {}, additionalProperties: false };
const SAMPLING_SCHEMA: JsonObject = {
  type: 'object',
  properties: { approved: { type: 'boolean' }, reason: { type: 'string' } },
  required: ['approved'],
  additionalProperties: false,
};

const question = mcpPrompt(
  'p-q',
  { kind: 'question', source: 'GitHub', message: 'Which repository should I use?' },
  {
    type: 'object',
    properties: { repo: { type: 'string', title: 'Repository' }, private: { type: 'boolean', title: 'Private' } },
    required: ['repo'],
  },
);
const page = mcpPrompt(
  'p-u',
  { kind: 'url', source: 'GitHub', message: 'Sign in to continue.', url: 'https://example.com/login?state=abc' },
  URL_SCHEMA,
);
const sampling = mcpPrompt(
  'p-s',
  {
    kind: 'sampling',
    source: 'Summariser',
    message: 'The server wants a summary.',
    details: {
      messages: [{ role: 'user', text: 'Summarise: the quick brown fox.' }],
      maxTokens: 200,
      systemPrompt: 'You are terse.',
    },
  },
  SAMPLING_SCHEMA,
);

function setup(it: Interrupt) {
  const transport = new FakeTransport({ Answer: () => ({ continued: true, runId: 'r2', waiting: [] }) });
  render(
    <TransportContext.Provider value={transport}>
      <InterruptPanel
        threadId="th-1"
        items={[classifyInterrupt(it, {})]}
        runError={null}
        onAnswer={(b: AnswerBatch) => transport.call('Answer', 'th-1', b)}
      />
    </TransportContext.Provider>,
  );
  const answers = () => transport.callsOf('Answer').map(([, b]) => (b as AnswerBatch).answers);
  return { transport, answers };
}

describe('PromptCard (MCP prompts)', () => {
  it('a question: heading “<source> asks”, the message as main text, focus, and Submit sends the form value', async () => {
    const { answers } = setup(question);
    const card = screen.getByRole('article', { name: 'GitHub asks' });
    expect(document.activeElement).toBe(card);
    expect(within(card).getByRole('heading', { name: 'GitHub asks' })).toBeTruthy();
    expect(within(card).getByText('Which repository should I use?').className).toBe('prompt-message');
    // Validation is inline, as SchemaForm shows it.
    await act(async () => {
      fireEvent.click(within(card).getByRole('button', { name: 'Submit' }));
    });
    expect(answers()).toEqual([]);
    expect(within(card).getAllByRole('alert').length).toBeGreaterThan(0);
    change(within(card).getByLabelText(/Repository/), { target: { value: 'ada/notes' } });
    await act(async () => {
      fireEvent.click(within(card).getByRole('button', { name: 'Submit' }));
    });
    expect(answers()).toEqual([[{ interruptId: 'p-q', status: 'resolved', payload: { repo: 'ada/notes', private: false } }]]);
  });

  it('a question: Decline is a cancel with action "decline"; Dismiss a plain cancel', async () => {
    const a = setup(question);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    });
    expect(a.answers()).toEqual([[{ interruptId: 'p-q', status: 'cancelled', metadata: { action: 'decline' } }]]);
    expect(screen.getByText('Declined')).toBeTruthy();
  });

  it('a question: Dismiss sends a plain cancel', async () => {
    const a = setup(question);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    });
    expect(a.answers()).toEqual([[{ interruptId: 'p-q', status: 'cancelled' }]]);
  });

  it('a page: Open asks “Open example.com?” first, opens it like open_url, then resolves with {}', async () => {
    const { transport, answers } = setup(page);
    const card = screen.getByRole('article', { name: 'GitHub wants you to open a page' });
    expect(within(card).getByText('Sign in to continue.')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Open' }));
    expect(transport.opened).toEqual([]);
    expect(answers()).toEqual([]);
    const ask = within(card).getByRole('group', { name: 'Open example.com?' });
    expect(within(ask).getByText('https://example.com/login?state=abc')).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(ask).getByRole('button', { name: 'Open' }));
    });
    expect(transport.opened).toEqual(['https://example.com/login?state=abc']);
    expect(answers()).toEqual([[{ interruptId: 'p-u', status: 'resolved', payload: {} }]]);
  });

  it('a page: Decline opens nothing', async () => {
    const { transport, answers } = setup(page);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    });
    expect(transport.opened).toEqual([]);
    expect(answers()).toEqual([[{ interruptId: 'p-u', status: 'cancelled', metadata: { action: 'decline' } }]]);
  });

  it('a page with another scheme cannot be opened', () => {
    setup(mcpPrompt('p-x', { kind: 'url', source: 'X', url: 'file:///etc/passwd' }, URL_SCHEMA));
    expect((screen.getByRole('button', { name: 'Open' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('sampling: shows what it would send and the limit; Allow resolves {approved: true}', async () => {
    const { answers } = setup(sampling);
    const card = screen.getByRole('article', { name: 'Summariser wants to ask the model' });
    expect(within(card).getByText('You are terse.')).toBeTruthy();
    expect(within(within(card).getByRole('list', { name: 'Messages it would send' })).getByText('Summarise: the quick brown fox.')).toBeTruthy();
    expect(within(card).getByText(/up to 200 tokens/)).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(card).getByRole('button', { name: 'Allow' }));
    });
    expect(answers()).toEqual([[{ interruptId: 'p-s', status: 'resolved', payload: { approved: true } }]]);
  });

  it('sampling: Deny with a reason (Enter submits) resolves {approved: false, reason}', async () => {
    const { answers } = setup(sampling);
    fireEvent.click(screen.getByRole('button', { name: 'Deny…' }));
    const reason = screen.getByLabelText(/Reason/);
    change(reason, { target: { value: 'not now' } });
    await act(async () => {
      fireEvent.keyDown(reason, { key: 'Enter' });
    });
    expect(answers()).toEqual([[{ interruptId: 'p-s', status: 'resolved', payload: { approved: false, reason: 'not now' } }]]);
    expect(screen.getByText('Denied: “not now”')).toBeTruthy();
  });

  it('an item without juncture:prompt stays an ordinary question', () => {
    const plain = mcpPrompt('p-plain', { kind: 'question' }, { type: 'string' });
    delete plain.metadata!['juncture:prompt'];
    setup(plain);
    expect(screen.getByRole('article', { name: 'Question' })).toBeTruthy();
  });
});

describe('ApprovalCard for MCP tools', () => {
  it('names the tool by its title and server, and offers the MCP rules with readable labels', async () => {
    const approval: Interrupt = {
      id: 'approval_tc-e',
      reason: 'tool_call',
      toolCallId: 'tc-e',
      responseSchema: { type: 'object', properties: { approved: { type: 'boolean' } }, required: ['approved'] },
      metadata: {
        'tanstack:interruptBinding': {
          v: 1,
          kind: 'tool-approval',
          interruptId: 'approval_tc-e',
          toolName: 'everything__echo',
          toolCallId: 'tc-e',
          originalArgs: { message: 'hi' },
          inputSchemaHash: 'sha256:1',
          approvalSchemaHash: 'sha256:2',
          responseSchemaHash: 'sha256:3',
          interruptedRunId: 'run-1',
          generation: 0,
        },
        'juncture:suggestedRules': [
          { tool: 'everything__echo', scope: 'tool-identity', pattern: 'fp-123' },
          { tool: 'mcp:everything', scope: 'server', pattern: 'everything' },
        ],
      },
    };
    const transport = new FakeTransport({
      ListMCPServers: () => [mcpServer('everything', [{ name: 'echo', title: 'Echo' }], { title: 'Everything' })],
      Answer: () => ({ continued: true, runId: 'r2', waiting: [] }),
    });
    render(
      <TransportContext.Provider value={transport}>
        <InterruptPanel
          threadId="th-1"
          items={[classifyInterrupt(approval, {})]}
          runError={null}
          onAnswer={(b) => transport.call('Answer', 'th-1', b)}
        />
      </TransportContext.Provider>,
    );
    expect(await screen.findByRole('heading', { name: 'Allow Echo?' })).toBeTruthy();
    expect(screen.getByText(/a tool of Everything/)).toBeTruthy();
    expect(screen.getByRole('article', { name: 'Approval for Echo' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Always allow…' }));
    const own = screen.getByRole('radio', { name: 'Always allow Echo' }) as HTMLInputElement;
    expect(own.checked).toBe(true);
    expect(screen.getByRole('radio', { name: 'Always allow every tool of Everything' })).toBeTruthy();
    expect(screen.queryByRole('radio', { name: /Every everything__echo call/ })).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: 'Always allow every tool of Everything' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Always allow' }));
    });
    expect(transport.callsOf('Answer')).toEqual([
      [
        'th-1',
        {
          answers: [
            {
              interruptId: 'approval_tc-e',
              status: 'resolved',
              payload: { approved: true },
              remember: { scope: 'server', pattern: 'everything' },
            },
          ],
          clientResults: [],
        },
      ],
    ]);
  });
});

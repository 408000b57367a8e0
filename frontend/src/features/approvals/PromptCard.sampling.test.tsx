import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/preact';
import { InterruptPanel } from './InterruptPanel';
import { TransportContext } from '../../transport';
import { FakeTransport } from '../../test/fakeTransport';
import { mcpPrompt } from '../../test/builders';
import { classifyInterrupt } from '../../state/interrupts';

const SCHEMA = {
  type: 'object',
  properties: { approved: { type: 'boolean' }, reason: { type: 'string' } },
  required: ['approved'],
  additionalProperties: false,
};

function show(message: string) {
  // What Go sends (agent/mcp/roundtrip.go samplingPrompt): the message is "<title> wants to ask the model".
  const it = mcpPrompt('p-s', { kind: 'sampling', source: 'Summariser', message, details: { messages: [], maxTokens: 0 } }, SCHEMA);
  render(
    <TransportContext.Provider value={new FakeTransport({})}>
      <InterruptPanel threadId="th-1" items={[classifyInterrupt(it, {})]} runError={null} onAnswer={async () => ({ continued: true, runId: 'r', waiting: [] })} />
    </TransportContext.Provider>,
  );
  return screen.getByRole('article', { name: 'Summariser wants to ask the model' });
}

describe('PromptCard: sampling', () => {
  it('TestSamplingCardDoesNotRepeatHeading: the heading is not repeated as the body', () => {
    const card = show('Summariser wants to ask the model');
    expect(within(card).getAllByText('Summariser wants to ask the model')).toHaveLength(1);
    expect(card.querySelector('.prompt-message')).toBeNull();
  });

  it('a message of its own is still shown', () => {
    const card = show('The server wants a summary.');
    expect(within(card).getByText('The server wants a summary.').className).toBe('prompt-message');
  });
});

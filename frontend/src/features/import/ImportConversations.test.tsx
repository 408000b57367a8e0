import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/preact';
import { ImportConversations, importSummaryText } from './ImportConversations';
import { FakeTransport } from '../../test/fakeTransport';
import { thread } from '../../test/builders';
import { JunctureError } from '../../transport/errors';
import { change } from '../../test/change';

function choose(text: string, name = 'conversations.json') {
  const input = screen.getByLabelText('File to import');
  const file = new File([text], name, { type: 'application/json' });
  change(input, { target: { files: [file] } });
}

describe('ImportConversations', () => {
  it('imports the chosen file with the format detected and shows the summary', async () => {
    const t = new FakeTransport({
      ImportConversations: () => ({ threads: 12, messages: 340, alreadyImported: 3, skippedMessages: 0, emptyConversations: 0, threadIds: [] }),
    });
    render(<ImportConversations transport={t} />);
    expect(screen.getByRole('heading', { name: 'Import conversations' })).toBeTruthy();
    choose('[{"mapping":{}}]');
    expect((await screen.findByText(/^Imported/)).textContent).toBe('Imported 12 conversations (340 messages); 3 were already here.');
    expect(t.callsOf('ImportConversations')).toEqual([['auto', '[{"mapping":{}}]']]);
  });

  it('imports a chat exported from Juncture as JSON through the same control (issue 22 item 3)', async () => {
    const t = new FakeTransport({
      ImportThread: () => thread('t1', 'Saved chat'),
    });
    render(<ImportConversations transport={t} />);
    const text = '  {"format": "juncture.thread", "version": 3, "thread": {}}';
    choose(text, 'saved.json');
    expect((await screen.findByText(/^Imported the chat/)).textContent).toBe('Imported the chat “Saved chat”.');
    expect(t.callsOf('ImportThread')).toEqual([[text]]);
    expect(t.callsOf('ImportConversations')).toEqual([]);
    expect(screen.getByText('saved.json')).toBeTruthy();
  });

  it('tells a Juncture export that starts with more than 4 KiB of whitespace apart', async () => {
    const t = new FakeTransport({
      ImportThread: () => thread('t1', 'Spaced chat'),
    });
    render(<ImportConversations transport={t} />);
    const text = '\uFEFF' + ' \n'.repeat(40_000) + '{"format": "juncture.thread", "version": 3, "thread": {}}';
    choose(text, 'spaced.json');
    expect((await screen.findByText(/^Imported the chat/)).textContent).toBe('Imported the chat “Spaced chat”.');
    expect(t.callsOf('ImportConversations')).toEqual([]);
  });

  it('shows where the file is wrong, naming the file chosen (issue 22 item 24)', async () => {
    const t = new FakeTransport({
      ImportConversations: () => {
        throw new JunctureError('invalid-argument', 'conversations.json:2:14: invalid character', { line: '2', column: '14' });
      },
    });
    render(<ImportConversations transport={t} />);
    choose('[\n {,}]', 'export.json');
    expect((await screen.findByRole('alert')).textContent).toBe('Could not import export.json: line 2, column 14: invalid character');
  });

  it('refuses a file over 64 MiB without reading it', async () => {
    const t = new FakeTransport({});
    render(<ImportConversations transport={t} />);
    const big = new File(['x'], 'huge.json');
    Object.defineProperty(big, 'size', { value: 65 * 2 ** 20 });
    change(screen.getByLabelText('File to import'), { target: { files: [big] } });
    expect((await screen.findByRole('alert')).textContent).toBe('Could not import huge.json: it is 65 MiB; at most 64 MiB can be imported.');
    expect(t.calls).toEqual([]);
  });

  it('says what a summary means', () => {
    const s = { threads: 0, messages: 0, alreadyImported: 0, skippedMessages: 0, emptyConversations: 0, threadIds: [] };
    expect(importSummaryText({ ...s, threads: 1, messages: 2, skippedMessages: 1 })).toBe(
      'Imported 1 conversation (2 messages). 1 message that was not text (system notes, tool calls and their output) was left out.',
    );
    expect(importSummaryText({ ...s, alreadyImported: 3 })).toBe('Nothing new: all 3 conversations were already here.');
    expect(importSummaryText({ ...s, alreadyImported: 1 })).toBe('Nothing new: its conversation was already here.');
    expect(importSummaryText(s)).toBe('The file has no conversations.');
    expect(importSummaryText({ ...s, threads: 1, messages: 1, emptyConversations: 2 })).toBe(
      'Imported 1 conversation (1 message). 2 conversations without a message were left out.',
    );
  });
});

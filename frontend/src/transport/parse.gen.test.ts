// The generated parsers (parse.gen.ts) keep the tolerance of the
// hand-written ones they replaced: strict where the window cannot go on
// (a thread or message without an id), defaulted where an older or odd
// answer leaves something out, AG-UI's shapes accepted.

import { describe, expect, it } from 'vitest';
import {
  parseCompletion,
  parseExport,
  parseMessage,
  parseSettings,
  parseThreadOptions,
  parseThreadView,
  readBranch,
  readThreadListItem,
  readToolStateEvent,
  readUsage,
  resultParsers,
} from './parse.gen';
import { parseSettingsView, parseStatus } from './contract';
import { JunctureError } from './errors';
import { isRole, MESSAGE_STATUSES, ROLES } from './contract.gen';

describe('generated parsers', () => {
  it('reads a message with defaults for what is missing and drops what does not read', () => {
    const m = parseMessage({
      id: 'm1',
      role: 'moderator',
      status: 'weird',
      runId: '',
      toolState: 'exploded',
      toolCalls: [{ id: 'c1', function: { name: 'read_file', arguments: '{}' } }, { name: 'no id' }],
      branch: { index: 3, count: 2, siblings: ['a', 'b'] },
      usage: { promptTokens: 3, completionTokens: 4 },
    });
    expect(m).toEqual({
      id: 'm1',
      threadId: '',
      role: 'system',
      content: '',
      status: 'complete',
      createdAt: 0,
      toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{}' }],
      usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 },
    });
  });

  it('throws bad-response where the hand-written parser threw', () => {
    expect(() => parseMessage({ role: 'user' })).toThrow(JunctureError);
    expect(() => parseThreadView(null)).toThrow(/thread view/);
    expect(() => parseThreadView({ thread: { title: 'no id' } })).toThrow(JunctureError);
    expect(() => parseThreadView({ thread: { id: 't' }, messages: [{ id: 'm' }, {}] })).toThrow(JunctureError);
    expect(() => parseSettings('x')).toThrow(JunctureError);
    expect(() => parseExport({ filename: 'a.md' })).toThrow(JunctureError);
  });

  it('keeps the UI defaults', () => {
    expect(parseExport({ content: 'x' }).filename).toBe('conversation.txt');
    expect(parseSettings({}).loopGuard).toBe(25);
    expect(parseThreadOptions(undefined)).toEqual({ systemPrompt: '' });
    expect(readThreadListItem({ id: 't', createdAt: 5, waiting: 2.7 })).toMatchObject({ updatedAt: 5, waiting: 2, running: false });
    expect(readThreadListItem({ id: 't', waiting: -1 })?.waiting).toBe(0);
    expect(parseStatus({ mode: 'kiosk' }).mode).toBe('browser');
    const v = parseSettingsView({ settings: { theme: 'neon' }, sources: { model: 'saved', nope: 'saved', theme: 'guessed' } });
    expect(v.settings.theme).toBe('system');
    expect(v.sources).toEqual({ model: 'saved' });
  });

  it('leaves out a branch, usage or tool state event that does not hold together', () => {
    expect(readBranch({ index: 1, count: 1, siblings: ['a'] })).toBeNull();
    expect(readBranch({ index: 2, count: 2, siblings: ['a', 'b'] })).toEqual({ index: 2, count: 2, siblings: ['a', 'b'] });
    expect(readUsage({ promptTokens: 1 })).toBeNull();
    expect(readToolStateEvent({ toolCallId: '', state: 'done' })).toBeNull();
    expect(readToolStateEvent({ toolCallId: 'c', state: 'exploded' })).toBeNull();
    expect(readToolStateEvent({ toolCallId: 'c', state: 'done', allowedBy: { id: 'r', scope: 'nowhere' } })).toEqual({ toolCallId: 'c', state: 'done' });
  });

  it('narrows a server-named completion and every method result', () => {
    const values = Array.from({ length: 150 }, (_, i) => String(i));
    expect(parseCompletion({ values }).values).toHaveLength(100);
    expect(parseCompletion(null)).toEqual({ values: [], total: 0, hasMore: false, cut: false });
    expect(resultParsers.ListEndpoints([{ id: 'a', source: 'nowhere' }, { name: 'no id' }])).toEqual([
      { id: 'a', name: 'a', baseUrl: '', apiKey: '', models: [], prices: {}, source: 'saved', isDefault: false, defaultModel: '' },
    ]);
    expect(resultParsers.MCPServerLog(42)).toBe('');
    expect(resultParsers.ListModels(['a', 1])).toEqual([]);
    expect(resultParsers.Interrupt('anything')).toBeNull();
  });

  it('exports Go enums as unions with their values', () => {
    expect(ROLES).toEqual(['user', 'assistant', 'tool', 'system']);
    expect(MESSAGE_STATUSES).toContain('interrupted');
    expect(isRole('assistant')).toBe(true);
    expect(isRole('moderator')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import {
  parseImportSummary,
  parseMcpConfigView,
  parseMessage,
  parseServerStatuses,
  parseToolStateEvent,
} from './contract';
import { parseResult } from './methods';

describe('MCP parsers', () => {
  it('narrows ListMCPServers, defaulting what an older or odd answer leaves out', () => {
    const s = parseServerStatuses([
      {
        name: 'everything',
        title: 'Everything',
        transport: 'stdio',
        status: 'ready',
        restarts: 2,
        nextRetry: 0,
        approval: 'ask',
        tools: [
          { name: 'echo', modelName: 'everything__echo', title: 'Echo', readOnly: true, destructive: false },
          { name: 'rm', modelName: 'everything__rm', readOnly: false, destructive: true, claimsReadOnly: true },
          { nope: 1 },
        ],
      },
      { name: 'web', transport: 'http', status: 'weird', tools: null },
      'garbage',
    ]);
    expect(s).toEqual([
      {
        name: 'everything',
        title: 'Everything',
        transport: 'stdio',
        status: 'ready',
        restarts: 2,
        approval: 'ask',
        tools: [
          { name: 'echo', modelName: 'everything__echo', title: 'Echo', readOnly: true, destructive: false },
          { name: 'rm', modelName: 'everything__rm', readOnly: false, destructive: true, claimsReadOnly: true },
        ],
      },
      { name: 'web', transport: 'http', status: 'starting', tools: [] },
    ]);
    // Go's nil slice arrives as null.
    expect(parseResult('ListMCPServers', null)).toEqual([]);
  });

  it('narrows GetMCPConfig with its parse error and import summaries', () => {
    const v = parseMcpConfigView({
      path: '/home/ada/.config/juncture/mcp.json',
      text: '{',
      servers: [{ name: 'a', config: { command: 'npx', args: ['-y', 'x'], env: { K: '••••1234' }, disabled: true } }],
      error: { line: 1, column: 2, message: 'unexpected end of JSON input' },
      claudeDesktopPath: '/home/ada/.config/Claude/claude_desktop_config.json',
    });
    expect(v.servers).toEqual([{ name: 'a', config: { command: 'npx', args: ['-y', 'x'], env: { K: '••••1234' }, disabled: true } }]);
    expect(v.error).toEqual({ line: 1, column: 2, message: 'unexpected end of JSON input' });
    expect(parseImportSummary({ added: ['a'], skipped: [{ name: 'b', reason: 'already configured' }] })).toEqual({
      added: ['a'],
      skipped: [{ name: 'b', reason: 'already configured' }],
    });
    expect(parseImportSummary({ added: null, skipped: null })).toEqual({ added: [], skipped: [] });
  });

  it('reads progress and parts of juncture.tool_state, and parts of stored tool results', () => {
    expect(
      parseToolStateEvent({ toolCallId: 'a', state: 'running', progress: { progress: 3, total: 10, message: 'Indexing' } }),
    ).toEqual({ toolCallId: 'a', state: 'running', progress: { progress: 3, total: 10, message: 'Indexing' } });
    expect(parseToolStateEvent({ toolCallId: 'a', state: 'running', progress: { total: 3 } })).toEqual({
      toolCallId: 'a',
      state: 'running',
    });
    const e = parseToolStateEvent({
      toolCallId: 'a',
      state: 'done',
      parts: [
        { kind: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { kind: 'structured', json: { n: 1 } },
        { kind: 'video', uri: 'x' },
      ],
    });
    expect(e?.parts).toEqual([
      { kind: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { kind: 'structured', json: { n: 1 } },
    ]);
    const m = parseMessage({
      id: 'm',
      role: 'tool',
      content: 'see link',
      status: 'complete',
      parts: [{ kind: 'link', uri: 'https://example.com/a', title: 'A' }],
    });
    expect(m.parts).toEqual([{ kind: 'link', uri: 'https://example.com/a', title: 'A' }]);
  });
});

import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../transport/contract.gen';
import { argsLine, ruleLine } from './ledgerWords';

function entry(kind: string, args: unknown): LedgerEntry {
  return { seq: 1, at: 0, kind, arguments: JSON.stringify(args) } as unknown as LedgerEntry;
}

describe('ledgerWords', () => {
  it('says a rule entry in words, never as raw JSON', () => {
    const line = argsLine(
      entry('rule-created', {
        id: 'rule-1', tool: 'run_command', scope: 'command-prefix', pattern: 'git push',
        createdAt: 1, effect: 'deny', reason: 'never push', duration: 'forever',
      }),
    );
    expect(line).toBe('Never: commands starting with “git push” · until I revoke it');
    expect(line).not.toContain('{');
  });

  it.each([
    [{ tool: 'read_file', scope: 'folder-glob', pattern: '/ws/src', glob: '*.go', duration: '1h' }, 'Allow: inside /ws/src, paths matching “*.go” · for 1 hour'],
    [{ tool: 'open_url', scope: 'host', pattern: 'example.org' }, 'Allow: to example.org only'],
    [{ tool: 'mcp:files', scope: 'server' }, 'Allow: every tool of files'],
    [{ tool: 'mcp__x__y', scope: 'arg-prefix', arg: 'path', pattern: '/tmp/' }, 'Allow: when path starts with “/tmp/”'],
  ])('rule %j reads %s', (rule, words) => {
    expect(ruleLine(rule)).toBe(words);
  });

  it('keeps a call entry’s own argument line', () => {
    expect(argsLine(entry('approved', { command: 'git status' }))).toBe('git status');
    expect(ruleLine({ command: 'x' })).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import type { LedgerEntryView } from '../../transport/contract.gen';
import { argsLine, ruleLine } from './ledgerWords';

/** An entry as ListLedger sends it; `rule`: Go's words for a rule's change. */
function entry(kind: string, args: unknown, rule?: string): LedgerEntryView {
  return { seq: 1, at: 0, kind, arguments: JSON.stringify(args), ...(rule ? { rule } : {}) } as unknown as LedgerEntryView;
}

describe('ledgerWords', () => {
  it('says a rule entry in Go’s words, never as raw JSON', () => {
    const line = argsLine(
      entry(
        'rule-created',
        {
          id: 'rule-1', tool: 'run_command', scope: 'command-prefix', pattern: 'git push',
          createdAt: 1, effect: 'deny', reason: 'never push', duration: 'forever',
        },
        'Never allow run_command when the command starts with "git push"',
      ),
    );
    expect(line).toBe('Never allow run_command when the command starts with "git push" · until I revoke it');
    expect(line).not.toContain('{');
  });

  it.each([
    [{ tool: 'read_file', scope: 'folder-glob', pattern: '/ws/src', glob: '*.go', duration: '1h' }, 'Allow read_file of files matching "*.go" under /ws/src', 'Allow read_file of files matching "*.go" under /ws/src · for 1 hour'],
    [{ tool: 'open_url', scope: 'host', pattern: 'example.org' }, 'Allow open_url to example.org', 'Allow open_url to example.org'],
    [{ tool: 'mcp:files', scope: 'server', pattern: 'files' }, 'Allow every tool of the server files', 'Allow every tool of the server files'],
    [{ tool: 'mcp__x__y', scope: 'arg-prefix', arg: 'path', pattern: '/tmp/' }, 'Allow mcp__x__y when path starts with "/tmp/"', 'Allow mcp__x__y when path starts with "/tmp/"'],
  ])('rule %j with Go’s words reads %s', (rule, goWords, line) => {
    expect(ruleLine(entry('rule-changed', rule, goWords))).toBe(line);
  });

  it('keeps a call entry’s own argument line; a rule entry without Go’s words shows its arguments', () => {
    expect(argsLine(entry('approved', { command: 'git status' }))).toBe('git status');
    expect(ruleLine(entry('approved', { command: 'x' }))).toBeNull();
    expect(ruleLine(entry('rule-created', { tool: 'x', scope: 'tool' }))).toBeNull();
  });
});

// Rules in words: how long a rule lasts, and one call it would refuse.
// Go decides what a rule covers (agent/tools/grants.go); these words only
// say it, on the card and in Settings › Rules.
import type { RememberScope } from '../../transport/contract';
import { isObject, isString } from '../../transport/json';
import { formatTime } from '../../lib/format';

/** Go's history.Durations, shortest first. */
export const DURATIONS = ['turn', '15m', '1h', 'today', 'chat', 'forever'] as const;
export type RuleDuration = (typeof DURATIONS)[number];

export function isRuleDuration(v: unknown): v is RuleDuration {
  return (DURATIONS as readonly unknown[]).includes(v);
}

/** The duration as a choice ("For 15 minutes"). */
export const DURATION_LABELS: Record<RuleDuration, string> = {
  turn: 'For this turn',
  '15m': 'For 15 minutes',
  '1h': 'For 1 hour',
  today: 'Until midnight (today)',
  chat: 'In this chat',
  forever: 'Until I revoke it',
};

/** How long a stored rule lasts, in words ("for this chat", "until 14:32"). */
export function durationWords(duration: string | undefined, expiresAt: number | undefined): string {
  if (expiresAt) return `until ${formatTime(expiresAt)}`;
  switch (duration) {
    case 'turn':
      return 'for one turn of its chat';
    case 'chat':
      return 'in its chat, until revoked';
    default:
      return 'until revoked';
  }
}

/** The end a duration chosen now would have, in words (for the card). */
export function chosenDurationWords(d: RuleDuration, now = Date.now()): string {
  switch (d) {
    case 'turn':
      return 'for this turn only (until you send your next message)';
    case '15m':
      return `for 15 minutes (until ${formatTime(now + 15 * 60_000)})`;
    case '1h':
      return `for 1 hour (until ${formatTime(now + 3_600_000)})`;
    case 'today':
      return 'until midnight';
    case 'chat':
      return 'in this chat only, until you revoke it';
    case 'forever':
      return 'in every chat, until you revoke it in Settings › Rules';
  }
}

/** Another subcommand of a well-known program, for "would refuse". */
const OTHER_SUBCOMMAND: Record<string, readonly string[]> = {
  git: ['push', 'reset --hard'],
  npm: ['publish', 'install'],
  docker: ['rm -f', 'ps'],
  kubectl: ['delete pod', 'get pods'],
};

function otherCommand(words: string[]): string {
  const [prog, sub] = words;
  const alts = prog ? OTHER_SUBCOMMAND[prog] : undefined;
  const alt = alts?.find((a) => a !== sub && !a.startsWith(`${sub ?? ''} `));
  if (prog && alt && words.length >= 2) return `${prog} ${alt}`;
  return `${words.join(' ')} && rm -rf ~`;
}

function parent(path: string): string {
  const p = path.replace(/[/\\]+$/, '');
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i > 0 ? p.slice(0, i) : p;
}

function argOf(args: unknown, name: string | undefined): string | undefined {
  if (!name || !isObject(args)) return undefined;
  const v = args[name];
  return isString(v) ? v : undefined;
}

/**
 * One call the rule would NOT cover (an allow rule) — so the person sees
 * where it stops — or null when it covers every call of the tool.
 */
export function refusedExample(tool: string, r: RememberScope): string | null {
  const p = r.pattern ?? '';
  switch (r.scope) {
    case 'command-prefix':
      return otherCommand(p.split(/\s+/).filter(Boolean));
    case 'command-glob': {
      const words = p.replace(/\s*\*$/, '').split(/\s+/).filter(Boolean);
      return otherCommand(words);
    }
    case 'folder':
      return `${tool} of ${parent(p)}/secret.txt (outside the folder)`;
    case 'file':
      return `${tool} of another file in ${parent(p)}`;
    case 'folder-glob':
      return `${tool} of ${p}/run.sh (not “${r.glob ?? '*'}”)`;
    case 'host':
      return `${tool} to https://other-${p}/ (another host)`;
    case 'arg-equals':
      return `${r.arg ?? 'the argument'} = “${p}-other”`;
    case 'arg-prefix':
      return `${r.arg ?? 'the argument'} = “/elsewhere${p.startsWith('/') ? '' : '/'}${p.split('/').pop() ?? ''}”`;
    case 'thread':
      return `${tool} in another chat`;
    case 'tool-identity':
      return `${tool} after its server changes what the tool is`;
    case 'server':
      return 'a tool of another server';
    case 'server-tools':
      return `a tool of this server whose name does not match “${r.glob ?? '*'}”`;
    case 'tool':
      return null;
  }
}

/** What the rule will also let through beyond this call (its reach). */
export function reachWords(tool: string, r: RememberScope, args?: unknown): string {
  const p = r.pattern ?? '';
  switch (r.scope) {
    case 'tool':
      return `every ${tool} call, whatever its arguments`;
    case 'command-prefix':
      return `commands that start with the words “${p}” (and nothing chained after them)`;
    case 'command-glob':
      return `single commands matching “${p}” (* is any text)`;
    case 'folder':
      return `${tool} of any file inside ${p}`;
    case 'file':
      return `${tool} of ${p} only`;
    case 'folder-glob':
      return `${tool} of files matching “${r.glob ?? '*'}” anywhere under ${p}`;
    case 'host':
      return `${tool} to ${p} only (not its subdomains)`;
    case 'arg-equals':
      return `calls whose ${r.arg ?? 'argument'} is exactly “${p}”${argOf(args, r.arg) === p ? ' (as this one)' : ''}`;
    case 'arg-prefix':
      return `calls whose ${r.arg ?? 'argument'} starts with “${p}”`;
    case 'thread':
      return `every ${tool} call in this chat`;
    case 'tool-identity':
      return 'this tool while its server keeps it as it is now';
    case 'server':
      return 'every tool of this server';
    case 'server-tools':
      return `the tools of this server named “${r.glob ?? '*'}”`;
  }
}

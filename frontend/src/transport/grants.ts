// Parsers for the rule and ledger methods (issue 23): Settings' rules list
// and the Activity ledger. Unknown or malformed items are dropped, never
// passed on.

import type { LedgerEntry, LedgerReport, PermissionRule, RuleView } from './contract.gen';
import { bool, isNumber, isObject, isString, num, optStr, str } from './json';

type Obj = Record<string, unknown>;

function optNum(o: Obj, k: string): number | undefined {
  return isNumber(o[k]) ? (o[k] as number) : undefined;
}

function ruleOf(r: Obj): PermissionRule {
  const rule: PermissionRule = { id: str(r, 'id'), tool: str(r, 'tool'), scope: str(r, 'scope'), createdAt: num(r, 'createdAt') };
  for (const k of ['pattern', 'effect', 'arg', 'glob', 'reason', 'duration', 'threadId', 'turnId'] as const) {
    const v = optStr(r, k);
    if (v) rule[k] = v;
  }
  for (const k of ['expiresAt', 'lastUsedAt', 'uses'] as const) {
    const v = optNum(r, k);
    if (v !== undefined) rule[k] = v;
  }
  return rule;
}

export function parsePermissionRule(u: unknown): PermissionRule {
  if (!isObject(u) || !isString(u.id)) throw new Error('malformed rule');
  return ruleOf(u);
}

export function parseRuleViews(u: unknown): RuleView[] {
  if (!Array.isArray(u)) return [];
  const out: RuleView[] = [];
  for (const r of u) {
    if (!isObject(r) || !isString(r.id)) continue;
    const v: RuleView = { ...ruleOf(r), description: str(r, 'description') };
    const refuses = optStr(r, 'refuses');
    if (refuses) v.refuses = refuses;
    out.push(v);
  }
  return out;
}

export function parseLedgerEntries(u: unknown): LedgerEntry[] {
  if (!Array.isArray(u)) return [];
  const out: LedgerEntry[] = [];
  for (const e of u) {
    if (!isObject(e) || !isNumber(e.seq) || !isString(e.kind)) continue;
    const entry: LedgerEntry = { seq: num(e, 'seq'), at: num(e, 'at'), kind: str(e, 'kind'), prevHash: str(e, 'prevHash'), hash: str(e, 'hash') };
    for (const k of ['threadId', 'runId', 'callId', 'tool', 'server', 'transport', 'ruleId', 'arguments', 'diff', 'argsHash', 'reason', 'outcome'] as const) {
      const v = optStr(e, k);
      if (v) entry[k] = v;
    }
    if (e.redacted === true) entry.redacted = true;
    out.push(entry);
  }
  return out;
}

export function parseLedgerReport(u: unknown): LedgerReport {
  if (!isObject(u)) throw new Error('malformed ledger report');
  const rep: LedgerReport = { entries: num(u, 'entries'), ok: bool(u, 'ok') };
  const seq = optNum(u, 'brokenSeq');
  if (seq !== undefined) rep.brokenSeq = seq;
  const problem = optStr(u, 'problem');
  if (problem) rep.problem = problem;
  const head = optStr(u, 'headHash');
  if (head) rep.headHash = head;
  return rep;
}

export function parseCount(u: unknown): number {
  if (!isNumber(u)) throw new Error('malformed count');
  return u;
}

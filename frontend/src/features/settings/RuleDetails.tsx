// One rule's end, use and reach, and its duration to edit (Settings › Rules).
import { useId } from 'react';
import type { RuleView } from '../../transport/contract.gen';
import { formatTime } from '../../lib/format';
import { DURATION_LABELS, durationWords, type RuleDuration } from '../approvals/ruleWords';

/** The durations a rule may be given from Settings: "this turn" and "this chat" only for a rule made in a chat. */
export function durationsFor(r: Pick<RuleView, 'threadId' | 'turnId'>): RuleDuration[] {
  const out: RuleDuration[] = [];
  if (r.turnId) out.push('turn');
  out.push('15m', '1h', 'today');
  if (r.threadId) out.push('chat');
  out.push('forever');
  return out;
}

export function useText(r: RuleView): string {
  const n = r.uses ?? 0;
  const calls = `${n} call${n === 1 ? '' : 's'} ${r.effect === 'deny' ? 'refused' : 'let through'}`;
  return r.lastUsedAt ? `last used ${formatTime(r.lastUsedAt)} · ${calls}` : 'never used yet';
}

export function RuleDetails({ rule: r, onDuration }: { rule: RuleView; onDuration?: ((ruleId: string, d: string) => void) | undefined }) {
  const id = useId();
  const current = r.duration || 'forever';
  return (
    <span className="set-rule-details">
      <span className="set-rule-meta">
        {durationWords(r.duration, r.expiresAt)} · {useText(r)}
      </span>
      {r.effect === 'deny' && r.reason && <span className="set-rule-meta">Reason the model reads: “{r.reason}”</span>}
      {r.refuses && <span className="set-rule-meta">Still asks for, e.g.: <span className="mono">{r.refuses}</span></span>}
      {onDuration && (
        <span className="set-rule-edit">
          <label htmlFor={`${id}-d`}>How long</label>
          <select
            id={`${id}-d`}
            value={current}
            onChange={(e) => onDuration(r.id, e.currentTarget.value)}
          >
            {durationsFor(r).map((d) => (
              <option key={d} value={d}>
                {DURATION_LABELS[d]}
                {d === current ? ' (current)' : ''}
              </option>
            ))}
            {!durationsFor(r).includes(current as RuleDuration) && <option value={current}>{current}</option>}
          </select>
        </span>
      )}
    </span>
  );
}

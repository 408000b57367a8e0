import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { Transport } from '../../transport';
import { toJunctureError } from '../../transport';
import type { RuleView } from '../../transport/contract.gen';
import { RuleDetails } from './RuleDetails';
import { formatTime } from '../../lib/format';

/** How long a revoked rule can be restored (Undo) before it is gone. */
export const REVOKE_UNDO_MS = 10_000;

export type PermissionRulesState = ReturnType<typeof usePermissionRules>;

/**
 * The "Always allow" rules, read when the dialog opens. Revoke waits
 * REVOKE_UNDO_MS with an Undo in the rule's place; `flush` (closing
 * Settings, unmounting) carries out what is waiting.
 */
export function usePermissionRules(transport: Transport, open: boolean, reloadNonce: number) {
  const [rules, setRules] = useState<RuleView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ReadonlySet<string>>(new Set());
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  const load = useCallback(() => {
    transport
      .call('ListRules')
      .then((r) => {
        setRules(r);
        setError(null);
      })
      .catch((e: unknown) => setError(toJunctureError(e).message));
  }, [transport]);

  useEffect(() => {
    if (open) load();
  }, [open, load, reloadNonce]);

  const unmark = (ruleId: string) =>
    setRevoking((r) => {
      const c = new Set(r);
      c.delete(ruleId);
      return c;
    });

  const commit = useCallback(
    (ruleId: string) => {
      const tm = timers.current.get(ruleId);
      if (tm === undefined) return;
      clearTimeout(tm);
      timers.current.delete(ruleId);
      transport
        .call('RevokePermissionRule', ruleId)
        .then(() => {
          unmark(ruleId);
          load();
        })
        .catch((e: unknown) => {
          unmark(ruleId);
          setError(`Could not revoke the rule: ${toJunctureError(e).message}`);
        });
    },
    [transport, load],
  );
  const revoke = (ruleId: string) => {
    setRevoking((r) => new Set(r).add(ruleId));
    timers.current.set(
      ruleId,
      setTimeout(() => commit(ruleId), REVOKE_UNDO_MS),
    );
  };
  const undo = (ruleId: string) => {
    const tm = timers.current.get(ruleId);
    if (tm !== undefined) clearTimeout(tm);
    timers.current.delete(ruleId);
    unmark(ruleId);
  };
  const flush = useCallback(() => {
    for (const id of [...timers.current.keys()]) commit(id);
  }, [commit]);
  useEffect(() => flush, [flush]); // unmount

  return { rules, error, setError, revoking, revoke, undo, flush, load };
}

/** Settings › Rules: every rule with its reach, end and use, a duration to edit, and Revoke (with Undo for a while). */
export function PermissionRules({
  id,
  state,
  onDuration,
  locked = false,
  children,
}: {
  id: string;
  state: PermissionRulesState;
  /** Gives a rule a new duration, counted from now. */
  onDuration: (ruleId: string, duration: string) => void;
  /** A read-only copy of damaged data: the rules are listed, never revoked or given a new duration. */
  locked?: boolean | undefined;
  /** The list's tools (add, export, import), under its heading. */
  children?: ReactNode;
}) {
  const { rules, error, revoking, revoke, undo } = state;
  return (
    <section aria-labelledby={`${id}-perm`}>
      <h3 id={`${id}-perm`}>Rules</h3>
      <p className="set-help">
        What the assistant may do without asking (“Always allow”) and what it may never do (“Never”, which wins over every
        “Always allow”). A rule past its end is removed when the next call is decided; every change is in Activity.
      </p>
      {children}
      {error && <p className="set-banner error">{error}</p>}
      {rules && !rules.length && <p className="set-help">No rules yet.</p>}
      {rules && rules.length > 0 && (
        <ul className="set-rules">
          {rules.map((r) =>
            revoking.has(r.id) ? (
              <li key={r.id} className="is-revoked">
                <span role="status">
                  <span className="set-rule-revoked">Revoked:</span> <s>{r.description}</s>
                </span>
                <button
                  type="button"
                  className="btn small"
                  onClick={() => undo(r.id)}
                  ref={(el) => {
                    if (el && document.activeElement === document.body) el.focus();
                  }}
                >
                  Undo
                </button>
              </li>
            ) : (
              <li key={r.id} className={r.effect === 'deny' ? 'is-deny' : undefined}>
                <span className="set-rule-main">
                  <span>
                    {/* Go's sentence (tools.Describe), the one the ledger shows too. */}
                    <span className={r.effect === 'deny' ? 'set-rule-never' : undefined}>{r.description}</span>
                    <span className="set-rule-date"> · {formatTime(r.createdAt)}</span>
                  </span>
                  <RuleDetails rule={r} onDuration={locked ? undefined : onDuration} />
                </span>
                {!locked && (
                  <button
                    type="button"
                    className="btn small danger"
                    onClick={(e) => {
                      revoke(r.id);
                      // The Undo button takes its place: keep the keyboard there.
                      const li = e.currentTarget.closest('li');
                      requestAnimationFrame(() => li?.querySelector<HTMLButtonElement>('button')?.focus());
                    }}
                  >
                    Revoke
                  </button>
                )}
              </li>
            ),
          )}
        </ul>
      )}
    </section>
  );
}

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ClassifiedInterrupt } from '../state/interrupts';
import { buildSubmission, type Staged, type Submission } from '../state/staging';
import type { RunError } from '../state/types';
import { ApprovalCard } from './ApprovalCard';
import { QuestionCard } from './QuestionCard';
import './InterruptPanel.css';

export interface InterruptPanelProps {
  threadId: string;
  items: readonly ClassifiedInterrupt[];
  runError: RunError | null;
  /** Sends a complete batch (RespondPermission for remembered approvals, then ResolveInterrupts). */
  onSubmit: (s: Submission) => Promise<void>;
}

/**
 * Pending decisions for the open thread, above the composer. Each item is
 * staged on its own; the batch goes out when every item is staged (with one
 * item, answering it sends it). Unbound items are a status line only.
 */
export function InterruptPanel({ threadId, items, runError, onSubmit }: InterruptPanelProps) {
  const actionable = useMemo(() => items.filter((i) => i.kind !== 'unbound'), [items]);
  const unbound = useMemo(() => items.filter((i) => i.kind === 'unbound'), [items]);
  const batchKey = `${threadId}:${actionable.map((i) => i.interrupt.id).join('|')}`;
  const [staged, setStaged] = useState<Record<string, Staged>>({});
  const [busy, setBusy] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const firstCard = useRef<HTMLElement>(null);
  const lastBatch = useRef<string>('');

  // A new batch: clear local drafts and move focus to the first card.
  useEffect(() => {
    if (lastBatch.current === batchKey) return;
    lastBatch.current = batchKey;
    setStaged({});
    setSubmitError(null);
    setBusy(false);
    if (actionable.length) firstCard.current?.focus();
  }, [batchKey, actionable.length]);

  // Go rejected the batch after accepting the call (RUN_ERROR): answer again.
  useEffect(() => {
    if (!runError) return;
    setBusy(false);
    setStaged({});
  }, [runError]);

  const submit = useCallback(
    async (next: Record<string, Staged>) => {
      const sub = buildSubmission(actionable, next);
      if (!sub) return;
      setBusy(true);
      setSubmitError(null);
      try {
        await onSubmit(sub);
      } catch (e) {
        setSubmitError(e instanceof Error ? e.message : String(e));
        setStaged({});
        setBusy(false);
      }
    },
    [actionable, onSubmit],
  );

  const stage = (id: string, s: Staged) => {
    const next = { ...staged, [id]: s };
    setStaged(next);
    void submit(next);
  };

  const undo = (id: string) => {
    const next = { ...staged };
    delete next[id];
    setStaged(next);
  };

  if (!items.length) return null;

  const answered = actionable.filter((i) => staged[i.interrupt.id]).length;
  const generalError =
    submitError ??
    (runError && !Object.keys(runError.itemErrors).length ? `Juncture could not use these answers: ${runError.message}` : null);

  return (
    <section className="interrupts" aria-label="Waiting for your decision">
      {actionable.length > 1 && (
        <div className="interrupts-counter" role="status" aria-live="polite">
          {answered} of {actionable.length} answered
          {answered < actionable.length && <span> · the answers are sent together</span>}
        </div>
      )}
      {actionable.map((item, i) => {
        const id = item.interrupt.id;
        const itemError = runError?.itemErrors[id];
        return (
          <article
            key={id}
            ref={i === 0 ? firstCard : undefined}
            tabIndex={-1}
            className={`icard ${staged[id] ? 'is-staged' : ''}`}
            aria-label={item.kind === 'approval' ? `Approval for ${item.toolName}` : 'Question'}
          >
            {item.kind === 'approval' ? (
              <ApprovalCard
                item={item}
                staged={staged[id]}
                busy={busy}
                error={itemError}
                onStage={(s) => stage(id, s)}
                onUndo={() => undo(id)}
              />
            ) : item.kind === 'question' ? (
              <QuestionCard
                item={item}
                staged={staged[id]}
                busy={busy}
                error={itemError ?? generalError ?? undefined}
                onStage={(s) => stage(id, s)}
                onUndo={() => undo(id)}
              />
            ) : null}
          </article>
        );
      })}
      {generalError && !actionable.some((i) => i.kind === 'question') && (
        <p className="icard-error interrupts-error" role="alert">
          {generalError}
        </p>
      )}
      {busy && (
        <p className="interrupts-sending" role="status">
          Sending your decision…
        </p>
      )}
      {unbound.map((item) => (
        <p key={item.interrupt.id} className="interrupts-unbound" role="status">
          <span className="interrupts-unbound-dot" aria-hidden="true" />
          <span className="interrupts-unbound-text">
            {item.interrupt.message || item.interrupt.reason || 'Waiting on an external step'}
            <span className="interrupts-unbound-why"> — {item.kind === 'unbound' ? item.why : ''}</span>
          </span>
        </p>
      ))}
    </section>
  );
}

import { useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { TransportContext } from '../transport';
import { toolDisplay, useMcpServers } from '../hooks/useMcpServers';
import type { AnswerBatch, AnswerResult } from '../transport/contract';
import type { ClassifiedInterrupt } from '../state/interrupts';
import { answerBatch, type Decision } from '../state/answers';
import type { RunError } from '../state/types';
import { ApprovalCard, type KeptAnswer } from './ApprovalCard';
import { QuestionCard } from './QuestionCard';
import { PromptCard } from './PromptCard';
import { asPromptItem, promptHeading } from '../state/prompts';
import './InterruptPanel.css';

export interface InterruptPanelProps {
  threadId: string;
  items: readonly ClassifiedInterrupt[];
  runError: RunError | null;
  /** Items whose answer Go already keeps (`ThreadView.answered`, earlier Answer results). */
  answered?: ReadonlySet<string> | undefined;
  /** What still needs an answer before the run continues (default: every item not answered). */
  waiting?: readonly string[] | undefined;
  /** Sends one Answer call; rejects when Go refuses it (nothing is lost then). */
  onAnswer: (batch: AnswerBatch) => Promise<AnswerResult>;
}

const NONE: ReadonlySet<string> = new Set();

function without<T>(r: Record<string, T>, id: string): Record<string, T> {
  if (!(id in r)) return r;
  const c = { ...r };
  delete c[id];
  return c;
}

/**
 * Pending decisions for the open thread, above the composer. Each decision
 * is sent at once, in its own Answer call; Go keeps it and continues the
 * run when every item has an answer. A card that has an answer says how
 * many others still wait, and can be changed until then (answering again
 * replaces it). Only the form drafts are local. Unbound items are a status
 * line only.
 */
export function InterruptPanel({ threadId, items, runError, answered = NONE, waiting, onAnswer }: InterruptPanelProps) {
  const catalog = useMcpServers(useContext(TransportContext));
  const actionable = useMemo(() => items.filter((i) => i.kind !== 'unbound'), [items]);
  const unbound = useMemo(() => items.filter((i) => i.kind === 'unbound'), [items]);
  const batchKey = `${threadId}:${actionable.map((i) => i.interrupt.id).join('|')}`;
  /** The last decision Go accepted per item (or the one being sent). */
  const [decisions, setDecisions] = useState<Record<string, Decision>>({});
  const [sending, setSending] = useState<Record<string, true>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** Items reopened with "Change answer". */
  const [changing, setChanging] = useState<Record<string, true>>({});
  const firstCard = useRef<HTMLElement>(null);
  const panel = useRef<HTMLElement>(null);
  const lastBatch = useRef<string>('');
  const batchRef = useRef(batchKey);
  batchRef.current = batchKey;
  const decisionsRef = useRef(decisions);
  decisionsRef.current = decisions;

  // A new batch: clear local state and move focus to the first card.
  useEffect(() => {
    if (lastBatch.current === batchKey) return;
    lastBatch.current = batchKey;
    setDecisions({});
    setSending({});
    setErrors({});
    setChanging({});
    // A prompt card that appeared focused itself; otherwise the first card.
    const active = document.activeElement;
    const promptFocused =
      active instanceof HTMLElement && active.classList.contains('icard') && !!panel.current?.contains(active);
    if (actionable.length && !promptFocused) firstCard.current?.focus();
  }, [batchKey, actionable.length]);

  // Go rejected the batch after accepting the answers (RUN_ERROR): answer again.
  useEffect(() => {
    if (!runError) return;
    setDecisions({});
    setChanging({});
  }, [runError]);

  const decide = useCallback(
    async (item: ClassifiedInterrupt, d: Decision) => {
      const id = item.interrupt.id;
      const key = batchRef.current;
      const before = decisionsRef.current[id];
      setDecisions((x) => ({ ...x, [id]: d }));
      setSending((x) => ({ ...x, [id]: true }));
      setErrors((x) => without(x, id));
      try {
        await onAnswer(answerBatch([{ item, decision: d }]));
        if (batchRef.current !== key) return;
        setChanging((x) => without(x, id));
      } catch (e) {
        if (batchRef.current !== key) return;
        // Refused (invalid-argument) or too late (conflict): the answer Go
        // kept before, if any, still stands.
        setDecisions((x) => {
          if (x[id] !== d) return x;
          if (before) return { ...x, [id]: before };
          return without(x, id);
        });
        setErrors((x) => ({ ...x, [id]: e instanceof Error ? e.message : String(e) }));
      } finally {
        if (batchRef.current === key) setSending((x) => without(x, id));
      }
    },
    [onAnswer],
  );

  if (!items.length) return null;

  const has = (id: string) => !!decisions[id] || answered.has(id);
  const answeredCount = actionable.filter((i) => has(i.interrupt.id)).length;
  const stillWaiting = (waiting ?? actionable.map((i) => i.interrupt.id)).filter((id) => !has(id));
  const anySending = Object.keys(sending).length > 0;
  const generalError =
    runError && !Object.keys(runError.itemErrors).length ? `Juncture could not use these answers: ${runError.message}` : null;

  return (
    <section ref={panel} className="interrupts" aria-label="Waiting for your decision">
      {actionable.length > 1 && (
        <div className="interrupts-counter" role="status" aria-live="polite">
          {answeredCount} of {actionable.length} answered
          {answeredCount < actionable.length && <span> · the run continues once all are answered</span>}
        </div>
      )}
      {actionable.map((item, i) => {
        const id = item.interrupt.id;
        const itemError = errors[id] ?? runError?.itemErrors[id];
        const isChanging = !!changing[id];
        const kept: KeptAnswer | undefined =
          has(id) && !isChanging
            ? { decision: decisions[id], waiting: stillWaiting.filter((x) => x !== id).length, sending: !!sending[id] }
            : undefined;
        const props = {
          answer: kept,
          busy: !!sending[id],
          onDecide: (d: Decision) => void decide(item, d),
          onChange: () => setChanging((x) => ({ ...x, [id]: true })),
          onKeep: isChanging ? () => setChanging((x) => without(x, id)) : undefined,
        };
        // Generic items with `juncture:prompt` metadata are MCP servers' prompts.
        const prompt = asPromptItem(item);
        return (
          <article
            key={id}
            ref={i === 0 ? firstCard : undefined}
            tabIndex={-1}
            className={`icard ${kept ? 'is-staged' : ''}`}
            aria-label={
              item.kind === 'approval' ? `Approval for ${toolDisplay(catalog, item.toolName).title}` : prompt ? promptHeading(prompt.prompt) : 'Question'
            }
          >
            {item.kind === 'approval' ? (
              <ApprovalCard item={item} error={itemError} {...props} />
            ) : prompt ? (
              <PromptCard item={prompt} error={itemError ?? generalError ?? undefined} {...props} />
            ) : item.kind === 'question' ? (
              <QuestionCard item={item} error={itemError ?? generalError ?? undefined} {...props} />
            ) : null}
          </article>
        );
      })}
      {generalError && !actionable.some((i) => i.kind === 'question') && (
        <p className="icard-error interrupts-error" role="alert">
          {generalError}
        </p>
      )}
      {anySending && (
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

import { memo, useCallback, useContext, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { TransportContext } from '../../transport';
import { toolDisplay, useMcpServers } from '../../hooks/useMcpServers';
import type { AnswerBatch, AnswerResult } from '../../transport/contract';
import type { ClassifiedInterrupt } from '../../state/interrupts';
import { answerBatch, type Decision } from '../../state/answers';
import type { RunError } from '../../state/types';
import { ApprovalCard } from './ApprovalCard';
import { forgetDrafts } from './drafts';
import type { KeptAnswer } from './cardKeys';
import { QuestionCard } from './QuestionCard';
import { PromptCard } from './PromptCard';
import { asPromptItem, promptHeading } from '../../state/prompts';
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
// Memoized: the chat view renders once per frame while an answer streams,
// and the decisions it is given stay the same arrays meanwhile (state/derive).
export const InterruptPanel = memo(function InterruptPanel({ threadId, items, runError, answered = NONE, waiting, onAnswer }: InterruptPanelProps) {
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
  const cards = useRef(new Map<string, HTMLElement>());
  const panel = useRef<HTMLElement>(null);
  /** Where focus goes once the panel has rendered: an item's card, or the composer. */
  const focusNext = useRef<{ to: 'card' | 'composer' | 'refused'; id?: string } | null>(null);
  const answeredRef = useRef(answered);
  answeredRef.current = answered;
  const actionableRef = useRef(actionable);
  actionableRef.current = actionable;
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
    // A card that took focus itself (a prompt card as it appears, an editor
    // back with Go's refusal) keeps it; otherwise the first card.
    const active = document.activeElement;
    const inside = active instanceof HTMLElement && !!panel.current?.contains(active);
    const first = actionable[0];
    if (first && !inside) cards.current.get(first.interrupt.id)?.focus();
  }, [batchKey, actionable]);

  // Focus moves to the next thing to do (see decide), after the render that
  // replaced the controls the person used.
  useEffect(() => {
    const f = focusNext.current;
    if (!f) return;
    focusNext.current = null;
    if (f.to === 'composer') {
      document.querySelector<HTMLElement>('.composer textarea')?.focus();
      return;
    }
    const card = f.id ? cards.current.get(f.id) : undefined;
    if (!card) return;
    if (f.to === 'card') {
      card.focus();
      return;
    }
    // Refused: back to the card, unless the card already took focus (its
    // editor) or the person is working in another card.
    const active = document.activeElement;
    if (active && card.contains(active)) return;
    if (active instanceof HTMLElement && active.closest('.icard')) return;
    (card.querySelector<HTMLElement>('[aria-invalid="true"]') ?? card).focus();
  });

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
      // The controls used are about to go: focus moves to the next card that
      // still needs an answer (after this one, then from the top), or to the
      // composer after the last — unless the person already works elsewhere.
      const card = cards.current.get(id);
      const active = document.activeElement;
      if (!active || active === document.body || card?.contains(active)) {
        const list = actionableRef.current;
        const at = list.findIndex((i) => i.interrupt.id === id);
        const open = (x: ClassifiedInterrupt) =>
          x.interrupt.id !== id && !decisionsRef.current[x.interrupt.id] && !answeredRef.current.has(x.interrupt.id);
        const next = [...list.slice(at + 1), ...list.slice(0, Math.max(at, 0))].find(open);
        focusNext.current = next ? { to: 'card', id: next.interrupt.id } : { to: 'composer' };
      }
      setDecisions((x) => ({ ...x, [id]: d }));
      setSending((x) => ({ ...x, [id]: true }));
      setErrors((x) => without(x, id));
      try {
        const r = await onAnswer(answerBatch([{ item, decision: d }]));
        // The batch is complete and the run continues: what was typed on its cards is done with.
        if (r.continued) forgetDrafts(actionableRef.current.map((i) => i.interrupt.id));
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
        focusNext.current = { to: 'refused', id };
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
  // Esc inside a card never stops the run (App's window handler skips a
  // handled Esc): a sub-form closes itself (ApprovalCard, PromptCard); from a
  // field of a form, focus returns to the card, with what was typed kept.
  const onCardKey = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    e.preventDefault();
    if (e.target !== e.currentTarget) e.currentTarget.focus();
  };

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
      {actionable.map((item) => {
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
          onChange: () => {
            // "Change answer" goes away as the choices come back: focus the card.
            focusNext.current = { to: 'card', id };
            setChanging((x) => ({ ...x, [id]: true }));
          },
          onKeep: isChanging ? () => setChanging((x) => without(x, id)) : undefined,
        };
        // Generic items with `juncture:prompt` metadata are MCP servers' prompts.
        const prompt = asPromptItem(item);
        return (
          <article
            key={id}
            ref={(el) => {
              if (el) cards.current.set(id, el);
              else cards.current.delete(id);
            }}
            tabIndex={-1}
            onKeyDown={onCardKey}
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
});

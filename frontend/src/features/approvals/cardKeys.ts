// What the decision cards (approval, prompt) share.
import type { KeyboardEvent } from 'react';
import type { Decision } from '../../state/answers';

/** Esc in a sub-form closes it (what was typed stays) and never reaches the window's "Esc stops the run". */
export function closeOnEscape(close: () => void) {
  return (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    e.preventDefault();
    close();
  };
}

/** A kept answer, as the card shows it. */
export interface KeptAnswer {
  /** What the person decided here; unknown after a reload (Go only says it has one). */
  decision?: Decision | undefined;
  /** How many other items still need an answer before the run continues. */
  waiting: number;
  /** The Answer call is in flight. */
  sending: boolean;
}

/** A decision card's props, for its item I. */
export interface DecisionCardProps<I> {
  item: I;
  /** The kept answer (shown instead of the choices), or undefined while the card asks. */
  answer: KeptAnswer | undefined;
  /** Sends the decision at once (one Answer call). */
  onDecide: (d: Decision) => void;
  /** Reopens the choices: a new decision replaces the kept one until the batch completes. */
  onChange: () => void;
  /** While changing: keep the answer already sent. */
  onKeep?: (() => void) | undefined;
  error?: string | undefined;
  busy: boolean;
}

import type { ToolState } from '../../transport/contract';
import './ToolStatusChip.css';

export type ChipState = ToolState | 'preparing' | 'requested' | 'skipped';

/**
 * The result Go records for an approval the person passed over by replying
 * in the chat (agent.ResultRepliedInChat, pinned by TestRepliedInChatResultText).
 */
export const REPLIED_IN_CHAT = 'Not run: the person replied in chat instead of answering the approval request.';

/** An "interrupted" call that was in fact skipped: the person replied in the chat instead. */
export function skippedByReply(state: string | undefined, result: string | undefined): boolean {
  return state === 'interrupted' && result === REPLIED_IN_CHAT;
}

interface ChipLabel {
  text: string;
  tone: string;
  title?: string;
}

// Keyed by every generated ToolState (contract.gen.ts): a state added in Go
// fails the type check until it has a label here.
const LABELS: Record<ChipState, ChipLabel> = {
  preparing: { text: 'Preparing', tone: 'muted', title: 'The model is still writing this call' },
  requested: { text: 'Not started yet', tone: 'muted', title: 'The model asked for this; it has not started' },
  'awaiting-approval': { text: 'Needs your approval', tone: 'warn', title: 'It runs only once you allow it' },
  'awaiting-answer': { text: 'Needs your answer', tone: 'warn', title: 'A question waits for your answer' },
  running: { text: 'Running', tone: 'accent' },
  done: { text: 'Done', tone: 'ok' },
  failed: { text: 'Failed', tone: 'danger' },
  denied: { text: 'Denied', tone: 'danger' },
  interrupted: { text: 'Interrupted', tone: 'muted', title: 'Stopped before it ran' },
  skipped: { text: 'Skipped', tone: 'muted', title: 'Not run: you replied in the chat instead of answering' },
  'interrupted-mid-run': {
    text: 'Interrupted mid-run',
    tone: 'warn',
    title: 'Stopped while running: side effects unknown',
  },
  'pending-client': {
    text: 'Ready to run here',
    tone: 'warn',
    title: 'Allowed; it runs in this window (it opens a link or copies text here), not in the background',
  },
};

/** The chip's text and tone for a state (undefined for a state this build does not know). */
export function chipLabel(state: string): ChipLabel | undefined {
  return Object.prototype.hasOwnProperty.call(LABELS, state) ? LABELS[state as ChipState] : undefined;
}

export function ToolStatusChip({ state }: { state: ChipState }) {
  const l = LABELS[state];
  return (
    <span className={`tool-chip tone-${l.tone}`} title={l.title}>
      {(state === 'running' || state === 'preparing') && <span className="tool-chip-spin" aria-hidden="true" />}
      {l.text}
    </span>
  );
}

import type { ToolState } from '../transport/contract';
import './ToolStatusChip.css';

export type ChipState = ToolState | 'preparing' | 'requested';

interface ChipLabel {
  text: string;
  tone: string;
  title?: string;
}

// Keyed by every generated ToolState (contract.gen.ts): a state added in Go
// fails the type check until it has a label here.
const LABELS: Record<ChipState, ChipLabel> = {
  preparing: { text: 'Preparing', tone: 'muted' },
  requested: { text: 'Requested', tone: 'muted' },
  'awaiting-approval': { text: 'Awaiting approval', tone: 'warn' },
  'awaiting-answer': { text: 'Awaiting your answer', tone: 'warn', title: 'A question waits for your answer' },
  running: { text: 'Running', tone: 'accent' },
  done: { text: 'Done', tone: 'ok' },
  failed: { text: 'Failed', tone: 'danger' },
  denied: { text: 'Denied', tone: 'danger' },
  interrupted: { text: 'Interrupted', tone: 'muted', title: 'Stopped before it ran' },
  'interrupted-mid-run': {
    text: 'Interrupted mid-run',
    tone: 'warn',
    title: 'Stopped while running: side effects unknown',
  },
  'pending-client': { text: 'Waiting for this window', tone: 'warn' },
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

import type { ToolState } from '../transport/contract';
import './ToolStatusChip.css';

const LABELS: Record<ToolState | 'preparing' | 'requested', { text: string; tone: string; title?: string }> = {
  preparing: { text: 'Preparing', tone: 'muted' },
  requested: { text: 'Requested', tone: 'muted' },
  'awaiting-approval': { text: 'Awaiting approval', tone: 'warn' },
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

export function ToolStatusChip({ state }: { state: ToolState | 'preparing' | 'requested' }) {
  const l = LABELS[state];
  return (
    <span className={`tool-chip tone-${l.tone}`} title={l.title}>
      {(state === 'running' || state === 'preparing') && <span className="tool-chip-spin" aria-hidden="true" />}
      {l.text}
    </span>
  );
}

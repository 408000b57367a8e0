import type { ReactNode } from 'react';
import { decisionLabel } from '../../state/answers';
import type { KeptAnswer } from './cardKeys';

/** "Approved — waiting for 2 more" (or "Answered — …" after a reload) with a way to change it. */
export function AnsweredRow({
  answer,
  note,
  onChange,
  busy,
}: {
  answer: KeptAnswer;
  note?: ReactNode;
  onChange: () => void;
  busy: boolean;
}) {
  const d = answer.decision;
  return (
    <div className="icard-staged" role="status">
      <span className={`icard-staged-label ${d?.kind ?? 'answer'}`}>{d ? decisionLabel(d) : 'Answered'}</span>
      {note}
      {answer.sending ? (
        <span className="icard-waiting">Sending…</span>
      ) : answer.waiting > 0 ? (
        <span className="icard-waiting"> — waiting for {answer.waiting} more</span>
      ) : null}
      <button type="button" className="btn small subtle" onClick={onChange} disabled={busy || answer.sending}>
        Change answer
      </button>
    </div>
  );
}

import { useId, useRef } from 'react';
import type { JsonValue } from '../transport/json';
import type { ClassifiedInterrupt } from '../state/interrupts';
import type { Staged } from '../state/staging';
import { SchemaForm } from './SchemaForm';
import { stagedLabel } from './ApprovalCard';
import type { Schema } from '../lib/schema';

type Question = Extract<ClassifiedInterrupt, { kind: 'question' }>;

const FREE_TEXT: Schema = { type: 'string', title: 'Your answer', format: 'multiline' };

function hasFields(s: Schema | undefined): s is Schema {
  return !!s && Object.keys(s).some((k) => k !== '$schema' && k !== 'title' && k !== 'description');
}

function summarise(s: Staged): string {
  if (s.kind !== 'answer') return '';
  const t = JSON.stringify(s.payload);
  return t.length > 120 ? `${t.slice(0, 120)}…` : t;
}

/** A typed question from the agent: a form generated from its response schema. */
export function QuestionCard({
  item,
  staged,
  onStage,
  onUndo,
  error,
  busy,
}: {
  item: Question;
  staged: Staged | undefined;
  onStage: (s: Staged) => void;
  onUndo: () => void;
  error?: string | undefined;
  busy: boolean;
}) {
  const id = useId();
  // The last answer, so Undo reopens the form with it filled in.
  const last = useRef<JsonValue | undefined>(undefined);
  const schema = hasFields(item.schema) ? item.schema : FREE_TEXT;
  const title =
    typeof schema.title === 'string' && schema.title && schema !== FREE_TEXT ? schema.title : 'Juncture has a question';
  return (
    <>
      <header className="icard-head">
        <span className="icard-kind">Question</span>
        <h3 id={`${id}-title`} className="icard-title">
          {title}
        </h3>
      </header>
      {item.interrupt.message && <p className="icard-message">{item.interrupt.message}</p>}
      {staged ? (
        <div className="icard-staged" role="status">
          <span className={`icard-staged-label ${staged.kind}`}>{stagedLabel(staged)}</span>
          {staged.kind === 'answer' && <span className="icard-staged-note mono">{summarise(staged)}</span>}
          <button type="button" className="btn small subtle" onClick={onUndo} disabled={busy}>
            Undo
          </button>
        </div>
      ) : (
        <SchemaForm
          schema={schema}
          submitLabel="Submit answer"
          disabled={busy}
          serverError={error ?? null}
          initial={last.current}
          onSubmit={(payload) => {
            last.current = payload;
            onStage({ kind: 'answer', payload });
          }}
          onCancel={() => onStage({ kind: 'cancel' })}
        />
      )}
      {staged && error && (
        <p className="icard-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

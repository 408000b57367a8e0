import { useId } from 'react';
import type { ClassifiedInterrupt } from '../../state/interrupts';
import type { Decision } from '../../state/answers';
import { SchemaForm } from './SchemaForm';
import { AnsweredRow } from './AnsweredRow';
import { useDraft } from './drafts';
import type { DecisionCardProps } from './cardKeys';
import type { Schema } from '../../lib/schema';

type Question = Extract<ClassifiedInterrupt, { kind: 'question' }>;

const FREE_TEXT: Schema = { type: 'string', title: 'Your answer', format: 'multiline' };

function hasFields(s: Schema | undefined): s is Schema {
  return !!s && Object.keys(s).some((k) => k !== '$schema' && k !== 'title' && k !== 'description');
}

function summarise(d: Decision | undefined): string {
  if (d?.kind !== 'answer') return '';
  const t = JSON.stringify(d.payload);
  return t.length > 120 ? `${t.slice(0, 120)}…` : t;
}

/** A typed question from the agent: a form generated from its response schema. */
export function QuestionCard({
  item,
  answer,
  onDecide,
  onChange,
  onKeep,
  error,
  busy,
}: DecisionCardProps<Question>) {
  const id = useId();
  // What is typed in the form (and so the last answer: "Change answer"
  // reopens the form with it filled in), kept while the card comes and goes.
  const [draft, setDraft] = useDraft<unknown>(item.interrupt.id, 'form', undefined);
  const schema = hasFields(item.schema) ? item.schema : FREE_TEXT;
  const schemaTitle = typeof schema.title === 'string' && schema !== FREE_TEXT ? schema.title.trim() : '';
  const message = item.interrupt.message?.trim() ?? '';
  // The question itself is the heading; the form's title (if any) a line under it.
  const heading = message || schemaTitle || 'Juncture has a question';
  const subtitle = message && schemaTitle && schemaTitle !== message ? schemaTitle : '';
  const summary = summarise(answer?.decision);
  return (
    <>
      <header className="icard-head">
        <span className="icard-kind">Question</span>
        <h3 id={`${id}-title`} className="icard-title icard-question">
          {heading}
        </h3>
        {subtitle && <span className="icard-source">{subtitle}</span>}
      </header>
      {answer ? (
        <AnsweredRow
          answer={answer}
          busy={busy}
          onChange={onChange}
          note={summary ? <span className="icard-staged-note mono">{summary}</span> : undefined}
        />
      ) : (
        <>
          <SchemaForm
            schema={schema}
            submitLabel="Submit answer"
            disabled={busy}
            serverError={error ?? null}
            initial={draft}
            onValueChange={setDraft}
            onSubmit={(payload) => onDecide({ kind: 'answer', payload })}
            onCancel={() => onDecide({ kind: 'cancel' })}
            cancelLabel="Skip question"
          />
          {onKeep && (
            <div className="icard-actions">
              <button type="button" className="btn small subtle" disabled={busy} onClick={onKeep}>
                Keep my answer
              </button>
            </div>
          )}
        </>
      )}
      {answer && error && (
        <p className="icard-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

import { useEffect, useId, useRef, useState } from 'react';
import type { Decision } from '../../state/answers';
import { promptHeading, type PromptItem } from '../../state/prompts';
import type { Schema } from '../../lib/schema';
import { SchemaForm } from './SchemaForm';
import { AnsweredRow } from './AnsweredRow';
import { useDraft } from './drafts';
import { LinkConfirm, hostOf, openableUrl } from '../tools/ToolParts';
import { closeOnEscape, type DecisionCardProps } from './cardKeys';
import './PromptCard.css';
import { focusOnMount } from '../../lib/focusOnMount';

// A running MCP tool's server asks the person something (docs/contract.md
// "MCP servers"): a form (question), a page to open (url) or permission to
// ask the model (sampling). Each answer is one Answer item:
// - question: Submit → resolved with the form's value; Decline → cancelled
//   with metadata {action: "decline"}; Dismiss → cancelled.
// - url: Open (after "Open example.com?") → resolved {}; Decline.
// - sampling: Allow → resolved {approved: true}; Deny → {approved: false, reason?}.

export type PromptCardProps = DecisionCardProps<PromptItem>;

/** Focus back on the button that opened a sub-step, once it is back. */
function useFocusBack(open: boolean) {
  const button = useRef<HTMLButtonElement>(null);
  const was = useRef(open);
  useEffect(() => {
    if (was.current && !open) button.current?.focus();
    was.current = open;
  }, [open]);
  return button;
}

const EMPTY_FORM: Schema = { type: 'object', properties: {}, additionalProperties: false };

function summarise(item: PromptItem, d: Decision | undefined): string {
  if (d?.kind !== 'answer') return '';
  if (item.prompt.kind === 'url') return 'Opened';
  if (item.prompt.kind === 'sampling') {
    const p = d.payload;
    if (p && typeof p === 'object' && !Array.isArray(p)) {
      if (p.approved === true) return 'Allowed';
      const reason = typeof p.reason === 'string' && p.reason ? `: “${p.reason}”` : '';
      return `Denied${reason}`;
    }
    return '';
  }
  const t = JSON.stringify(d.payload);
  return t.length > 120 ? `${t.slice(0, 120)}…` : t;
}

function QuestionBody({ item, busy, error, onDecide }: Pick<PromptCardProps, 'item' | 'busy' | 'error' | 'onDecide'>) {
  // What is typed, kept while the card comes and goes (and for "Change answer").
  const [draft, setDraft] = useDraft<unknown>(item.interrupt.id, 'form', undefined);
  const schema = item.schema ?? EMPTY_FORM;
  return (
    <>
      <SchemaForm
        schema={schema}
        submitLabel="Submit"
        disabled={busy}
        serverError={error ?? null}
        initial={draft}
        onValueChange={setDraft}
        onSubmit={(payload) => onDecide({ kind: 'answer', payload })}
      />
      <div className="icard-actions prompt-secondary">
        <button type="button" className="btn" disabled={busy} onClick={() => onDecide({ kind: 'decline' })}>
          Decline
        </button>
        <button type="button" className="btn subtle" disabled={busy} onClick={() => onDecide({ kind: 'cancel' })}>
          Dismiss
        </button>
      </div>
    </>
  );
}

function UrlBody({ item, busy, onDecide }: Pick<PromptCardProps, 'item' | 'busy' | 'onDecide'>) {
  const [confirming, setConfirming] = useState(false);
  const openBtn = useFocusBack(confirming);
  const url = item.prompt.url;
  const openable = openableUrl(url);
  return (
    <>
      <div className="prompt-url">
        <span className="prompt-url-host">{hostOf(openable ?? url)}</span>
        <span className="prompt-url-full mono">{url}</span>
      </div>
      {confirming ? (
        <div onKeyDown={closeOnEscape(() => setConfirming(false))}>
          <LinkConfirm
            url={url}
            onOpened={() => {
              setConfirming(false);
              onDecide({ kind: 'answer', payload: {} });
            }}
            onCancel={() => setConfirming(false)}
          />
        </div>
      ) : (
        <div className="icard-actions">
          <button
            ref={openBtn}
            type="button"
            className="btn primary"
            disabled={busy || !openable}
            onClick={() => setConfirming(true)}
          >
            Open
          </button>
          <button type="button" className="btn" disabled={busy} onClick={() => onDecide({ kind: 'decline' })}>
            Decline
          </button>
        </div>
      )}
      {!openable && <p className="icard-note">Juncture opens only http and https links; decline this request.</p>}
    </>
  );
}

function roleLabel(role: string): string {
  return role === 'assistant' ? 'Assistant' : role === 'user' ? 'User' : role;
}

function SamplingBody({ item, busy, onDecide }: Pick<PromptCardProps, 'item' | 'busy' | 'onDecide'>) {
  const id = useId();
  const [denying, setDenying] = useState(false);
  const denyBtn = useFocusBack(denying);
  const [reason, setReason] = useState('');
  const p = item.prompt;
  const deny = () => {
    const r = reason.trim();
    onDecide({ kind: 'answer', payload: r ? { approved: false, reason: r } : { approved: false } });
    setDenying(false);
  };
  return (
    <>
      <div className="prompt-sampling">
        {p.systemPrompt && (
          <div className="prompt-system">
            <div className="prompt-label">System prompt</div>
            <pre className="prompt-text">{p.systemPrompt}</pre>
          </div>
        )}
        {p.messages.length > 0 && (
          <div>
            <div className="prompt-label">It would send</div>
            <ol className="prompt-messages" aria-label="Messages it would send">
              {p.messages.map((m, i) => (
                <li key={i}>
                  <span className="prompt-role">{roleLabel(m.role)}</span>
                  <pre className="prompt-text">{m.text}</pre>
                </li>
              ))}
            </ol>
          </div>
        )}
        <p className="icard-note">
          {p.maxTokens ? `The model may answer with up to ${p.maxTokens} tokens.` : 'The model answers with its usual limit.'}
          {p.model ? ` The server prefers ${p.model}; Juncture uses your configured model.` : ''}
        </p>
      </div>
      {denying ? (
        <div className="icard-sub" onKeyDown={closeOnEscape(() => setDenying(false))}>
          <label htmlFor={`${id}-reason`} className="icard-sub-label">
            Reason (optional) — the server will see it
          </label>
          <input
            id={`${id}-reason`}
            type="text"
            value={reason}
            ref={focusOnMount}
            onChange={(e) => setReason(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                if (!busy) deny();
              }
            }}
          />
          <div className="icard-actions">
            <button type="button" className="btn danger" disabled={busy} onClick={deny}>
              Deny
            </button>
            <button type="button" className="btn subtle" onClick={() => setDenying(false)}>
              Back
            </button>
          </div>
        </div>
      ) : (
        <div className="icard-actions">
          <button
            type="button"
            className="btn primary"
            disabled={busy}
            onClick={() => onDecide({ kind: 'answer', payload: { approved: true } })}
          >
            Allow
          </button>
          <button ref={denyBtn} type="button" className="btn danger" disabled={busy} onClick={() => setDenying(true)}>
            Deny…
          </button>
        </div>
      )}
    </>
  );
}

const KIND_LABEL = { question: 'Question', url: 'Open a page', sampling: 'Model request' } as const;

/** A prompt from an MCP server, bound to the running tool call. */
export function PromptCard({ item, answer, onDecide, onChange, onKeep, error, busy }: PromptCardProps) {
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const p = item.prompt;

  // The card takes focus when it appears (unless the person is already
  // working in another card of the panel).
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const card = el.closest<HTMLElement>('.icard') ?? el;
    const active = document.activeElement;
    if (active instanceof HTMLElement && active !== document.body && !card.contains(active) && active.closest('.icard')) return;
    card.focus();
  }, []);

  const summary = summarise(item, answer?.decision);
  const heading = promptHeading(p);
  // A message that only says the heading again ("X wants to ask the model") is not shown twice.
  const sameWords = (a: string) => a.trim().replace(/[.:…]+$/, '').toLowerCase();
  const message = p.message && sameWords(p.message) !== sameWords(heading) ? p.message : '';
  return (
    <div className="prompt" ref={root} tabIndex={-1}>
      <header className="icard-head">
        <span className="icard-kind">{KIND_LABEL[p.kind]}</span>
        <h3 id={`${id}-title`} className="icard-title">
          {heading}
        </h3>
      </header>
      {message && <p className="prompt-message">{message}</p>}
      {answer ? (
        <AnsweredRow
          answer={answer}
          busy={busy}
          onChange={onChange}
          note={summary ? <span className="icard-staged-note">{summary}</span> : undefined}
        />
      ) : (
        <>
          {p.kind === 'question' ? (
            <QuestionBody item={item} busy={busy} error={error} onDecide={onDecide} />
          ) : p.kind === 'url' ? (
            <UrlBody item={item} busy={busy} onDecide={onDecide} />
          ) : (
            <SamplingBody item={item} busy={busy} onDecide={onDecide} />
          )}
          {onKeep && (
            <div className="icard-actions">
              <button type="button" className="btn small subtle" disabled={busy} onClick={onKeep}>
                Keep my answer
              </button>
            </div>
          )}
        </>
      )}
      {error && (answer || p.kind !== 'question') && (
        <p className="icard-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

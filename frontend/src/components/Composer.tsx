import { useContext, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { RunStatus } from '../state/derive';
import { DraftKeyContext, NEW_CHAT_DRAFT, drafts } from '../lib/drafts';
import { IconClose, IconSend, IconStop } from './icons';
import './Composer.css';

export interface ComposerProps {
  status: RunStatus;
  configured: boolean;
  problem?: string | undefined;
  onOpenSettings: () => void;
  queued: readonly string[];
  onRemoveQueued: (index: number) => Promise<void>;
  onSend: (text: string) => Promise<void>;
  onStop: () => Promise<void>;
  /** Shown while decisions are pending: sending a message answers them "not run" (Go's rule). */
  pendingNote?: string | null;
  focusNonce?: number;
}

export function Composer({
  status,
  configured,
  problem,
  onOpenSettings,
  queued,
  onRemoveQueued,
  onSend,
  onStop,
  pendingNote,
  focusNonce,
}: ComposerProps) {
  // The draft of the open conversation (lib/drafts.ts): each chat, and the
  // new-chat screen, keeps its own unsent text, also across a reload.
  const draftKey = useContext(DraftKeyContext);
  const [text, setText] = useState(() => (draftKey === null ? '' : drafts.get(draftKey)));
  const [shownKey, setShownKey] = useState(draftKey);
  const [error, setError] = useState<string | null>(null);
  if (shownKey !== draftKey) {
    // Another conversation: show its draft (the previous one is already stored).
    setShownKey(draftKey);
    setText(draftKey === null ? '' : drafts.get(draftKey));
    setError(null);
  }
  const keyRef = useRef(draftKey);
  keyRef.current = draftKey;
  useEffect(() => {
    if (draftKey !== null) drafts.set(draftKey, text);
  }, [draftKey, text]);
  const [sending, setSending] = useState(false);
  const [stopping, setStopping] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const hintId = useId();
  const busy = status === 'running' || status === 'awaiting-decisions';
  const disabled = !configured;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, Math.round(window.innerHeight * 0.4))}px`;
  }, [text]);

  useEffect(() => {
    if (focusNonce) ref.current?.focus();
  }, [focusNonce]);

  useEffect(() => {
    if (!busy) setStopping(false);
  }, [busy]);

  const send = async () => {
    const t = text.trim();
    if (!t || disabled || sending) return;
    setSending(true);
    setError(null);
    setText('');
    const from = draftKey;
    if (from !== null) drafts.clear(from);
    try {
      await onSend(t);
    } catch (e) {
      // Not sent: the text comes back, in the chat it was written in (a
      // new chat's text follows it into the conversation just created).
      const now = keyRef.current;
      if (now === from || from === NEW_CHAT_DRAFT) {
        setText(t);
        setError(e instanceof Error ? e.message : String(e));
      } else if (from !== null) {
        drafts.set(from, t);
      }
    } finally {
      setSending(false);
      ref.current?.focus();
    }
  };

  const stop = async () => {
    setStopping(true);
    setError(null);
    try {
      await onStop();
    } catch (e) {
      setStopping(false);
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    } else if (e.key === 'Escape') {
      if (busy) {
        e.preventDefault();
        e.stopPropagation();
        void stop();
      }
    }
  };

  const placeholder = !configured
    ? 'Set up a model endpoint to start'
    : pendingNote
      ? 'Or reply here to skip the request…'
      : busy
      ? 'Type to queue a follow-up…'
      : 'Message Juncture';

  return (
    <section className="composer" aria-label="Message composer">
      {!configured && (
        <div className="composer-setup" role="status">
          <div>
            <strong>Juncture is not connected to a model yet.</strong>{' '}
            {problem || 'Choose an endpoint (OpenAI, Ollama, LM Studio…) and a model in Settings.'}
          </div>
          <button type="button" className="btn primary small" onClick={onOpenSettings}>
            Open settings
          </button>
        </div>
      )}
      {queued.length > 0 && (
        <ul className="composer-queue" aria-label="Queued messages">
          {queued.map((q, i) => (
            <li key={`${i}-${q}`} className="queue-chip">
              <span className="queue-label">Queued</span>
              <span className="queue-text" title={q}>
                {q}
              </span>
              <button
                type="button"
                className="queue-remove"
                aria-label={`Remove queued message: ${q.slice(0, 40)}`}
                onClick={() => {
                  void onRemoveQueued(i).catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
                }}
              >
                <IconClose />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className={`composer-box${disabled ? ' is-disabled' : ''}`}>
        <label className="visually-hidden" htmlFor={`${hintId}-input`}>
          Message
        </label>
        <textarea
          id={`${hintId}-input`}
          ref={ref}
          rows={1}
          value={text}
          placeholder={placeholder}
          disabled={disabled}
          aria-describedby={hintId}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
        />
        {busy ? (
          <button
            type="button"
            className="composer-btn stop"
            onClick={() => void stop()}
            disabled={stopping}
            aria-label={stopping ? 'Stopping' : 'Stop (Esc)'}
            title="Stop (Esc)"
          >
            <IconStop />
          </button>
        ) : (
          <button
            type="button"
            className="composer-btn send"
            onClick={() => void send()}
            disabled={disabled || sending || !text.trim()}
            aria-label="Send (Enter)"
            title="Send (Enter)"
          >
            <IconSend />
          </button>
        )}
      </div>
      <div className="composer-hint" id={hintId}>
        {error ? (
          <span className="composer-error" role="alert">
            {error}
          </span>
        ) : pendingNote ? (
          pendingNote
        ) : busy ? (
          'Enter queues a follow-up · Esc stops'
        ) : (
          'Enter to send · Shift+Enter for a new line'
        )}
      </div>
    </section>
  );
}

import { memo, useContext, useEffect, useId, useLayoutEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import type { RunStatus } from '../../state/derive';
import { DraftKeyContext, NEW_CHAT_DRAFT, drafts } from '../../lib/drafts';
import { LIMITS_TEXT, problemsOf, readFile, type PendingFile } from '../../lib/attachments';
import { IconClose, IconPaperclip, IconSend, IconStop } from '../../ui/icons';
import { AttachmentChips } from '../attachments/AttachmentChips';
import { usePdfCheck } from '../attachments/usePdfCheck';
import { ImagesAsk } from './ImagesAsk';
import { useLayoutBoundary } from '../../hooks/useLayoutBoundary';
import { useMcpComposer } from '../mcp-offers/useMcpComposer';
import './Composer.css';

export interface ComposerProps {
  status: RunStatus;
  configured: boolean;
  problem?: string | undefined;
  onOpenSettings: () => void;
  queued: readonly string[];
  onRemoveQueued: (index: number) => Promise<void>;
  /** Sends the text and the attached files (none: called with the text only). */
  onSend: (text: string, files?: readonly PendingFile[]) => Promise<void>;
  /** The current model takes images (Settings); otherwise attached images are refused before sending. */
  acceptsImages?: boolean;
  /** Images attached while refused: turn "The model accepts images" on for the named model (ImagesAsk). */
  imagesAsk?: { model: string; onAllow: () => Promise<void> };
  onStop: () => Promise<void>;
  /** Shown while decisions are pending: sending a message answers them "not run" (Go's rule). */
  pendingNote?: string | null;
  focusNonce?: number;
  /** The path of a read-only copy of damaged data being browsed: nothing can be sent. */
  readOnlyCopy?: string | undefined;
}

function ComposerImpl({
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
  readOnlyCopy,
  acceptsImages = false,
  imagesAsk,
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
  // Attached files (paste, drop, the paperclip): checked before sending.
  const [files, setFiles] = useState<PendingFile[]>([]);
  const [dropping, setDropping] = useState(false);
  usePdfCheck(files, setFiles);
  const problems = problemsOf(files, acceptsImages);
  const refused = new Set(files.filter((f) => problemsOf([f], acceptsImages).length > 0).map((f) => f.key));
  const pickRef = useRef<HTMLInputElement>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const innerRef = useRef<HTMLDivElement>(null);
  const ref = useRef<HTMLTextAreaElement>(null);
  const hintId = useId();
  const busy = status === 'running' || status === 'awaiting-decisions';
  const disabled = !configured || !!readOnlyCopy;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, Math.round(window.innerHeight * 0.4))}px`;
  }, [text]);

  // The composer's changes (Stop ↔ Send, a key typed, the hint) are laid
  // out inside it, not in the whole chat column (hooks/useLayoutBoundary).
  // After the textarea's own height is set: the boundary's follows it.
  useLayoutBoundary(sectionRef, innerRef);

  // In the commit, not after the paint: at start-up a key pressed between
  // the first paint and a passive effect landed on the page and was lost.
  useLayoutEffect(() => {
    if (focusNonce) ref.current?.focus();
  }, [focusNonce]);

  useEffect(() => {
    if (!busy) setStopping(false);
  }, [busy]);

  const addFiles = async (list: readonly File[]) => {
    if (!list.length || disabled) return;
    try {
      const read = await Promise.all(list.map(readFile));
      setFiles((fs) => [...fs, ...read]);
      setError(null);
    } catch (e) {
      setError(`The file could not be read: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  // MCP prompts ("/") and resources ("Add from a server"): a server's
  // files join the attached ones and are checked the same way.
  const mcp = useMcpComposer({ text, setText, addFiles: (fs) => setFiles((cur) => [...cur, ...fs]), setNote: setError, disabled });
  const addFilesRef = useRef(addFiles);
  addFilesRef.current = addFiles;

  // Files dropped anywhere on the chat (the composer's section and the
  // conversation above it) are attached.
  useEffect(() => {
    const target = sectionRef.current?.closest('main') ?? sectionRef.current;
    if (!target) return;
    const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDropping(true);
    };
    const leave = (e: DragEvent) => {
      if (e.target === target || !target.contains(e.relatedTarget as Node | null)) setDropping(false);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDropping(false);
      void addFilesRef.current(Array.from(e.dataTransfer?.files ?? []));
    };
    target.addEventListener('dragover', over as EventListener);
    target.addEventListener('dragleave', leave as EventListener);
    target.addEventListener('drop', drop as EventListener);
    return () => {
      target.removeEventListener('dragover', over as EventListener);
      target.removeEventListener('dragleave', leave as EventListener);
      target.removeEventListener('drop', drop as EventListener);
    };
  }, []);

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = Array.from(e.clipboardData?.files ?? []);
    if (!pasted.length) return;
    e.preventDefault();
    void addFiles(pasted);
  };

  const send = async () => {
    const t = text.trim();
    if ((!t && !files.length) || disabled || sending) return;
    if (problems.length) {
      setError(problems[0] ?? null);
      return;
    }
    const sent = files;
    setSending(true);
    setError(null);
    setText('');
    setFiles([]);
    const from = draftKey;
    if (from !== null) drafts.clear(from);
    try {
      await (sent.length ? onSend(t, sent) : onSend(t));
    } catch (e) {
      // Not sent: the text comes back, in the chat it was written in (a
      // new chat's text follows it into the conversation just created).
      const now = keyRef.current;
      if (now === from || from === NEW_CHAT_DRAFT) {
        setText(t);
        setFiles(sent);
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
    if (mcp.onKeyDown(e)) {
      e.preventDefault();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
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

  const placeholder = readOnlyCopy
    ? 'A read-only copy: nothing can be sent'
    : !configured
    ? 'Set up a model endpoint to start'
    : pendingNote
      ? 'Or reply here to skip the request…'
      : busy
      ? 'Type to queue a follow-up…'
      : 'Message Juncture';

  return (
    <section ref={sectionRef} className={`composer${dropping ? ' is-dropping' : ''}`} aria-label="Message composer">
      <div ref={innerRef} className="composer-inner">
        {readOnlyCopy ? (
          <div className="composer-setup" role="status">
            <div>
              <strong>You are browsing a read-only copy of Juncture’s damaged history.</strong> Its chats can be read,
              searched and exported; nothing can be sent or changed. The damaged file was kept as it was; the copy is{' '}
              <span className="mono">{readOnlyCopy}</span>.
            </div>
          </div>
        ) : !configured && (
          <div className="composer-setup" role="status">
            <div>
              <strong>Juncture is not connected to a model yet.</strong>{' '}
              {problem || 'Choose an endpoint (OpenAI, Ollama, LM Studio…) and a model in Settings.'}
            </div>
            <button type="button" className="btn primary small" onClick={() => onOpenSettings()}>
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
        {mcp.panel}
        {imagesAsk && !acceptsImages && files.some((f) => f.kind === 'image') && (
          <ImagesAsk key={imagesAsk.model} model={imagesAsk.model} onAllow={imagesAsk.onAllow} />
        )}
        <AttachmentChips files={files} refused={refused} onRemove={(key) => {
            setFiles((fs) => fs.filter((f) => f.key !== key));
            setError(null);
          }} />
        <div className={`composer-box${disabled ? ' is-disabled' : ''}`}>
          <button
            type="button"
            className="composer-btn composer-attach"
            onClick={() => pickRef.current?.click()}
            disabled={disabled}
            aria-label="Attach files"
            title={`Attach files (or paste, or drop them on the chat). ${LIMITS_TEXT}`}
          >
            <IconPaperclip />
          </button>
          <input
            ref={pickRef}
            type="file"
            multiple
            hidden
            aria-label="Choose files to attach"
            onChange={(e) => {
              const list = e.currentTarget.files;
              const picked = list ? Array.from(list) : [];
              e.currentTarget.value = '';
              void addFiles(picked);
            }}
          />
          {mcp.button}
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
            onChange={(e) => setText(e.currentTarget.value)}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
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
              disabled={disabled || sending || (!text.trim() && !files.length) || problems.length > 0}
              aria-label="Send (Enter)"
              title="Send (Enter)"
            >
              <IconSend />
            </button>
          )}
        </div>
        <div className="composer-hint" id={hintId}>
          {readOnlyCopy ? null : error ? (
            <span className="composer-error" role="alert">
              {error}
            </span>
          ) : problems.length ? (
            <span className="composer-error" role="alert">
              {problems.join(' ')}
            </span>
          ) : files.length ? (
            LIMITS_TEXT
          ) : pendingNote ? (
            pendingNote
          ) : busy ? (
            'Enter queues a follow-up · Esc stops'
          ) : (
            'Enter to send · Shift+Enter for a new line'
          )}
        </div>
      </div>
    </section>
  );
}

/**
 * Memoized: the chat view renders again on every frame of a streaming
 * answer, and the composer's props do not change with the answer's text.
 */
export const Composer = memo(ComposerImpl);

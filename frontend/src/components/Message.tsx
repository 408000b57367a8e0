import { memo, useContext, useState } from 'react';
import type { MessageItem } from '../state/derive';
import { describeEndpointError, stripMarker, formatTime } from '../lib/format';
import { TransportContext } from '../transport';
import { webCopyText } from '../transport/platform';
import { MessageBody } from './MessageBody';
import { ToolBlock } from './ToolBlock';
import { IconCheck, IconCopy, IconEdit, IconRetry } from './icons';
import './Message.css';

export interface MessageActions {
  onContinue?: () => void;
  onRegenerate?: (item: MessageItem) => void;
  onEdit?: () => void;
  /** Opens Settings (from an endpoint error). */
  onOpenSettings?: (() => void) | undefined;
}

export interface MessageRowProps extends MessageActions {
  item: MessageItem;
  highlighted: boolean;
  /** The run is idle: follow-up actions are offered. */
  idle: boolean;
}

function CopyButton({ text }: { text: string }) {
  const transport = useContext(TransportContext);
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      className="icon-btn msg-action"
      aria-label={done ? 'Copied' : 'Copy message'}
      title={done ? 'Copied' : 'Copy'}
      onClick={() => {
        void (transport ? transport.copyText(text) : webCopyText(text)).then(
          () => {
            setDone(true);
            setTimeout(() => setDone(false), 1500);
          },
          () => setDone(false),
        );
      }}
    >
      {done ? <IconCheck /> : <IconCopy />}
    </button>
  );
}

/**
 * A failed answer's error, said once: what happened (the endpoint could not be
 * reached, or it answered with an error), its own message, and a way to Settings.
 */
export function EndpointErrorNote({
  error,
  onOpenSettings,
  heading,
}: {
  error: string | undefined;
  onOpenSettings?: (() => void) | undefined;
  heading?: string;
}) {
  const p = describeEndpointError(error);
  const settings = onOpenSettings && p.kind !== 'cut';
  return (
    <div className={`msg-error kind-${p.kind}`} role="alert">
      <strong className="msg-error-title">
        {heading ? `${heading} ` : ''}
        {p.title}
      </strong>
      {p.detail && <div className="msg-error-text">{p.detail}</div>}
      {(p.hint || settings) && (
        <div className="msg-error-foot">
          {p.hint && <span className="msg-error-hint">{p.hint}</span>}
          {settings && (
            <button type="button" className="btn small" onClick={onOpenSettings}>
              Open Settings
            </button>
          )}
        </div>
      )}
    </div>
  );
}

function MessageRowImpl({ item, highlighted, idle, onContinue, onRegenerate, onEdit, onOpenSettings }: MessageRowProps) {
  const m = item.message;
  const cls = `msg msg-${m.role}${highlighted ? ' is-highlighted' : ''}${m.local ? ' is-local' : ''}${
    item.isLastAssistant ? ' is-last' : ''
  }`;

  if (m.role === 'user') {
    return (
      <article className={cls} aria-label="You said" data-message-id={m.id}>
        <div className="msg-user-bubble">{m.content}</div>
        <div className="msg-actions">
          <span className="msg-time">{m.local ? 'Sending…' : formatTime(m.createdAt)}</span>
          <CopyButton text={m.content} />
          {onEdit && idle && item.isLastUser && (
            <button type="button" className="icon-btn msg-action" aria-label="Edit and resend" title="Edit and resend" onClick={onEdit}>
              <IconEdit />
            </button>
          )}
        </div>
      </article>
    );
  }

  if (m.role === 'tool') {
    return (
      <article className={cls} aria-label="Tool result" data-message-id={m.id}>
        <details className="tool-block">
          <summary>Tool result {m.toolCallId ? <span className="mono">{m.toolCallId}</span> : null}</summary>
          <pre className="tool-pre mono">{m.content}</pre>
        </details>
      </article>
    );
  }

  if (m.role === 'system' || m.role === 'developer') {
    return (
      <article className={cls} aria-label="System note" data-message-id={m.id}>
        <div className="msg-system">{m.content}</div>
      </article>
    );
  }

  const interrupted = m.status === 'interrupted';
  const streaming = m.status === 'streaming';
  // A message whose beginning was missed is not shown until it is refetched.
  const text = m.partial ? '' : stripMarker(m.content);
  const empty = !text && !item.tools.length && !m.reasoning;
  return (
    <article className={cls} aria-label="Juncture said" aria-busy={streaming || m.partial || undefined} data-message-id={m.id}>
      {/* Reasoning first: it streams before the answer. */}
      {m.reasoning && (
        <details className="msg-reasoning">
          <summary>{m.reasoningStreaming ? 'Thinking…' : 'Reasoning'}</summary>
          <div className="msg-reasoning-body">{m.reasoning}</div>
        </details>
      )}
      {text && <MessageBody text={text} highlight={!streaming} />}
      {m.partial && (
        <div className="msg-typing" aria-label="Catching up">
          <span />
          <span />
          <span />
        </div>
      )}
      {streaming && empty && !m.partial && (
        <div className="msg-typing" aria-label="Writing">
          <span />
          <span />
          <span />
        </div>
      )}
      {item.tools.length > 0 && (
        <div className="msg-tools">
          {item.tools.map((t) => (
            <ToolBlock key={t.id} tool={t} />
          ))}
        </div>
      )}
      {m.status === 'error' && <EndpointErrorNote error={m.error} onOpenSettings={onOpenSettings} />}
      {interrupted && empty && <p className="msg-muted">Stopped before any answer.</p>}
      {!streaming && !m.partial && (
        <div className="msg-actions">
          {interrupted && <span className="msg-badge">Interrupted</span>}
          {text && <CopyButton text={text} />}
          {idle && item.isLastAssistant && interrupted && item.tools.length === 0 && onContinue && (
            <button type="button" className="btn small" onClick={onContinue}>
              Continue
            </button>
          )}
          {idle && item.isLastAssistant && (interrupted || m.status === 'error') && onRegenerate && (
            <button type="button" className="btn small subtle" onClick={() => onRegenerate(item)}>
              <IconRetry /> Regenerate
            </button>
          )}
        </div>
      )}
    </article>
  );
}

export const MessageRow = memo(MessageRowImpl);

import { createContext, memo, useContext, useState } from 'react';
import type { MessageItem } from '../../state/derive';
import { describeEndpointError, stripMarker, formatTime } from '../../lib/format';
import { TransportContext } from '../../transport';
import { webCopyText } from '../../transport/platform';
import { MessageBody } from './MessageBody';
import { AttachmentList } from '../attachments/AttachmentList';
import { ToolBlock } from '../tools/ToolBlock';
import { PAGE_LOADED_AT } from '../mcp-apps/AppView';
import { BranchSwitcher } from './BranchSwitcher';
import { MessageEditor } from './MessageEditor';
import { InstructionsDivider } from './InstructionsDivider';
import { UsageLine, type Price } from './UsageLine';
import { IconCheck, IconCopy, IconEdit, IconRetry } from '../../ui/icons';
import './Message.css';
import { Reasoning } from './Reasoning';

export interface MessageActions {
  onContinue?: (() => void) | undefined;
  /** Regenerates the turn this answer ends (a new version of its answer). */
  onRegenerate?: ((item: MessageItem) => void) | undefined;
  /** Opens Settings (from an endpoint error). */
  onOpenSettings?: (() => void) | undefined;
}

/** What every row of the open thread shares: the branch actions and the prices (ChatView provides it). */
export interface MessageThread {
  /** The open thread (attached files are fetched from it). */
  threadId?: string | undefined;
  /** A run is going on: editing, regenerating and switching versions wait (unset: the row's `idle` decides). */
  running?: boolean;
  /** Makes `text` a new version of the question `messageId` and answers it (EditMessage). */
  onEdit?: ((messageId: string, text: string) => Promise<void>) | undefined;
  /** Makes the path through this message the one shown (SelectBranch). */
  onSelectBranch?: (messageId: string) => void;
  /** Why the versions cannot be switched, a run aside (the arrows' title); unset: they can. */
  versionsHeld?: string | undefined;
  /** The price of the model that wrote an answer, if the endpoint settings set one. */
  priceOf?: (model: string | undefined) => Price | null;
}

export const MessageThreadContext = createContext<MessageThread>({});

const WAIT_FOR_RUN = 'Wait until the answer is finished';

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
            <button type="button" className="btn small" onClick={() => onOpenSettings?.()}>
              Open Settings
            </button>
          )}
        </div>
      )}
    </div>
  );
}

function MessageRowImpl({ item, highlighted, idle, onContinue, onRegenerate, onOpenSettings }: MessageRowProps) {
  const ctx = useContext(MessageThreadContext);
  const [editing, setEditing] = useState(false);
  const m = item.message;
  const running = ctx.running ?? !idle;
  const cls = `msg msg-${m.role}${highlighted ? ' is-highlighted' : ''}${m.local ? ' is-local' : ''}${
    item.isLastAssistant ? ' is-last' : ''
  }`;
  const switcher =
    m.branch && ctx.onSelectBranch ? (
      <BranchSwitcher branch={m.branch} onSelect={ctx.onSelectBranch} disabledReason={running ? WAIT_FOR_RUN : (ctx.versionsHeld ?? null)} />
    ) : null;

  if (m.role === 'user') {
    const onEdit = ctx.onEdit;
    if (editing && onEdit) {
      return (
        <article className={`${cls} is-editing`} aria-label="You said" data-message-id={m.id}>
          <MessageEditor
            initial={m.content}
            onSave={async (text) => {
              await onEdit(m.id, text);
              setEditing(false);
            }}
            onCancel={() => setEditing(false)}
          />
        </article>
      );
    }
    return (
      <article className={cls} aria-label="You said" data-message-id={m.id}>
        {m.attachments?.length ? <AttachmentList threadId={ctx.threadId} attachments={m.attachments} /> : null}
        {m.content && <div className="msg-user-bubble">{m.content}</div>}
        <div className="msg-actions">
          {switcher}
          <span className="msg-time">{m.local ? 'Sending…' : formatTime(m.createdAt)}</span>
          <CopyButton text={m.content} />
          {onEdit && !running && !m.local && (
            <button type="button" className="icon-btn msg-action" aria-label="Edit message" title="Edit" onClick={() => setEditing(true)}>
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
    return <InstructionsDivider id={m.id} text={m.content} />;
  }

  if (item.isViewCall) {
    // A view's call: no model wrote it, so no answer, usage or Regenerate;
    // only its tool block (approval, state and result).
    return (
      <article className={`${cls} is-view-call`} aria-label="Asked by a view" data-message-id={m.id}>
        <div className="msg-tools">
          {item.tools.map((t) => (
            <ToolBlock key={t.id} tool={t} threadId={ctx.threadId} live={m.createdAt >= PAGE_LOADED_AT} />
          ))}
        </div>
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
      {m.reasoning && <Reasoning text={m.reasoning} streaming={!!m.reasoningStreaming} />}
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
            <ToolBlock key={t.id} tool={t} threadId={ctx.threadId} live={m.createdAt >= PAGE_LOADED_AT} />
          ))}
        </div>
      )}
      {m.status === 'error' && <EndpointErrorNote error={m.error} onOpenSettings={onOpenSettings} />}
      {interrupted && empty && <p className="msg-muted">Stopped before any answer.</p>}
      {!streaming && !m.partial && (
        <div className="msg-actions">
          {switcher}
          {interrupted && <span className="msg-badge">Interrupted</span>}
          {/* What it cost first: it stays put while the buttons after it show on hover. */}
          {m.status !== 'error' && (
            <UsageLine usage={m.usage} pending={!!m.detailsPending} model={m.model} price={ctx.priceOf?.(m.model) ?? null} />
          )}
          {text && <CopyButton text={text} />}
          {idle && item.isLastAssistant && interrupted && item.tools.length === 0 && onContinue && (
            <button type="button" className="btn small" onClick={onContinue}>
              Continue
            </button>
          )}
          {/* Not on the answer whose turn still waits for a decision: that turn is not over. */}
          {!running && item.isTurnEnd && (idle || !item.isLastAssistant) && onRegenerate && !m.local && (
            <button
              type="button"
              className={`btn small subtle${interrupted || m.status === 'error' ? '' : ' msg-action'}`}
              title="Write a new version of this answer"
              onClick={() => onRegenerate(item)}
            >
              <IconRetry /> Regenerate
            </button>
          )}
        </div>
      )}
    </article>
  );
}

export const MessageRow = memo(MessageRowImpl);

import { useCallback, useEffect, useMemo } from 'react';
import type { MessageItem, ThreadDerived } from '../state/derive';
import { VirtualList } from './VirtualList';
import { MessageRow } from './Message';
import { preloadMarkdown } from './MessageBody';
import './ThreadView.css';

type Row = { kind: 'message'; key: string; item: MessageItem } | { kind: 'run-error'; key: string; message: string };

export interface ThreadViewProps {
  threadId: string | null;
  view: ThreadDerived;
  highlight: { messageId: string; nonce: number } | null;
  onContinue: () => void;
  onRegenerate: (item: MessageItem) => void;
  onEditLast: () => void;
}

function estimate(r: Row): number {
  if (r.kind !== 'message') return 80;
  const m = r.item.message;
  const lines = Math.ceil(m.content.length / 90) + (m.content.match(/\n/g)?.length ?? 0);
  return 56 + Math.min(lines, 400) * 22 + r.item.tools.length * 42;
}

const getKey = (r: Row) => r.key;

/** The conversation: a virtualised list of messages. */
export function ThreadView({ threadId, view, highlight, onContinue, onRegenerate, onEditLast }: ThreadViewProps) {
  const rows = useMemo<Row[]>(() => {
    const r: Row[] = view.items.map((item) => ({ kind: 'message', key: item.key, item }));
    if (view.runError && view.status === 'error') {
      r.push({ kind: 'run-error', key: '__run-error', message: view.runError.message });
    }
    return r;
  }, [view.items, view.runError, view.status]);

  // A thread with messages will render Markdown: start loading the renderer.
  const hasRows = rows.length > 0;
  useEffect(() => {
    if (hasRows) void preloadMarkdown().catch(() => {});
  }, [hasRows]);

  const idle = view.status === 'idle' || view.status === 'error';
  const highlightId = highlight?.messageId ?? null;

  const renderItem = useCallback(
    (r: Row) => {
      if (r.kind === 'run-error') {
        return (
          <div className="thread-run-error" role="alert">
            <strong>The last turn failed.</strong> {r.message}
          </div>
        );
      }
      return (
        <MessageRow
          item={r.item}
          highlighted={r.item.key === highlightId}
          idle={idle}
          onContinue={onContinue}
          onRegenerate={onRegenerate}
          onEdit={onEditLast}
        />
      );
    },
    [highlightId, idle, onContinue, onRegenerate, onEditLast],
  );

  const scrollTo = useMemo(() => (highlight ? { key: highlight.messageId, nonce: highlight.nonce } : null), [highlight]);

  if (!rows.length) {
    return (
      <div className="thread-empty">
        <h1>How can I help?</h1>
        <p>Ask a question, or ask Juncture to work with files in your workspace. It asks before it changes anything.</p>
      </div>
    );
  }

  return (
    <VirtualList
      items={rows}
      getKey={getKey}
      renderItem={renderItem}
      estimateHeight={estimate}
      scrollTo={scrollTo}
      resetKey={threadId}
      className="thread-list"
      label="Conversation"
    />
  );
}

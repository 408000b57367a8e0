import { useCallback, useEffect, useMemo } from 'react';
import type { MessageItem, ThreadDerived } from '../../state/derive';
import type { Status } from '../../transport/contract';
import { openedHit } from '../../lib/searchText';
import { clearHighlight, highlightTerms, scrollRangeIntoView } from '../../lib/hitHighlight';
import { VirtualList } from '../../ui/VirtualList';
import { EndpointErrorNote, MessageRow } from './Message';
import { preloadMarkdown } from './MessageBody';
import { EmptyState } from './EmptyState';
import type { SettingsTarget } from '../../lib/settingsTarget';
import './ThreadView.css';

type Row = { kind: 'message'; key: string; item: MessageItem } | { kind: 'run-error'; key: string; message: string };

export interface ThreadViewProps {
  threadId: string | null;
  view: ThreadDerived;
  highlight: { messageId: string; nonce: number } | null;
  /** Unset: not offered (a read-only copy). */
  onContinue?: (() => void) | undefined;
  onRegenerate?: ((item: MessageItem) => void) | undefined;
  /** For the empty state (is a model configured?). */
  status?: Status | null;
  onOpenSettings?: (at?: SettingsTarget) => void;
  /** Changes when a message is sent: the list goes to the bottom and follows the answer. */
  followNonce?: number;
}

function estimate(r: Row): number {
  if (r.kind !== 'message') return 80;
  const m = r.item.message;
  const lines = Math.ceil(m.content.length / 90) + (m.content.match(/\n/g)?.length ?? 0);
  return 56 + Math.min(lines, 400) * 22 + r.item.tools.length * 42;
}

const getKey = (r: Row) => r.key;

/** Where a search hit is shown: its own row, or (a tool result) the row of the call it answers. */
export interface HitTarget {
  key: string;
  /** The hit is a tool result inside this row's tool block. */
  inTool: boolean;
}

/**
 * Finds the row of a search hit. Tool results are not rows of their own (they
 * are attached to the call, in the assistant message that made it), so a tool
 * message's hit is found by its snippet text in the tools' results.
 */
export function resolveHit(items: readonly MessageItem[], messageId: string, snippet: string, terms: readonly string[]): HitTarget | null {
  if (items.some((i) => i.key === messageId)) return { key: messageId, inTool: false };
  const lower = terms.map((t) => t.toLowerCase());
  let byTerms: HitTarget | null = null;
  for (const it of items) {
    for (const t of it.tools) {
      const result = t.result ?? '';
      if (!result) continue;
      if (snippet && result.includes(snippet)) return { key: it.key, inTool: true };
      if (!byTerms && lower.length && lower.every((w) => result.toLowerCase().includes(w))) byTerms = { key: it.key, inTool: true };
    }
  }
  return byTerms;
}

function rowElement(key: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-message-id="${key.replace(/["\\]/g, '\\$&')}"]`);
}

/** The element to search a tool hit in: the result block whose text holds the snippet. */
function toolRoot(row: HTMLElement, snippet: string, terms: readonly string[]): Element {
  const pres = [...row.querySelectorAll('.tool-result pre, .tool-block pre, pre')];
  const text = (e: Element) => e.textContent ?? '';
  return (
    pres.find((p) => snippet && text(p).includes(snippet)) ??
    pres.find((p) => terms.length && terms.every((w) => text(p).toLowerCase().includes(w))) ??
    row
  );
}

const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));

/** The conversation: a virtualised list of messages. */
export function ThreadView({
  threadId,
  view,
  highlight,
  onContinue,
  onRegenerate,
  status = null,
  onOpenSettings,
  followNonce,
}: ThreadViewProps) {
  // A failed answer shows its error in the message itself; the turn's error
  // gets a row of its own only when no message shows it.
  const lastItem = view.items[view.items.length - 1];
  const errorShown = lastItem?.message.role === 'assistant' && lastItem.message.status === 'error';
  const rows = useMemo<Row[]>(() => {
    const r: Row[] = view.items.map((item) => ({ kind: 'message', key: item.key, item }));
    if (view.runError && view.status === 'error' && !errorShown) {
      r.push({ kind: 'run-error', key: '__run-error', message: view.runError.message });
    }
    return r;
  }, [view.items, view.runError, view.status, errorShown]);

  // Which version of the conversation is shown: the messages that have
  // other versions, as they read on this path. A switch changes it; a
  // streaming answer does not.
  const pathKey = useMemo(
    () =>
      view.items
        .filter((i) => i.message.branch)
        .map((i) => i.key)
        .join(' '),
    [view.items],
  );

  // A thread with messages will render Markdown: start loading the renderer.
  const hasRows = rows.length > 0;
  useEffect(() => {
    if (hasRows) void preloadMarkdown().catch(() => {});
  }, [hasRows]);

  const idle = view.status === 'idle' || view.status === 'error';

  const hit = highlight ? openedHit(highlight.messageId) : null;
  const target = useMemo(
    () => (highlight ? resolveHit(view.items, highlight.messageId, hit?.snippet ?? '', hit?.terms ?? []) : null),
    [highlight, hit, view.items],
  );
  const targetKey = target?.key ?? null;
  const targetInTool = target?.inTool ?? false;
  const nonce = highlight?.nonce ?? 0;

  // The matched words: painted in the message, collapsed tool blocks around
  // them opened, and scrolled to. They stay painted until another chat or hit.
  useEffect(() => {
    if (!targetKey || !nonce) return;
    const terms = hit?.terms ?? [];
    const snippet = hit?.snippet ?? '';
    let live = true;
    const apply = (scroll: boolean) => {
      const row = rowElement(targetKey);
      if (!row) return false;
      const root = targetInTool ? toolRoot(row, snippet, terms) : row;
      const ranges = terms.length ? highlightTerms(root, terms, row) : [];
      if (scroll && ranges[0]) {
        const scroller = row.closest('.vlist');
        if (scroller) scrollRangeIntoView(scroller, ranges[0]);
      }
      return true;
    };
    void (async () => {
      // The row mounts once the list has scrolled to it (the thread may still be loading).
      for (let i = 0; i < 120 && live && !rowElement(targetKey); i++) await frame();
      if (!live || !apply(false)) return;
      // Opened blocks resize the row: let the list lay out again, then scroll to the words.
      await frame();
      await frame();
      if (live) apply(true);
      await new Promise((r) => setTimeout(r, 300));
      if (live) apply(true); // late layout (Markdown, code highlighting)
    })();
    return () => {
      live = false;
    };
  }, [targetKey, targetInTool, nonce, hit]);

  useEffect(() => () => clearHighlight(), [threadId]);

  const renderItem = useCallback(
    (r: Row) => {
      if (r.kind === 'run-error') {
        return (
          <div className="thread-run-error">
            <EndpointErrorNote error={r.message} onOpenSettings={onOpenSettings} heading="The last turn failed." />
          </div>
        );
      }
      return (
        <MessageRow
          item={r.item}
          highlighted={r.item.key === targetKey}
          idle={idle}
          onContinue={onContinue}
          onRegenerate={onRegenerate}
          onOpenSettings={onOpenSettings}
        />
      );
    },
    [targetKey, idle, onContinue, onRegenerate, onOpenSettings],
  );

  const scrollTo = useMemo(() => (targetKey && nonce ? { key: targetKey, nonce } : null), [targetKey, nonce]);

  if (!rows.length) {
    return <EmptyState status={status} onOpenSettings={onOpenSettings} />;
  }

  return (
    <VirtualList
      items={rows}
      getKey={getKey}
      renderItem={renderItem}
      estimateHeight={estimate}
      scrollTo={scrollTo}
      resetKey={threadId}
      pathKey={pathKey}
      followNonce={followNonce}
      className="thread-list"
      label="Conversation"
    />
  );
}

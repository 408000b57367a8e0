import { memo, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { Thread, ThreadListItem } from '../../transport/contract';
import { threadActivity, type Activity } from '../../hooks/useThreadActivity';
import { IconMore, IconPin } from '../../ui/icons';
import { menuKeyDown } from '../../ui/menuKeys';

export interface ThreadItemProps {
  /** The listed thread; its `running` / `waiting` give the indicator unless live events say otherwise. */
  thread: ThreadListItem;
  active: boolean;
  /** What live events said since the list was loaded (`null`: idle), or undefined when nothing newer. */
  activity: Activity | null | undefined;
  onOpen: (id: string) => void;
  /** Unset (a read-only copy of damaged data): not offered, nor is F2. Likewise onPin and onDelete. */
  onRename?: ((id: string, title: string) => void) | undefined;
  onPin?: ((id: string, pinned: boolean) => void) | undefined;
  onExport: (id: string, format: 'markdown' | 'json') => void;
  onDelete?: ((t: Thread) => void) | undefined;
}

function ThreadItemImpl({ thread, active, activity: live, onOpen, onRename, onPin, onExport, onDelete }: ThreadItemProps) {
  const [menu, setMenu] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [draft, setDraft] = useState(thread.title);
  const menuRef = useRef<HTMLDivElement>(null);
  const moreRef = useRef<HTMLButtonElement>(null);
  const rowRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const title = thread.title || 'New chat';
  const descId = useId();
  const activity = threadActivity(thread, live);
  // The button is named by the title alone; its status is its description.
  const status = [
    thread.pinned ? 'Pinned' : '',
    activity === 'running' ? 'Running' : activity === 'awaiting' ? 'Waiting for your decision' : '',
  ]
    .filter(Boolean)
    .join(', ');

  useEffect(() => {
    if (!menu) return;
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onDown = (e: MouseEvent) => {
      if (!menuRef.current?.contains(e.target as Node) && !moreRef.current?.contains(e.target as Node)) setMenu(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [menu]);

  // Enter / Esc in the title field give focus back to the row.
  const refocusRow = useRef(false);
  useEffect(() => {
    if (renaming) {
      inputRef.current?.focus();
      inputRef.current?.select();
    } else if (refocusRow.current) {
      refocusRow.current = false;
      rowRef.current?.focus();
    }
  }, [renaming]);

  const closeMenu = () => {
    setMenu(false);
    rowRef.current?.focus();
  };

  // One Tab stop per chat: the row. Its "…" menu opens from the keyboard
  // with the Menu key or Shift+F10 (as a right-click does with the mouse),
  // F2 renames, and the arrow keys / Home / End move between chats.
  const onRowKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
      e.preventDefault();
      setMenu(true);
    } else if (e.key === 'F2' && onRename) {
      e.preventDefault();
      setDraft(thread.title);
      setRenaming(true);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp' || e.key === 'Home' || e.key === 'End') {
      const rows = [...(e.currentTarget.closest('nav')?.querySelectorAll<HTMLElement>('.titem-open') ?? [])];
      const i = rows.indexOf(e.currentTarget);
      const to =
        e.key === 'Home' ? 0 : e.key === 'End' ? rows.length - 1 : e.key === 'ArrowDown' ? Math.min(i + 1, rows.length - 1) : Math.max(i - 1, 0);
      e.preventDefault();
      rows[to]?.focus();
    }
  };

  const commit = () => {
    setRenaming(false);
    const t = draft.trim();
    if (t && t !== thread.title) onRename?.(thread.id, t);
  };

  const act = (fn: () => void) => () => {
    setMenu(false);
    fn();
  };

  if (renaming) {
    return (
      <li className="titem is-renaming">
        <input
          ref={inputRef}
          className="titem-rename"
          aria-label="Conversation title"
          value={draft}
          maxLength={200}
          onChange={(e) => setDraft(e.currentTarget.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              refocusRow.current = true;
              commit();
            } else if (e.key === 'Escape') {
              e.preventDefault();
              refocusRow.current = true;
              setDraft(thread.title);
              setRenaming(false);
            }
          }}
        />
      </li>
    );
  }

  return (
    <li className={`titem${active ? ' is-active' : ''}`}>
      <button
        ref={rowRef}
        type="button"
        className="titem-open"
        aria-current={active ? 'page' : undefined}
        aria-keyshortcuts="Shift+F10 ContextMenu F2"
        onClick={() => onOpen(thread.id)}
        onKeyDown={onRowKeyDown}
        onContextMenu={(e) => {
          e.preventDefault();
          setMenu(true);
        }}
        onDblClick={() => {
          setDraft(thread.title);
          setRenaming(true);
        }}
        title={title}
        aria-describedby={status ? descId : undefined}
      >
        {thread.pinned && (
          <span className="titem-pin" aria-hidden="true">
            <IconPin />
          </span>
        )}
        <span className="titem-title">{title}</span>
        {activity === 'running' && <span className="titem-activity running" aria-hidden="true" />}
        {activity === 'awaiting' && (
          <span className="titem-activity awaiting" aria-hidden="true">
            !
          </span>
        )}
      </button>
      {status && (
        <span id={descId} hidden>
          {status}
        </span>
      )}
      <button
        ref={moreRef}
        type="button"
        className="icon-btn titem-more"
        aria-label={`Options for ${title}`}
        aria-haspopup="menu"
        aria-expanded={menu}
        tabIndex={active ? 0 : -1} // the open chat's "…" is a Tab stop (after its row); the others open with Shift+F10
        title="Options (Shift+F10)"
        onClick={() => setMenu((m) => !m)}
      >
        <IconMore />
      </button>
      {menu && (
        <div
          ref={menuRef}
          className="titem-menu"
          role="menu"
          aria-label={`Options for ${title}`}
          onKeyDown={(e) => menuKeyDown(e, { escape: closeMenu, tab: () => setMenu(false) })}
        >
          {onRename && (
            <button
              type="button"
              role="menuitem"
              onClick={act(() => {
                setDraft(thread.title);
                setRenaming(true);
              })}
            >
              Rename
            </button>
          )}
          {onPin && (
            <button type="button" role="menuitem" onClick={act(() => onPin(thread.id, !thread.pinned))}>
              {thread.pinned ? 'Unpin' : 'Pin'}
            </button>
          )}
          <button type="button" role="menuitem" onClick={act(() => onExport(thread.id, 'markdown'))}>
            Export as Markdown
          </button>
          <button type="button" role="menuitem" onClick={act(() => onExport(thread.id, 'json'))}>
            Export as JSON
          </button>
          {onDelete && (
            <button type="button" role="menuitem" className="danger" onClick={act(() => onDelete(thread))}>
              Delete
            </button>
          )}
        </div>
      )}
    </li>
  );
}

export const ThreadItem = memo(ThreadItemImpl);

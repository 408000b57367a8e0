import { forwardRef, memo, useEffect, useImperativeHandle, useMemo, useRef, useState, type ReactNode } from 'react';
import type { SearchHit, Thread, ThreadListItem } from '../../transport/contract';
import type { Transport } from '../../transport';
import { liveActivity, type LiveActivity } from '../../hooks/useThreadActivity';
import type { SidebarMode } from '../../hooks/useSidebarLayout';
import { groupThreads } from '../../lib/groupThreads';
import { ThreadItem } from './ThreadItem';
import { SearchResults } from '../search/SearchResults';
import { IconActivity, IconClose, IconNew, IconSearch, IconSettings } from '../../ui/icons';
import './Sidebar.css';

export interface SidebarHandle {
  focusSearch: () => void;
  /** Focuses the open chat's row, else the first chat, else New chat. */
  focusList: () => void;
  /** The node is inside the sidebar. */
  contains: (node: Node) => boolean;
}

export interface SidebarProps {
  transport: Transport;
  threads: readonly ThreadListItem[];
  hiddenIds: ReadonlySet<string>;
  activeId: string | null;
  /** Live run events per thread; they win over the list's own state when newer than `listedAt`. */
  activity: ReadonlyMap<string, LiveActivity>;
  listedAt: number;
  hasMore: boolean;
  loading: boolean;
  listError: string | null;
  connection: 'connected' | 'disconnected';
  onNew: () => void;
  onOpen: (id: string) => void;
  onOpenHit: (hit: SearchHit) => void;
  /** Unset in a read-only copy of damaged data (see ThreadItem); likewise onPin and onDelete. */
  onRename?: ((id: string, title: string) => void) | undefined;
  onPin?: ((id: string, pinned: boolean) => void) | undefined;
  onExport: (id: string, format: 'markdown' | 'json') => void;
  onDelete?: ((t: Thread) => void) | undefined;
  onLoadMore: () => void;
  onSettings: () => void;
  /** Opens Activity (the decision ledger). */
  onActivity?: () => void;
  /** Docked beside the chat, hidden, or over it (narrow windows); see useSidebarLayout. */
  mode?: SidebarMode;
  /** Shown beside New chat (the "New chat from preset" menu). */
  newChatExtra?: ReactNode;
  /** Shows the keyboard shortcuts. */
  onShortcuts?: () => void;
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
export const MOD = isMac ? '⌘' : 'Ctrl+';

// Memoised: App re-renders on every streamed frame (it holds the open
// chat's state), and nothing the sidebar shows changes with a token.
export const Sidebar = memo(forwardRef<SidebarHandle, SidebarProps>(function Sidebar(p, ref) {
  const mode = p.mode ?? 'docked';
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<SearchHit[]>([]);
  const [searching, setSearching] = useState(false);
  const [searchError, setSearchError] = useState<string | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const rootRef = useRef<HTMLElement>(null);
  const newRef = useRef<HTMLButtonElement>(null);

  useImperativeHandle(ref, () => ({
    focusSearch: () => {
      searchRef.current?.focus();
      searchRef.current?.select();
    },
    focusList: () => {
      const root = rootRef.current;
      const row =
        root?.querySelector<HTMLElement>('.titem-open[aria-current="page"]') ?? root?.querySelector<HTMLElement>('.titem-open');
      (row ?? newRef.current)?.focus();
    },
    contains: (node: Node) => rootRef.current?.contains(node) ?? false,
  }));

  // The open chat's row is scrolled into view once when it is opened or
  // first listed (a new chat lands at the top of a list scrolled down;
  // issue 22 item 23). After that the person scrolls the list freely.
  const shownActive = useRef<string | null>(null);
  useEffect(() => {
    const id = p.activeId;
    if (!id || shownActive.current === id) return;
    const row = rootRef.current?.querySelector<HTMLElement>('.titem.is-active');
    if (!row) return;
    shownActive.current = id;
    row.scrollIntoView?.({ block: 'nearest' });
  }, [p.activeId, p.threads, query]);

  // Debounced SearchHistory; stale answers are ignored.
  useEffect(() => {
    const q = query.trim();
    if (!q) {
      setHits([]);
      setSearchError(null);
      setSearching(false);
      return;
    }
    let cancelled = false;
    setSearching(true);
    const t = setTimeout(() => {
      p.transport
        .call('SearchHistory', q, 30)
        .then((h) => {
          if (!cancelled) {
            setHits(h);
            setSearchError(null);
          }
        })
        .catch((e: unknown) => {
          if (!cancelled) setSearchError(e instanceof Error ? e.message : String(e));
        })
        .finally(() => {
          if (!cancelled) setSearching(false);
        });
    }, 200);
    return () => {
      cancelled = true;
      clearTimeout(t);
    };
  }, [query, p.transport]);

  const groups = useMemo(
    () => groupThreads(p.threads.filter((t) => !p.hiddenIds.has(t.id))),
    [p.threads, p.hiddenIds],
  );

  return (
    <aside
      ref={rootRef}
      id="sidebar"
      className={`sidebar is-${mode}`}
      aria-label="Conversations"
      inert={mode === 'hidden'}
    >
      <div className="sidebar-top">
        <div className="sidebar-brand">Juncture</div>
        <div className="sidebar-new-row">
          <button ref={newRef} type="button" className="btn sidebar-new" onClick={p.onNew} title={`New chat (${MOD}N)`}>
            <IconNew /> New chat
          </button>
          {p.newChatExtra}
        </div>
        <div className="sidebar-search" role="search">
          <IconSearch />
          <label htmlFor="sidebar-search-input" className="visually-hidden">
            Search conversations
          </label>
          <input
            id="sidebar-search-input"
            ref={searchRef}
            type="search"
            placeholder={`Search (${MOD}K)`}
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && query) {
                e.preventDefault();
                e.stopPropagation();
                setQuery('');
              }
            }}
          />
          {query && (
            <button type="button" className="icon-btn sidebar-search-clear" aria-label="Clear search" onClick={() => setQuery('')}>
              <IconClose />
            </button>
          )}
        </div>
      </div>
      <nav className="sidebar-scroll" aria-label={query.trim() ? 'Search results' : 'Conversation history'}>
        {query.trim() ? (
          <SearchResults
            query={query.trim()}
            hits={hits}
            loading={searching}
            error={searchError}
            onOpen={(h) => p.onOpenHit(h)}
            inputRef={searchRef}
          />
        ) : (
          <>
            {p.listError && <p className="sidebar-note error">{p.listError}</p>}
            {!groups.length && !p.loading && !p.listError && <p className="sidebar-note">No conversations yet.</p>}
            {groups.map((g) => (
              <section key={g.label} className="tgroup" aria-label={g.label}>
                <h2 className="tgroup-label">{g.label}</h2>
                <ul className="tlist">
                  {g.threads.map((t) => (
                    <ThreadItem
                      key={t.id}
                      thread={t}
                      active={t.id === p.activeId}
                      activity={liveActivity(p.activity.get(t.id), p.listedAt)}
                      onOpen={p.onOpen}
                      onRename={p.onRename}
                      onPin={p.onPin}
                      onExport={p.onExport}
                      onDelete={p.onDelete}
                    />
                  ))}
                </ul>
              </section>
            ))}
            {p.hasMore && (
              <button type="button" className="btn subtle small sidebar-more" onClick={p.onLoadMore} disabled={p.loading}>
                {p.loading ? 'Loading…' : 'Show older conversations'}
              </button>
            )}
          </>
        )}
      </nav>
      <div className="sidebar-bottom">
        <button type="button" className="btn subtle sidebar-settings" onClick={p.onSettings} title={`Settings (${MOD},)`}>
          <IconSettings /> Settings
        </button>
        {p.onActivity && (
          <button type="button" className="btn subtle sidebar-settings" onClick={p.onActivity} title={`Activity (${MOD}Shift+L)`}>
            <IconActivity /> Activity
          </button>
        )}
        {p.onShortcuts && (
          <button type="button" className="icon-btn sidebar-shortcuts" onClick={p.onShortcuts} aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)">
            <span aria-hidden="true">?</span>
          </button>
        )}
        {p.connection === 'disconnected' && (
          <span className="sidebar-conn" role="status">
            Reconnecting…
          </span>
        )}
      </div>
    </aside>
  );
}));

import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import type { SearchHit, SearchHitPart } from '../../transport/contract';
import type { Transport } from '../../transport';
import { formatTime } from '../../lib/format';
import { focusSnippet, noteOpenedHit, stripMarkdownParts } from '../../lib/searchText';
import './SearchResults.css';

function Parts({ parts }: { parts: readonly SearchHitPart[] }) {
  return <>{parts.map((p, i) => (p.match ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}</>;
}

/** Who wrote an imported thread's answers, by the thread's source (store.SearchHit.Source). */
const SOURCE_NAMES: Readonly<Record<string, string>> = { chatgpt: 'ChatGPT', claude: 'Claude' };

export function roleLabel(h: Pick<SearchHit, 'role' | 'source'>): string {
  if (h.role === 'assistant') return (h.source && SOURCE_NAMES[h.source]) || 'Juncture';
  return h.role === 'user' ? 'You' : h.role === 'tool' ? 'Tool' : h.role;
}

/** The snippet as shown: Markdown syntax dropped (answers), the first match near the start. */
export function snippetParts(h: SearchHit): SearchHitPart[] {
  return focusSnippet(h.role === 'assistant' ? stripMarkdownParts(h.parts) : h.parts);
}

/**
 * Search finds text on every branch of a thread: before a hit opens, the
 * path through its message becomes the active one if it is not already.
 * Resolves to the error of a refused switch (something waits for an answer
 * on the current version), or null; the thread then opens as it is.
 */
export async function showHitBranch(transport: Transport, hit: SearchHit): Promise<unknown> {
  if (!hit.messageId) return null; // a title hit
  try {
    const v = await transport.call('GetThread', hit.threadId);
    if (v.messages.some((m) => m.id === hit.messageId)) return null;
    await transport.call('SelectBranch', hit.threadId, hit.messageId);
    return null;
  } catch (e) {
    return e;
  }
}

export interface SearchResultsProps {
  query: string;
  hits: readonly SearchHit[];
  loading: boolean;
  error: string | null;
  onOpen: (hit: SearchHit) => void;
  /**
   * The search box: ↓/↑ there move through the hits (the box keeps the focus
   * and names the active hit with aria-activedescendant), Enter opens it.
   */
  inputRef?: RefObject<HTMLInputElement | null>;
}

/** Search hits; snippet parts are `{text, match}` and matches render as <mark> (never innerHTML). */
export function SearchResults({ query, hits, loading, error, onOpen, inputRef }: SearchResultsProps) {
  const id = useId();
  const [active, setActive] = useState(-1);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const open = (h: SearchHit) => {
    if (h.messageId) noteOpenedHit(h);
    onOpen(h);
  };

  // New hits: nothing active until an arrow key.
  useEffect(() => setActive(-1), [hits]);

  // The search box drives the list (a combobox over it).
  const state = useRef({ hits, active, open });
  state.current = { hits, active, open };
  useEffect(() => {
    const box = inputRef?.current;
    if (!box) return;
    const onKey = (e: KeyboardEvent) => {
      const { hits: hs, active: a } = state.current;
      if (!hs.length || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const next = e.key === 'ArrowDown' ? Math.min(hs.length - 1, a + 1) : Math.max(0, a - 1);
        setActive(next);
      } else if (e.key === 'Enter' && !e.isComposing) {
        e.preventDefault();
        const h = hs[a < 0 ? 0 : a];
        if (a < 0) setActive(0);
        if (h) state.current.open(h);
      }
    };
    box.addEventListener('keydown', onKey);
    box.setAttribute('aria-controls', `${id}-list`);
    box.setAttribute('aria-autocomplete', 'list');
    return () => {
      box.removeEventListener('keydown', onKey);
      box.removeAttribute('aria-controls');
      box.removeAttribute('aria-autocomplete');
      box.removeAttribute('aria-activedescendant');
    };
  }, [inputRef, id]);

  // The active hit: named by the box, scrolled into view.
  useEffect(() => {
    const box = inputRef?.current;
    if (active >= 0 && active < hits.length) {
      box?.setAttribute('aria-activedescendant', `${id}-hit-${active}`);
      buttons.current[active]?.scrollIntoView?.({ block: 'nearest' });
    } else box?.removeAttribute('aria-activedescendant');
  }, [active, hits, id, inputRef]);

  // With the focus on a hit, ↓/↑ move it to the next or previous one.
  const onHitKey = (e: React.KeyboardEvent<HTMLButtonElement>, i: number) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const next = e.key === 'ArrowDown' ? Math.min(hits.length - 1, i + 1) : i - 1;
    if (next < 0) {
      inputRef?.current?.focus();
      setActive(-1);
      return;
    }
    setActive(next);
    buttons.current[next]?.focus();
  };

  return (
    <div className="search-results" aria-live="polite" aria-busy={loading || undefined}>
      {error ? (
        <p className="sidebar-note error">{error}</p>
      ) : !hits.length ? (
        <p className="sidebar-note">{loading ? 'Searching…' : `No messages match “${query}”.`}</p>
      ) : (
        <>
          <ul className="search-list" id={`${id}-list`} aria-label={`Search results for ${query}`}>
            {hits.map((h, i) => {
              // A title hit (no message): its parts are the title itself.
              const titleHit = !h.messageId;
              return (
                <li key={`${h.threadId}:${h.messageId}`}>
                  <button
                    type="button"
                    id={`${id}-hit-${i}`}
                    ref={(el) => {
                      buttons.current[i] = el;
                    }}
                    className={`search-hit${i === active ? ' is-active' : ''}`}
                    aria-current={i === active ? 'true' : undefined}
                    onClick={() => {
                      setActive(i);
                      open(h);
                    }}
                    onKeyDown={(e) => onHitKey(e, i)}
                  >
                    <span className="search-hit-head">
                      <span className="search-hit-title">
                        {titleHit && h.parts.length ? <Parts parts={h.parts} /> : h.threadTitle || 'Untitled chat'}
                      </span>
                      <span className="search-hit-time">{formatTime(h.createdAt)}</span>
                    </span>
                    {!titleHit && (
                      <span className="search-hit-snippet">
                        <span className="search-hit-role">{roleLabel(h)}: </span>
                        <Parts parts={snippetParts(h)} />
                      </span>
                    )}
                  </button>
                </li>
              );
            })}
          </ul>
          <p className="search-keys" aria-hidden="true">
            ↑ ↓ to move · Enter to open
          </p>
        </>
      )}
    </div>
  );
}

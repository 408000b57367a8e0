import type { SearchHit } from '../transport/contract';
import { formatTime } from '../lib/format';

export interface SearchResultsProps {
  query: string;
  hits: readonly SearchHit[];
  loading: boolean;
  error: string | null;
  onOpen: (hit: SearchHit) => void;
}

/** Search hits; snippet parts are `{text, match}` and matches render as <mark> (never innerHTML). */
export function SearchResults({ query, hits, loading, error, onOpen }: SearchResultsProps) {
  return (
    <div className="search-results" aria-live="polite" aria-busy={loading || undefined}>
      {error ? (
        <p className="sidebar-note error">{error}</p>
      ) : !hits.length ? (
        <p className="sidebar-note">{loading ? 'Searching…' : `No messages match “${query}”.`}</p>
      ) : (
        <ul className="search-list" aria-label={`Search results for ${query}`}>
          {hits.map((h) => (
            <li key={`${h.threadId}:${h.messageId}`}>
              <button type="button" className="search-hit" onClick={() => onOpen(h)}>
                <span className="search-hit-head">
                  <span className="search-hit-title">{h.threadTitle || 'Untitled chat'}</span>
                  <span className="search-hit-time">{formatTime(h.createdAt)}</span>
                </span>
                <span className="search-hit-snippet">
                  <span className="search-hit-role">{h.role === 'user' ? 'You' : h.role === 'assistant' ? 'Juncture' : h.role}: </span>
                  {h.parts.map((p, i) => (p.match ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

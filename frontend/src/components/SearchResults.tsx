import type { SearchHit, SearchHitPart } from '../transport/contract';
import { formatTime } from '../lib/format';
import { stripMarkdownParts } from '../lib/searchText';

function Parts({ parts }: { parts: readonly SearchHitPart[] }) {
  return <>{parts.map((p, i) => (p.match ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}</>;
}

function roleLabel(role: SearchHit['role']): string {
  return role === 'user' ? 'You' : role === 'assistant' ? 'Juncture' : role === 'tool' ? 'Tool' : role;
}

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
          {hits.map((h) => {
            // A title hit (no message): its parts are the title itself.
            const titleHit = !h.messageId;
            return (
              <li key={`${h.threadId}:${h.messageId}`}>
                <button type="button" className="search-hit" onClick={() => onOpen(h)}>
                  <span className="search-hit-head">
                    <span className="search-hit-title">
                      {titleHit && h.parts.length ? <Parts parts={h.parts} /> : h.threadTitle || 'Untitled chat'}
                    </span>
                    <span className="search-hit-time">{formatTime(h.createdAt)}</span>
                  </span>
                  {!titleHit && (
                    <span className="search-hit-snippet">
                      <span className="search-hit-role">{roleLabel(h.role)}: </span>
                      <Parts parts={h.role === 'assistant' ? stripMarkdownParts(h.parts) : h.parts} />
                    </span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

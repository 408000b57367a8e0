package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	sqlite3 "modernc.org/sqlite/lib"

	"github.com/juncture-app/juncture/store/importers"
)

// Search limits and tuning (measured on 1,000,000 messages; see
// bench_test.go).
const (
	DefaultSearchLimit = 20
	MaxSearchLimit     = 200

	// rankWindow bounds the bm25 work: only the newest rankWindow messages
	// matching the query are ranked (a rare word has fewer matches: all of
	// them are ranked). titleWindow does the same for titles.
	rankWindow  = 1000
	titleWindow = 200

	// bm25 first counts, for every term, all the messages containing it
	// (its IDF), whatever the LIMIT: about 50 ns a message, 50 ms for a
	// word in nearly every message of a million. When the terms' estimated
	// message counts add up to more than bm25Budget, relevance is not worth
	// that cost (such words rank nothing apart) and hits are newest first.
	bm25Budget = 100_000
	probeDepth = 256

	// DefaultPrefixBudget is how long a search may spend on the implicit
	// prefix of a word still being typed (a 4+ letter prefix of a very
	// common word merges large doclists) before it settles for the word's
	// first 3 letters, which the prefix index serves at once; and on a
	// prefix of 1 or 2 letters ("t*", no prefix index) before it settles
	// for the word itself.
	DefaultPrefixBudget = 60 * time.Millisecond

	// DefaultSearchBudget is how long one search may take in all. Every
	// kind measured stays far below it (p95 under 10 ms at 10,000,000
	// messages), but a pasted run of 32 common words that no message holds
	// together took 5 s there, on a reader the window needs, and a binding
	// has no way to cancel a search it no longer wants: past the budget the
	// search gives up with ErrSearchTooBroad, which the person can act on.
	DefaultSearchBudget = 2 * time.Second
)

// Snippet highlight markers: private-use characters, split into
// SnippetParts so the UI never has to render markup.
const (
	markOpen  = '\uE000'
	markClose = '\uE001'
)

// SnippetPart is a piece of a search hit's snippet; Match parts are the
// words that matched.
type SnippetPart struct {
	Text  string `json:"text"`
	Match bool   `json:"match"`
}

// SearchHit is one search result: a message, or a thread title (MessageID
// and Role empty).
type SearchHit struct {
	ThreadID    string        `json:"threadId"`
	ThreadTitle string        `json:"threadTitle"`
	MessageID   string        `json:"messageId"`
	Role        string        `json:"role"`
	Parts       []SnippetPart `json:"parts"`
	CreatedAt   int64         `json:"createdAt"` // the message's, or the thread's for a title hit
	// Rank is the FTS5 bm25 score (lower is better), or 0 when the hits
	// are ordered newest first because the words are too common to rank.
	Rank float64 `json:"rank"`
	// Source names where an imported thread came from ("chatgpt",
	// "claude"), so the window labels its answers by their author; empty
	// for Juncture's own.
	Source string `json:"source,omitempty"`
}

// SearchHistory searches message text (user, assistant and tool results)
// and thread titles. Any text a person can type is accepted (see
// parseQuery for what it understands); text with nothing searchable
// returns no hits and no error. limit <= 0 means DefaultSearchLimit.
//
// Title hits come first (at most a quarter of limit, at least one), then
// message hits. Hits are ranked by bm25 among the newest matches
// (rankWindow). Message hits are newest first instead when the words are
// so common that bm25 would cost more than it tells (bm25Budget), or when
// a word is matched as a prefix of more than 3 letters (typically the word
// still being typed).
func (db *DB) SearchHistory(ctx context.Context, query string, limit int) ([]SearchHit, error) {
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	limit = min(limit, MaxSearchLimit)
	q := parseQuery(query)
	if q.match == "" {
		return []SearchHit{}, nil
	}
	sctx := ctx
	if db.searchBudget > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, db.searchBudget)
		defer cancel()
	}
	hits, err := db.search(sctx, q, limit)
	if err != nil {
		if ctx.Err() == nil && sctx.Err() != nil && stoppedByContext(err) {
			err = ErrSearchTooBroad // the budget ran out, not the caller's context
		}
		return nil, fmt.Errorf("store: search history for %q: %w", query, err)
	}
	return hits, nil
}

// stoppedByContext reports whether err is what a query gives when its
// context ends (the context's own error, or SQLite's interrupt). Any other
// error that happens to come back after the budget ran out (a corrupt
// page, a full disk) is told as itself, not as a search too broad.
func stoppedByContext(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || sqliteCode(err) == sqlite3.SQLITE_INTERRUPT
}

func (db *DB) search(ctx context.Context, q searchQuery, limit int) ([]SearchHit, error) {
	if q.fallback != nil && db.prefixBudget > 0 {
		pctx, cancel := context.WithTimeout(ctx, db.prefixBudget)
		hits, err := db.searchOnce(pctx, q, limit)
		cancel()
		if err == nil || ctx.Err() != nil || pctx.Err() == nil {
			return hits, err
		}
		q = *q.fallback // over budget: see searchQuery.fallback
	}
	return db.searchOnce(ctx, q, limit)
}

func (db *DB) searchOnce(ctx context.Context, q searchQuery, limit int) ([]SearchHit, error) {
	hits := []SearchHit{}
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		titles, err := searchTitles(ctx, tx, q, max(1, limit/4))
		if err != nil {
			return err
		}
		files, err := searchAttachments(ctx, tx, q, max(1, limit/4))
		if err != nil {
			return err
		}
		msgs, err := db.searchMessages(ctx, tx, q, limit-len(titles)-len(files))
		if err != nil {
			return err
		}
		hits = append(append(hits, titles...), msgs...)
		seen := make(map[string]bool, len(msgs))
		for _, h := range msgs {
			seen[h.MessageID] = true
		}
		for _, h := range files {
			if !seen[h.MessageID] {
				hits = append(hits, h)
			}
		}
		for i := range hits {
			hits[i].Source = importers.SourceOf(hits[i].ThreadID)
		}
		return nil
	})
	return hits, err
}

// windowFloor returns the rowid of the n-th newest row of table matching
// match, or 0 when fewer rows match. FTS5 walks the doclists backwards and
// stops there, so this is cheap however common the words are.
func windowFloor(ctx context.Context, tx *sql.Tx, table, match string, n int) (int64, error) {
	var floor int64
	err := tx.QueryRowContext(ctx, "SELECT rowid FROM "+table+" WHERE "+table+
		" MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?", match, n-1).Scan(&floor)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return floor, err
}

// tooCommonToRank estimates, from the density of its newest matches, how
// many messages contain each term, and reports whether bm25's IDF pass
// over them would exceed bm25Budget.
func tooCommonToRank(ctx context.Context, tx *sql.Tx, phrases []string, budget float64) (bool, error) {
	var maxSeq int64
	if err := tx.QueryRowContext(ctx, "SELECT coalesce(max(seq), 0) FROM messages").Scan(&maxSeq); err != nil {
		return false, err
	}
	total := 0.0
	for _, p := range phrases {
		floor, err := windowFloor(ctx, tx, "messages_fts", p, probeDepth)
		if err != nil {
			return false, err
		}
		if floor == 0 {
			total += probeDepth
		} else {
			total += probeDepth * float64(maxSeq) / float64(maxSeq-floor+1)
		}
		if total > budget {
			return true, nil
		}
	}
	return false, nil
}

func searchTitles(ctx context.Context, tx *sql.Tx, q searchQuery, limit int) ([]SearchHit, error) {
	floor, err := windowFloor(ctx, tx, "threads_fts", q.match, titleWindow)
	if err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `
SELECT t.id, t.title, t.created_at, h.snip, h.r
FROM (SELECT rowid, bm25(threads_fts) AS r, highlight(threads_fts, 0, char(57344), char(57345)) AS snip
      FROM threads_fts WHERE threads_fts MATCH ? AND rowid >= ? ORDER BY r LIMIT ?) AS h
JOIN threads AS t ON t.seq = h.rowid
ORDER BY h.r`, q.match, floor, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var hits []SearchHit
	for rows.Next() {
		var h SearchHit
		var snip string
		if err := rows.Scan(&h.ThreadID, &h.ThreadTitle, &h.CreatedAt, &snip, &h.Rank); err != nil {
			return nil, err
		}
		h.Parts = snippetParts(snip)
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

const snippetSQL = "snippet(messages_fts, 0, char(57344), char(57345), '…', 24)"

func (db *DB) searchMessages(ctx context.Context, tx *sql.Tx, q searchQuery, limit int) ([]SearchHit, error) {
	if limit <= 0 {
		return nil, nil
	}
	// A long prefix would be merged again by every query below (probe,
	// window, bm25's IDF pass): list its hits newest first, from its
	// first 3 letters' matches when they tell (see narrowing), else in one
	// query.
	recency := q.longPrefix
	if q.narrow != nil && db.narrowScan > 0 {
		hits, ok, err := searchNarrowed(ctx, tx, q.narrow, limit, db.narrowScan, db.narrowBytes)
		if ok || err != nil {
			return hits, err
		}
	}
	if !recency {
		var err error
		if recency, err = tooCommonToRank(ctx, tx, q.phrases, db.rankBudget); err != nil {
			return nil, err
		}
	}
	// Snippets are computed in the FTS5 scan itself: looking hits up again
	// by rowid would repeat any prefix expansion once per hit.
	var inner string
	args := []any{q.match}
	if recency {
		inner = `SELECT rowid, 0.0 AS r, ` + snippetSQL + ` AS snip
      FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT ?`
	} else {
		floor, err := windowFloor(ctx, tx, "messages_fts", q.match, rankWindow)
		if err != nil {
			return nil, err
		}
		// bm25() rather than FTS5's rank column: ORDER BY rank makes FTS5
		// rank every match, ignoring the rowid window.
		inner = `SELECT rowid, bm25(messages_fts) AS r, ` + snippetSQL + ` AS snip
      FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY r LIMIT ?`
		args = append(args, floor)
	}
	args = append(args, limit)
	rows, err := tx.QueryContext(ctx, `
SELECT m.id, m.thread_id, t.title, m.role, m.created_at, h.snip, h.r
FROM (`+inner+`) AS h
JOIN messages AS m ON m.seq = h.rowid
JOIN threads AS t ON t.id = m.thread_id
ORDER BY h.r, h.rowid DESC`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var hits []SearchHit
	for rows.Next() {
		var h SearchHit
		var snip string
		if err := rows.Scan(&h.MessageID, &h.ThreadID, &h.ThreadTitle, &h.Role, &h.CreatedAt, &snip, &h.Rank); err != nil {
			return nil, err
		}
		h.Parts = snippetParts(snip)
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

// searchAttachments finds messages by the name or the text of a file they
// carry (schema v6): one hit per message, best match first.
func searchAttachments(ctx context.Context, tx *sql.Tx, q searchQuery, limit int) ([]SearchHit, error) {
	if limit <= 0 {
		return nil, nil
	}
	rows, err := tx.QueryContext(ctx, `
SELECT m.id, m.thread_id, t.title, m.role, m.created_at, h.name, h.snip, min(h.r)
FROM (SELECT rowid, name, bm25(attachments_fts) AS r,
             snippet(attachments_fts, -1, char(57344), char(57345), '…', 24) AS snip
      FROM attachments_fts WHERE attachments_fts MATCH ? ORDER BY rowid DESC LIMIT ?) AS h
JOIN message_attachments AS a ON a.seq = h.rowid
JOIN messages AS m ON m.id = a.message_id
JOIN threads AS t ON t.id = m.thread_id
GROUP BY m.id
ORDER BY min(h.r), m.seq DESC LIMIT ?`, q.match, rankWindow, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var hits []SearchHit
	for rows.Next() {
		var h SearchHit
		var name, snip string
		if err := rows.Scan(&h.MessageID, &h.ThreadID, &h.ThreadTitle, &h.Role, &h.CreatedAt, &name, &snip, &h.Rank); err != nil {
			return nil, err
		}
		parts := snippetParts(snip)
		var plain strings.Builder
		for _, p := range parts {
			plain.WriteString(p.Text)
		}
		if plain.String() != name {
			// A match in the file's text: say which file it is in.
			parts = append([]SnippetPart{{Text: name + ": "}}, parts...)
		}
		h.Parts = parts
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

// snippetParts splits FTS5 snippet output on the highlight markers.
func snippetParts(s string) []SnippetPart {
	parts := []SnippetPart{}
	var cur strings.Builder
	match := false
	flush := func() {
		if cur.Len() == 0 {
			return
		}
		if n := len(parts); n > 0 && parts[n-1].Match == match {
			parts[n-1].Text += cur.String()
		} else {
			parts = append(parts, SnippetPart{Text: cur.String(), Match: match})
		}
		cur.Reset()
	}
	for _, r := range s {
		switch r {
		case markOpen:
			flush()
			match = true
		case markClose:
			flush()
			match = false
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return parts
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// Search limits.
const (
	DefaultSearchLimit = 20
	MaxSearchLimit     = 200

	// rankWindow bounds the work a search does for a very common word: only
	// the newest rankWindow matching messages are ranked by bm25. A rarer
	// word (fewer matches) is ranked over all of them.
	rankWindow = 2000
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
	Rank        float64       `json:"rank"`      // FTS5 bm25: lower is a better match
}

// SearchHistory searches message text (user, assistant and tool results)
// and thread titles. Any text a person can type is accepted (see ftsQuery
// for what it understands); text with nothing searchable returns no hits
// and no error. limit <= 0 means DefaultSearchLimit.
//
// Title hits come first (at most a quarter of limit, at least one), then
// message hits, each ranked by bm25. For speed on large histories, message
// ranking considers the newest rankWindow matching messages.
func (db *DB) SearchHistory(ctx context.Context, query string, limit int) ([]SearchHit, error) {
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	limit = min(limit, MaxSearchLimit)
	match := ftsQuery(query)
	if match == "" {
		return []SearchHit{}, nil
	}
	var hits []SearchHit
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		titles, err := searchTitles(ctx, tx, match, max(1, limit/4))
		if err != nil {
			return err
		}
		msgs, err := searchMessages(ctx, tx, match, limit-len(titles))
		if err != nil {
			return err
		}
		hits = append(titles, msgs...)
		return nil
	})
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("store: search history: %w", err)
		}
		return nil, fmt.Errorf("store: search history for %q: %w", query, err)
	}
	if hits == nil {
		hits = []SearchHit{}
	}
	return hits, nil
}

func searchTitles(ctx context.Context, tx *sql.Tx, match string, limit int) ([]SearchHit, error) {
	rows, err := tx.QueryContext(ctx, `
SELECT t.id, t.title, t.created_at, h.snip, h.rank
FROM (SELECT rowid, rank, highlight(threads_fts, 0, char(57344), char(57345)) AS snip
      FROM threads_fts WHERE threads_fts MATCH ? ORDER BY rank LIMIT ?) AS h
JOIN threads AS t ON t.seq = h.rowid
ORDER BY h.rank`, match, limit)
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

func searchMessages(ctx context.Context, tx *sql.Tx, match string, limit int) ([]SearchHit, error) {
	if limit <= 0 {
		return nil, nil
	}
	// The rowid (= insertion order) of the rankWindow-th newest match:
	// FTS5 walks a doclist backwards by rowid and stops there, so this is
	// cheap however common the words are.
	var floor int64
	err := tx.QueryRowContext(ctx, `SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?
ORDER BY rowid DESC LIMIT 1 OFFSET ?`, match, rankWindow-1).Scan(&floor)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `
SELECT m.id, m.thread_id, t.title, m.role, m.created_at, h.snip, h.rank
FROM (SELECT rowid, rank, snippet(messages_fts, 0, char(57344), char(57345), '…', 24) AS snip
      FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY rank LIMIT ?) AS h
JOIN messages AS m ON m.seq = h.rowid
JOIN threads AS t ON t.id = m.thread_id
ORDER BY h.rank`, match, floor, limit)
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

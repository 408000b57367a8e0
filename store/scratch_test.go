package store

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

func TestScratchTiming(t *testing.T) {
	path := os.Getenv("SCRATCH_DB")
	if path == "" {
		t.Skip()
	}
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.w.Exec("CREATE VIRTUAL TABLE IF NOT EXISTS messages_vocab USING fts5vocab(messages_fts, 'row')")
	timeq := func(name, q string, args ...any) {
		for range 3 {
			start := time.Now()
			rows, err := db.r.Query(q, args...)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for rows.Next() {
				n++
			}
			rows.Close()
			t.Logf("%-30s %3d rows %v", name, n, time.Since(start))
		}
	}
	var maxRow int64
	db.r.QueryRow("SELECT max(seq) FROM messages").Scan(&maxRow)
	for _, m := range []string{`("return")`, `("error" "file")`, `("retu" *)`, `("kalo" *)`} {
		var floor int64
		db.r.QueryRow("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET 999", m).Scan(&floor)
		timeq("count window "+m, "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ?", m, floor)
		timeq("bm25 window "+m, "SELECT rowid, bm25(messages_fts) b FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY b LIMIT 20", m, floor)
		timeq("bm25+snip window "+m, "SELECT rowid, bm25(messages_fts) b, snippet(messages_fts, 0, '[', ']', '…', 24) FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY b LIMIT 20", m, floor)
		timeq("recency+snip "+m, "SELECT rowid, snippet(messages_fts, 0, '[', ']', '…', 24) FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT 20", m)
		timeq("probe256 "+m, "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET 255", m)
	}
	_ = strings.Trim
}

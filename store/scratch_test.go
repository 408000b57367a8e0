package store

import (
	"context"
	"os"
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
	m := `("the")`
	timeq("count", "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?", m)
	timeq("floor desc", "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET 1999", m)
	timeq("asc limit", "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? LIMIT 2000", m)
	var floor int64
	db.r.QueryRow("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET 1999", m).Scan(&floor)
	t.Logf("floor %d", floor)
	timeq("range rowid only", "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ?", m, floor)
	timeq("range rank", "SELECT rowid, rank FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY rank LIMIT 20", m, floor)
	timeq("range bm25", "SELECT rowid, bm25(messages_fts) b FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY b LIMIT 20", m, floor)
	timeq("range rank snippet", "SELECT rowid, rank, snippet(messages_fts, 0, '[', ']', '…', 24) FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY rank LIMIT 20", m, floor)
	timeq("titles", "SELECT rowid, rank, highlight(threads_fts, 0, '[', ']') FROM threads_fts WHERE threads_fts MATCH ? ORDER BY rank LIMIT 5", m)
	rows, _ := db.r.Query("EXPLAIN QUERY PLAN SELECT rowid, rank FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY rank LIMIT 20", m, floor)
	for rows.Next() {
		var a, b, c int
		var d string
		rows.Scan(&a, &b, &c, &d)
		t.Log(d)
	}
	rows.Close()
}

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
	for _, m := range []string{`("ret" *)`, `("return")`, `("retu" *)`, `("error" "ret" *)`, `("the")`} {
		timeq("floor "+m, "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET 1999", m)
		timeq("recent50k "+m, "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY rowid DESC LIMIT 1 OFFSET 1999", m, maxRow-50000)
		timeq("bm25 recent50k "+m, "SELECT rowid, bm25(messages_fts) b FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY b LIMIT 20", m, maxRow-5000)
		timeq("vocab "+m, "SELECT doc FROM messages_vocab WHERE term = ?", strings.Trim(m, `("*) `))
	}
	m := `("the")`
	rows, _ := db.r.Query("EXPLAIN QUERY PLAN SELECT rowid, rank FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT 20", m)
	for rows.Next() {
		var a, b, c int
		var d string
		rows.Scan(&a, &b, &c, &d)
		t.Log(d)
	}
	rows.Close()
}

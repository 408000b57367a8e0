package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestGenerateIndexesAsTriggersDo: the search corpus generate builds the
// fast way (many rows a statement, the insert triggers dropped, the
// full-text indexes built by FTS5's 'rebuild') is the one the app's own
// writes make: a build of the same rows a statement each, through the
// triggers, has the same schema, rows, FTS configuration and index
// entries, FTS5's integrity-check (prefix index included) passes, and
// every kind of search returns the same hits.
func TestGenerateIndexesAsTriggersDo(t *testing.T) {
	t.Parallel()
	const total, threads, big = 400, 12, 60 // small: SQLite is slow under -race
	dir := t.TempDir()
	fast := mustOpen(t, context.Background(), filepath.Join(dir, "fast.db"))
	defer fast.Close()
	if _, _, err := generateCorpus(fast, total, threads, big); err != nil {
		t.Fatal(err)
	}
	slow := mustOpen(t, context.Background(), filepath.Join(dir, "slow.db"))
	defer slow.Close()
	if err := generateByTriggers(slow, total, threads, big); err != nil {
		t.Fatal(err)
	}
	for _, db := range []*DB{fast, slow} {
		db.prefixBudget = 0 // no timing under -race
		db.searchBudget = 0
		for _, tbl := range []string{"messages_fts", "threads_fts"} {
			if _, err := db.w.Exec("INSERT INTO " + tbl + " (" + tbl + ", rank) VALUES ('integrity-check', 1)"); err != nil {
				t.Fatalf("%s integrity-check: %v", tbl, err)
			}
		}
	}
	for _, q := range []string{
		"SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name",
		"SELECT k, v FROM messages_fts_config ORDER BY k",
		"SELECT k, v FROM threads_fts_config ORDER BY k",
		"SELECT * FROM threads ORDER BY seq",
		"SELECT * FROM messages ORDER BY seq",
		"SELECT * FROM messages_fts_docsize ORDER BY id",
		"SELECT * FROM threads_fts_docsize ORDER BY id",
	} {
		a, b := dump(t, fast.w, q), dump(t, slow.w, q)
		if len(a) == 0 || !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: fast build has %d rows, by triggers %d, first difference %s", q, len(a), len(b), firstDiff(a, b))
		}
	}
	// Every index entry (term, row, column, offset) of both indexes.
	for _, tbl := range []string{"messages_fts", "threads_fts"} {
		var entries [2][]string
		for i, db := range []*DB{fast, slow} {
			if _, err := db.w.Exec("CREATE VIRTUAL TABLE temp.v_" + tbl + " USING fts5vocab(main, " + tbl + ", instance)"); err != nil {
				t.Fatal(err)
			}
			entries[i] = dump(t, db.w, "SELECT term, doc, col, offset FROM temp.v_"+tbl+" ORDER BY term, doc, offset")
		}
		if len(entries[0]) == 0 || !reflect.DeepEqual(entries[0], entries[1]) {
			t.Fatalf("%s: %d index entries fast, %d by triggers, first difference %s", tbl, len(entries[0]), len(entries[1]), firstDiff(entries[0], entries[1]))
		}
	}
	vocab := vocabulary()
	queries := []string{benchCommonWord + " ", "like ", vocab[150] + " ", "file error ",
		"fun", "func", "function", "error ret", vocab[500][:4], `"the file"`, "the -error ", "code OR data ", "ka*"}
	for _, limit := range []int{20, MaxSearchLimit} {
		for _, q := range queries {
			a, err := fast.SearchHistory(context.Background(), q, limit)
			if err != nil {
				t.Fatal(err)
			}
			b, err := slow.SearchHistory(context.Background(), q, limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(a) == 0 || !reflect.DeepEqual(a, b) {
				t.Errorf("search %q (limit %d): %d hits fast, %d by triggers", q, limit, len(a), len(b))
			}
		}
	}
}

// generateByTriggers builds the history generateCorpus builds the way the
// app writes it: a row a statement, each indexed by its insert trigger,
// foreign keys checked, FTS5 at its default settings.
func generateByTriggers(db *DB, total, threads, big int) error {
	ctx := context.Background()
	rows := make(chan []corpusRow, 1)
	go func() {
		defer close(rows)
		produceCorpus(ctx, total, threads, big, rows)
	}()
	last := map[string][2]any{}
	for batch := range rows {
		if err := db.writeTx(ctx, func(tx *sql.Tx) error { return insertCorpus(ctx, tx, batch, 1, last) }); err != nil {
			return err
		}
	}
	return db.writeTx(ctx, func(tx *sql.Tx) error { return finishCorpus(ctx, tx, last) })
}

// dump returns every row of q, each formatted as one string.
func dump(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, v := range vals {
			fmt.Fprintf(&b, "%v|", v)
		}
		out = append(out, b.String())
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("at %d: %.200q vs %.200q", i, a[i], b[i])
		}
	}
	return "in length"
}

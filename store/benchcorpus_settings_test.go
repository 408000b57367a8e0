package store

import (
	"context"
	"path/filepath"
	"testing"
)

// TestGenerateGivesTheWriterItsSettingsBack: the bulk load's pragmas are
// the load's only. The benchmarks that time the app's writes on a
// generated corpus (BenchmarkPutMessageAppend, the search scale) must run
// with the writer the app has: when the writer's page cache went from
// 16 MiB to SQLite's default 2 MiB (db.go), generate still "restored" it
// to 16 MiB, so the append timings quoted for 2 MiB measured 16 MiB.
func TestGenerateGivesTheWriterItsSettingsBack(t *testing.T) {
	t.Parallel()
	db := mustOpen(t, context.Background(), filepath.Join(t.TempDir(), "gen.db"))
	defer db.Close()
	pragmas := []string{"cache_size", "synchronous", "foreign_keys", "temp_store"}
	before := map[string]string{}
	for _, p := range pragmas {
		var v string
		if err := db.w.QueryRow("PRAGMA " + p).Scan(&v); err != nil {
			t.Fatal(err)
		}
		before[p] = v
	}
	if before["cache_size"] != "-500" {
		t.Fatalf("a new writer's cache_size = %s, want -500 (db.go)", before["cache_size"])
	}
	if _, _, err := generateCorpus(db, 200, 6, 30); err != nil {
		t.Fatal(err)
	}
	for _, p := range pragmas {
		var got string
		if err := db.w.QueryRow("PRAGMA " + p).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != before[p] {
			t.Errorf("after generate: PRAGMA %s = %s, the writer had %s", p, got, before[p])
		}
	}
}

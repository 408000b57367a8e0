package store

import (
	"fmt"
	"strings"
	"testing"

	"modernc.org/sqlite"

	"github.com/juncture-app/juncture/agent/history"
)

// The writer keeps a small page cache (db.go, "The page caches"): over a
// day of turns SQLite's default 2 MiB filled up and, at 8 KiB of the
// process per 4 KiB page, was ~4 MiB of the app's memory that the soak saw
// as growth (issue 26). Whatever the writes touched, the writer's cache
// stays at its cap once the database is larger than it.
func TestWriterPageCacheStaysSmall(t *testing.T) {
	text := strings.Repeat("the quick brown fox jumps over the lazy dog with words to index ", 30)
	// maxCache is cache_size(-500) with SQLite's own accounting on top (a
	// page's header and the pager): what the writes below touch is ~5 MiB,
	// which the default 2 MiB cache keeps 2 MiB of.
	const maxCache = 640 << 10
	tests := []struct {
		name  string
		write func(t *testing.T, db *DB, n int)
	}{
		{"one message at a time", func(t *testing.T, db *DB, n int) {
			for i := range n {
				m := history.Message{ID: newID(), ThreadID: "t1", Role: history.RoleAssistant, Content: fmt.Sprint(i, text), Status: history.StatusComplete, CreatedAt: int64(i)}
				if err := db.PutMessage(t.Context(), m); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"batches", func(t *testing.T, db *DB, n int) {
			for b := range n / 100 {
				msgs := make([]history.Message, 100)
				for i := range msgs {
					msgs[i] = history.Message{ID: newID(), ThreadID: "t1", Role: history.RoleUser, Content: fmt.Sprint(b, i, text), Status: history.StatusComplete, CreatedAt: int64(b*100 + i)}
				}
				if err := db.PutMessages(t.Context(), msgs); err != nil {
					t.Fatal(err)
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, _ := openFixture(t, "t1")
			tt.write(t, db, 1000)
			if used := writerStatus(t, db, sqlite.DBStatusCacheUsed); used > maxCache {
				t.Errorf("the writer's page cache holds %d KiB after the writes, want at most %d KiB", used>>10, maxCache>>10)
			}
		})
	}
}

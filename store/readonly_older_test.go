package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/juncture-app/juncture/internal/testkit/dbdamage"
)

// TestReadOnlyCopyOfDamagedOlderDatabase: a database of an older schema is
// checked in full before its migration, so the damage is found before it
// is migrated, and the person is offered a read-only copy of the file as
// it is: the old schema. The copy must still read its chats (as the
// current schema), instead of failing every read ("no such column"),
// also when the damage stops one of the migrations (v8 rebuilds the
// permission rules).
func TestReadOnlyCopyOfDamagedOlderDatabase(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ fx, table string }{{fixtureV1, "settings"}, {fixtureV4, "settings"}, {fixtureV4, "permission_rules"}} {
		fx := c.fx
		t.Run(filepath.Base(fx)+"/"+c.table, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "juncture.db")
			b, err := os.ReadFile(fx)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			damageRoot(t, path, c.table)
			if _, err := Open(ctx, path); err == nil {
				t.Fatal("the damaged database opened")
			}
			ro, _, err := OpenReadOnlyCopy(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			page, err := ro.ListThreads(ctx, "", 10)
			if err != nil || len(page.Threads) == 0 {
				t.Fatalf("ListThreads = %+v, %v", page, err)
			}
			id := page.Threads[0].ID
			if _, err := ro.Thread(ctx, id); err != nil {
				t.Errorf("Thread(%s): %v", id, err)
			}
			if ms, err := ro.Messages(ctx, id); err != nil || len(ms) == 0 {
				t.Errorf("Messages(%s) = %d, %v", id, len(ms), err)
			}
		})
	}
}

// damageRoot gives a table's root page an invalid b-tree page type.
func damageRoot(t *testing.T, path, table string) {
	t.Helper()
	if err := dbdamage.BreakTable(context.Background(), path, table); err != nil {
		t.Fatal(err)
	}
}

package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestReadOnlyCopyWithGarbageWAL: a damaged database whose -wal is junk
// (no WAL header) or a WAL header over garbage frames still opens as a
// read-only copy holding what the file holds, and the original is never
// written (the copy is migrated and checkpointed in its own folder).
func TestReadOnlyCopyWithGarbageWAL(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "juncture.db")
	db := mustOpen(t, ctx, path)
	mustThread(t, db, "t1", "Survivor")
	mustPut(t, db, userMsg("t1", "m1", "still readable"))
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	damageRoot(t, path, "settings")
	for name, wal := range map[string][]byte{
		"junk":   bytes.Repeat([]byte("not a wal "), 1000),
		"header": append([]byte{0x37, 0x7f, 0x06, 0x82, 0, 0x2d, 0xe2, 0x18, 0, 0, 0x10, 0}, bytes.Repeat([]byte{0xff}, 8000)...),
	} {
		if err := os.WriteFile(path+"-wal", wal, 0o600); err != nil {
			t.Fatal(err)
		}
		before, _ := os.ReadFile(path)
		ro, _, err := OpenReadOnlyCopy(ctx, path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := ids(mustMessages(t, ro, "t1")); got != "m1" {
			t.Errorf("%s: messages %q", name, got)
		}
		ro.Close()
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Errorf("%s: the original changed", name)
		}
	}
}

package secrets

import (
	"bytes"
	"context"
	"database/sql"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/juncture-app/juncture/internal/testkit"
	"github.com/juncture-app/juncture/store"
)

// holdBusy holds an exclusive lock on the SQLite file at path (another
// process writing it) until the test ends. The only SQL of this package:
// a lock the store offers no operation for.
func holdBusy(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = conn.ExecContext(context.Background(), "ROLLBACK")
		conn.Close()
		db.Close()
	})
}

// TestBackupIsDeletedOnlyWhenKnownToHoldAKey: real SQLite backups next to
// a real database; a busy one, with or without keys, is kept and cleared
// later; one that is not a database is deleted only when it holds a key
// this vault knows (issue 19, defect 14).
func TestBackupIsDeletedOnlyWhenKnownToHoldAKey(t *testing.T) {
	ctx := context.Background()
	const key = "sk-backup-known-KKKK1111"
	dir := t.TempDir()
	path := filepath.Join(dir, "juncture.db")
	testkit.CopyFile(t, "../../store/testdata/v4.db", path)
	if err := store.WriteSettingsFile(ctx, path, map[string]string{"apiKey": key, "model": "m"}); err != nil {
		t.Fatal(err)
	}
	noKeys, withKeys := path+".pre-v2.bak", path+".pre-v3.bak"
	testkit.CopyFile(t, "../../store/testdata/v4.db", noKeys)
	testkit.CopyFile(t, "../../store/testdata/v4.db", withKeys)
	if err := store.WriteSettingsFile(ctx, withKeys, map[string]string{"apiKey": key}); err != nil {
		t.Fatal(err)
	}
	junkNoKey, junkKey := path+".pre-v6.bak", path+".pre-v7.bak"
	if err := os.WriteFile(junkNoKey, []byte("not a database, no key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(junkKey, []byte("not a database "+key), 0o600); err != nil {
		t.Fatal(err)
	}
	noKeysBefore, _ := os.ReadFile(noKeys)

	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st := NewFileStore(filepath.Join(t.TempDir(), "secrets.json"))
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))

	t.Run("busy", func(t *testing.T) {
		holdBusy(t, noKeys)
		holdBusy(t, withKeys)
		if _, err := Open(ctx, db, st, KeyStorage{Kind: "file"}, true, log); err != nil {
			t.Fatal(err)
		}
	})
	for _, p := range []string{noKeys, withKeys, junkNoKey} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s was deleted: %v\n%s", filepath.Base(p), err, logs.String())
		}
	}
	if _, err := os.Stat(junkKey); err == nil {
		t.Fatal("the unreadable backup holding a known key is still there")
	}
	if b, _ := os.ReadFile(noKeys); !bytes.Equal(b, noKeysBefore) {
		t.Fatal("the busy backup without keys was changed")
	}
	// The next start, nothing busy: the keys leave the backup.
	if _, err := Open(ctx, db, st, KeyStorage{Kind: "file"}, true, log); err != nil {
		t.Fatal(err)
	}
	m, err := store.ReadSettingsFile(ctx, withKeys)
	if err != nil || m["apiKey"] != "" {
		t.Fatalf("the backup still holds its key: %q, %v", m["apiKey"], err)
	}
	if b, _ := os.ReadFile(withKeys); bytes.Contains(b, []byte(key)) {
		t.Fatal("the backup's bytes still hold the key")
	}
	if b, _ := os.ReadFile(noKeys); !bytes.Equal(b, noKeysBefore) {
		t.Fatal("the backup without keys was changed")
	}
	if bytes.Contains(logs.Bytes(), []byte(key)) {
		t.Fatal("the log holds the key")
	}
}

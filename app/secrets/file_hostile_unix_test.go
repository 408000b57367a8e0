//go:build unix

package secrets

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/internal/testkit"
	"github.com/juncture-app/juncture/store"
)

// TestFileStoreRefusesAKeysFileThatIsNotOne: the keys file is read while
// the app starts. A FIFO at its path held the start forever in open, a
// device (here /dev/null, as a terminal would be) was read as an empty
// file of keys, and a huge file was read whole into memory. Each is
// refused at once, with the path and why, and nothing is written over it.
func TestFileStoreRefusesAKeysFileThatIsNotOne(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo", "secrets.json")
	if err := os.MkdirAll(filepath.Dir(fifo), 0o700); err != nil {
		t.Fatal(err)
	}
	testkit.Fifo(t, fifo)
	device := filepath.Join(dir, "device", "secrets.json")
	if err := os.MkdirAll(filepath.Dir(device), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(os.DevNull, device); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge", "secrets.json")
	if err := os.MkdirAll(filepath.Dir(huge), 0o700); err != nil {
		t.Fatal(err)
	}
	testkit.SparseFile(t, huge, 64<<20)
	for _, c := range []struct{ path, why string }{
		{fifo, "not a regular file"},
		{device, "not a regular file"},
		{huge, "larger than"},
	} {
		s := NewFileStore(c.path)
		err := testkit.ReturnsWithin(t, "Get("+c.path+")", fifo, func() error { _, err := s.Get("acct"); return err })
		if err == nil || !strings.Contains(err.Error(), "reading "+c.path+": ") || !strings.Contains(err.Error(), c.why) {
			t.Errorf("Get at %s = %v, want it refused (%q)", c.path, err, c.why)
		}
		err = testkit.ReturnsWithin(t, "Set("+c.path+")", fifo, func() error { return s.Set("acct", "sk-1") })
		if err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("Set at %s = %v, want it refused (%q)", c.path, err, c.why)
		}
	}
	if fi, err := os.Lstat(device); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link at the keys path was replaced: %v, %v", fi, err)
	}
}

// TestScrubBackupsPassesAFIFONamedLikeABackup: at start the vault clears
// keys from the database's migration backups, and a backup SQLite cannot
// read is searched byte by byte for the keys it knows. A FIFO named like a
// backup (juncture.db.pre-v3.bak) held that search, and so the start,
// forever. It is refused at once and left where it is.
func TestScrubBackupsPassesAFIFONamedLikeABackup(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "juncture.db")
	fifo := testkit.Fifo(t, store.BackupPath(dbPath, 3))
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	testkit.ReturnsWithin(t, "scrubBackups", fifo, func() error {
		scrubBackups(context.Background(), dbPath, []string{"sk-known"}, log)
		return nil
	})
	if _, err := os.Lstat(fifo); err != nil {
		t.Errorf("the FIFO was removed: %v", err)
	}
	if !strings.Contains(logs.String(), "not a regular file") {
		t.Errorf("the log does not say why the backup was passed over:\n%s", logs.String())
	}
}

package store

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestLockFileSymlinkNeverTruncatesItsTarget: a lock file that is a symlink
// (planted, or left by a tool) must not make Open truncate and overwrite
// the file it points to with a process id; Open refuses it instead.
func TestLockFileSymlinkNeverTruncatesItsTarget(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	t.Parallel()
	dir := t.TempDir()
	victim := filepath.Join(dir, "precious.txt")
	const content = "a file of the person's that is not Juncture's\n"
	if err := os.WriteFile(victim, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "juncture.db")
	if err := os.Symlink(victim, LockPath(path)); err != nil {
		t.Fatal(err)
	}
	db, err := Open(context.Background(), path)
	if err == nil {
		db.Close()
		t.Error("Open took a lock through a symlink")
	}
	got, err := os.ReadFile(victim)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != content {
		t.Fatalf("the symlink's target was rewritten: %q", got)
	}
}

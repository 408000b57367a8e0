//go:build unix

package store

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// returnsWithin runs f and fails the test when it has not returned after
// 10 s; a writer opened on fifo then lets the stuck call go.
func returnsWithin(t *testing.T, what, fifo string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		t.Fatalf("%s still blocked after 10 s", what)
	}
}

// TestFilesInTheDataFolderThatAreNotFiles: another program can put a FIFO
// where the data folder's lock file, a database's write-ahead log or a
// migration backup is read. Reading the lock's holder and copying the log
// waited for a writer forever; SQLite opening the backup said only "disk
// I/O error". Each now returns at once: the holder is unknown (0), the
// copy and the backup are refused as not regular files.
func TestFilesInTheDataFolderThatAreNotFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "juncture.db.lock")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	returnsWithin(t, "lockHolder(fifo)", fifo, func() {
		if pid := lockHolder(fifo); pid != 0 {
			t.Errorf("lockHolder(fifo) = %d, want 0", pid)
		}
	})
	returnsWithin(t, "copyFile(fifo)", fifo, func() {
		err := copyFile(fifo, filepath.Join(dir, "copy"))
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("copyFile(fifo) = %v, want it refused as not a regular file", err)
		}
	})
	returnsWithin(t, "openFile(fifo)", fifo, func() {
		db, err := openFile(fifo)
		if err == nil {
			err = db.Ping()
			db.Close()
		}
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("openFile(fifo) = %v, want it refused as not a regular file", err)
		}
	})
}

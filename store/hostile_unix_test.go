//go:build unix

package store

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/internal/testkit"
)

// returnsWithin is testkit.ReturnsWithin for a check that reports itself.
func returnsWithin(t *testing.T, what, fifo string, f func()) {
	t.Helper()
	testkit.ReturnsWithin(t, what, fifo, func() error { f(); return nil })
}

// TestFilesInTheDataFolderThatAreNotFiles: another program can put a FIFO
// where the data folder's lock file, a database's write-ahead log or a
// migration backup is read. Reading the lock's holder and copying the log
// waited for a writer forever; SQLite opening the backup said only "disk
// I/O error". Each now returns at once: the holder is unknown (0), the
// copy and the backup are refused as not regular files.
func TestFilesInTheDataFolderThatAreNotFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := testkit.Fifo(t, filepath.Join(dir, "juncture.db.lock"))
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

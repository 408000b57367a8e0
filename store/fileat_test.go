package store

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPinFileIdentifiesTheFileThen: openFileWith compares what pinFile saw
// with what is at the path once SQLite has opened it. On Windows an
// os.Stat reads the file's identity lazily, from the path, when SameFile
// first asks: the file pinned and a file renamed over it in the meantime
// compared as one, and the check after SQLite's open saw no change. The
// identity must be the one of the file there when pinFile looked.
func TestPinFileIdentifiesTheFileThen(t *testing.T) {
	for _, follow := range []bool{true, false} {
		dir := t.TempDir()
		path := filepath.Join(dir, "juncture.db.bak-v3")
		if err := os.WriteFile(path, []byte("first"), 0o600); err != nil {
			t.Fatal(err)
		}
		pin, before, err := pinFile(path, follow)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path+".new", []byte("second"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(path+".new", path); err != nil {
			t.Fatal(err)
		}
		after, err := statAt(path, follow)
		if err != nil {
			t.Fatal(err)
		}
		if os.SameFile(before, after) {
			t.Errorf("follow %v: the file pinned and the one renamed over it later are the same file to os.SameFile; want them told apart", follow)
		}
		pin.Close()
	}
}

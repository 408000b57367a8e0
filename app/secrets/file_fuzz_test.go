package secrets

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/internal/testkit"
)

// FuzzKeysFile: whatever the keys file holds (a torn write, another
// program's file, junk), Get answers or says the file does not parse —
// naming the file, quoting none of its bytes, so a key never reaches an
// error, a log or the window — and a Set on a file that does not parse is
// refused and leaves every byte as it was (nothing is lost). Budget: 2 s
// and 64 bytes of allocation per byte of the file plus 1 MiB.
func FuzzKeysFile(f *testing.F) {
	for _, s := range []string{"", " \n", "{}", `{"acct":"sk-live-1"}`, `{"acct":"sk-live-1"`, `{"acct":1}`, "[]", "null", "\xff\xfe{}", `{"a":"\u0000"}`, `{"acct":"sk-` + strings.Repeat("9", 4096) + `"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "secrets.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s := NewFileStore(path)
		var err error
		testkit.Budget(t, "Get", 2*time.Second, 64*uint64(len(data))+1<<20, func() { _, err = s.Get("acct") })
		if err == nil || errors.Is(err, ErrNotFound) {
			return // the file parses
		}
		if want := path + " does not parse as JSON"; err.Error() != want {
			t.Fatalf("Get on %q = %q, want %q (no byte of the file in it)", data, err, want)
		}
		if err := s.Set("acct", "sk-new"); err == nil {
			t.Fatalf("Set over a keys file that does not parse succeeded (%q)", data)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
			t.Fatalf("a refused Set changed the keys file: %q → %q", data, after)
		}
	})
}

// FuzzFileHolds: the byte search of a backup SQLite cannot read finds a
// key exactly when the bytes hold it. Budget: 2 s and 4 MiB (two 1 MiB
// buffers, whatever the file).
func FuzzFileHolds(f *testing.F) {
	f.Add([]byte("xxsk-1yy"), "sk-1", "")
	f.Add([]byte(""), "sk-1", "k")
	f.Add([]byte("abc"), "", "")
	f.Add([]byte("aaaa"), "aaaaa", "aa")
	f.Fuzz(func(t *testing.T, data []byte, a, b string) {
		path := filepath.Join(t.TempDir(), "juncture.db.bak")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		var got bool
		var err error
		testkit.Budget(t, "fileHolds", 2*time.Second, 4<<20+2*uint64(len(a)+len(b)), func() { got, err = fileHolds(path, []string{a, b}) })
		want := (a != "" && bytes.Contains(data, []byte(a))) || (b != "" && bytes.Contains(data, []byte(b)))
		if err != nil || got != want {
			t.Fatalf("fileHolds(%q, %q, %q) = %v, %v; want %v", data, a, b, got, err, want)
		}
	})
}

// A key that straddles the 1 MiB read boundary, or ends the file, is
// found; one byte of it missing, it is not.
func TestFileHoldsAcrossItsReadBoundary(t *testing.T) {
	const key = "sk-straddle-0123456789"
	for _, at := range []int{1<<20 - len(key) + 1, 1<<20 - 1, 1 << 20, 2<<20 - 3} {
		data := bytes.Repeat([]byte{'.'}, at)
		path := filepath.Join(t.TempDir(), "b")
		if err := os.WriteFile(path, append(data, key...), 0o600); err != nil {
			t.Fatal(err)
		}
		if ok, err := fileHolds(path, []string{key}); !ok || err != nil {
			t.Errorf("key at %d: fileHolds = %v, %v; want found", at, ok, err)
		}
		if err := os.WriteFile(path, append(data, key[:len(key)-1]...), 0o600); err != nil {
			t.Fatal(err)
		}
		if ok, err := fileHolds(path, []string{key}); ok || err != nil {
			t.Errorf("key cut short at %d: fileHolds = %v, %v; want not found", at, ok, err)
		}
	}
}

// growingFile is a backup someone keeps appending to: each read first adds
// 2 MiB more to the file (faster than any read can reach its end).
type growingFile struct {
	*os.File
	path  string
	more  []byte // what each read adds (made once: the budget counts fileHolds' allocations)
	added int
}

func (g *growingFile) Read(p []byte) (int, error) {
	if g.added < 1<<30 { // a safety stop for the code under test: 1 GiB
		w, err := os.OpenFile(g.path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return 0, err
		}
		_, err = w.Write(g.more)
		w.Close()
		if err != nil {
			return 0, err
		}
		g.added += len(g.more)
	}
	return g.File.Read(p)
}

// TestFileHoldsReadsWhatTheFileHeldWhenOpened: a backup that grows while
// it is searched is read up to the size it had when opened, not until
// it stops growing (a start-up held for as long as another process
// writes). Budget: 2 s and 4 MiB, as for any file. What was appended is
// not searched: the file is judged as it was.
func TestFileHoldsReadsWhatTheFileHeldWhenOpened(t *testing.T) {
	path := filepath.Join(t.TempDir(), "juncture.db.bak")
	if err := os.WriteFile(path, bytes.Repeat([]byte{'.'}, 3<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	var g *growingFile
	more := bytes.Repeat([]byte{'+'}, 2<<20)
	openBackup = func(p string) (backupFile, error) {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		g = &growingFile{File: f, path: p, more: more}
		return g, nil
	}
	t.Cleanup(func() { openBackup = openPlainBackup })
	var got bool
	var err error
	testkit.Budget(t, "fileHolds on a growing file", 2*time.Second, 4<<20+64, func() { got, err = fileHolds(path, []string{"sk-never"}) })
	if got || err != nil {
		t.Fatalf("fileHolds = %v, %v; want false, nil", got, err)
	}
	if g.added > 8<<20 {
		t.Fatalf("read on while the file grew by %d bytes: the file was searched past the size it had when opened", g.added)
	}
}

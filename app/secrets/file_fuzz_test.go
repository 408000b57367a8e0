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

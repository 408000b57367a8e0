package plainfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/juncture-app/juncture/internal/testkit"
)

// FuzzReadFile: whatever a file holds and whatever the limit, ReadFile
// gives the file's bytes exactly when they fit and ErrTooLarge when they
// do not, never more than the limit in memory: budget 2 s (a loaded
// machine) and four times the limit plus 64 KiB of allocation.
func FuzzReadFile(f *testing.F) {
	for _, s := range []struct {
		data  string
		limit uint16
	}{{"", 0}, {"", 5}, {`{"a":"b"}`, 9}, {`{"a":"b"}`, 8}, {"\x00\xff\n", 1}, {string(bytes.Repeat([]byte("x"), 5000)), 4096}} {
		f.Add([]byte(s.data), s.limit)
	}
	f.Fuzz(func(t *testing.T, data []byte, limit uint16) {
		p := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		var got []byte
		var err error
		testkit.Budget(t, "ReadFile", 2*time.Second, 4*uint64(limit)+64<<10, func() { got, err = ReadFile(p, int64(limit)) })
		switch {
		case len(data) <= int(limit):
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("ReadFile(%d bytes, limit %d) = %d bytes, %v", len(data), limit, len(got), err)
			}
		default:
			if !errors.Is(err, ErrTooLarge) || got != nil {
				t.Fatalf("ReadFile(%d bytes, limit %d) = %d bytes, %v; want ErrTooLarge", len(data), limit, len(got), err)
			}
		}
	})
}

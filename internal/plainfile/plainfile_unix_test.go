//go:build unix

package plainfile

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/juncture-app/juncture/internal/testkit"
)

// TestRefusesWhatIsNotARegularFile: a FIFO with no writer (which held a
// plain open forever), a device (a terminal would have been read, or
// taken as the controlling terminal), a socket, a folder, and a link to
// any of them are refused at once, saying what they are.
func TestRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := testkit.Fifo(t, filepath.Join(dir, "mcp.json"))
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, c := range []struct{ path, what string }{
		{fifo, "(a named pipe)"},
		{link, "(a named pipe)"},
		{os.DevNull, "(a character device)"},
		{sock, ""}, // open refuses a socket itself (ENXIO on Linux)
		{dir, "(a folder)"},
	} {
		for name, open := range map[string]func() error{
			"Open":     func() error { f, err := Open(c.path); closeIf(f); return err },
			"OpenFile": func() error { f, err := OpenFile(c.path, os.O_RDWR, 0); closeIf(f); return err },
			"ReadFile": func() error { _, err := ReadFile(c.path, 1<<20); return err },
		} {
			err := testkit.ReturnsWithin(t, name+"("+c.path+")", fifo, open)
			if err == nil {
				t.Errorf("%s(%s) = nil, want a refusal", name, c.path)
				continue
			}
			if c.what == "" {
				continue
			}
			if name == "OpenFile" && c.path == dir {
				continue // opening a folder for writing fails in open itself (EISDIR)
			}
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "not a regular file "+c.what) {
				t.Errorf("%s(%s) = %v, want ErrNotRegular %s", name, c.path, err, c.what)
			}
		}
	}
}

func closeIf(f *os.File) {
	if f != nil {
		f.Close()
	}
}

func TestReadsARegularFileWithinItsLimit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "keys.json")
	if err := os.WriteFile(p, []byte(`{"a":"b"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(p, 9); err != nil || string(b) != `{"a":"b"}` {
		t.Errorf("ReadFile at its limit = %q, %v", b, err)
	}
	if _, err := ReadFile(p, 8); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "larger than 8 bytes") {
		t.Errorf("ReadFile over its limit = %v, want ErrTooLarge", err)
	}
	huge := testkit.SparseFile(t, filepath.Join(dir, "huge.json"), 1<<30)
	if _, err := ReadFile(huge, 1<<20); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "too large (larger than 1 MiB)") {
		t.Errorf("ReadFile(1 GiB, 1 MiB) = %v, want ErrTooLarge", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile(missing) = %v, want fs.ErrNotExist", err)
	}
	// A regular file opened for writing with the flags behaves as without.
	w, err := OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteAt([]byte("12345"), 0); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if b, _ := os.ReadFile(p); string(b) != `12345"b"}` {
		t.Errorf("after the write: %q", b)
	}
}

// Every open adds O_NONBLOCK and O_NOCTTY on Unix.
func TestFlagsOnUnix(t *testing.T) {
	if Flags&syscall.O_NONBLOCK == 0 || Flags&syscall.O_NOCTTY == 0 {
		t.Errorf("Flags = %#x, want O_NONBLOCK|O_NOCTTY", Flags)
	}
}

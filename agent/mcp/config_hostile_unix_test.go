//go:build unix

package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadConfigRefusesAFileThatIsNotOne: the MCP configuration is read
// while the app starts, before the window shows. A FIFO at its path (or a
// link to one) held the start forever in open, and a huge file (a link to
// a disk image, a runaway writer) was read whole into memory. Both are
// refused at once with an error naming the file, and no server runs.
func TestReadConfigRefusesAFileThatIsNotOne(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	huge := filepath.Join(dir, "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(64 << 20); err != nil { // sparse: no disk
		t.Fatal(err)
	}
	f.Close()
	for _, path := range []string{fifo, huge} {
		done := make(chan error, 1)
		go func() {
			_, _, err := ReadConfig(path)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), filepath.Base(path)) || !strings.Contains(err.Error(), "not a configuration file") {
				t.Errorf("ReadConfig(%s) = %v, want it refused as not a configuration file", filepath.Base(path), err)
			}
		case <-time.After(10 * time.Second): // the harness's bound
			if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				w.Close() // lets the stuck reader go
			}
			t.Errorf("ReadConfig(%s) still reading after 10 s", filepath.Base(path))
		}
	}
}

// TestOpenConfigFileJudgesWhatItOpened: a FIFO swapped in between
// readConfigFile's Stat and its open was opened (blocking until a writer
// came) and read. The open itself does not block and the file it opened is
// judged: refused as not a regular file.
func TestOpenConfigFileJudgesWhatItOpened(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "mcp.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := openConfigFile(fifo)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("openConfigFile(fifo) = %v, want it refused as not a regular file", err)
		}
	case <-time.After(10 * time.Second): // the harness's bound
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		t.Error("openConfigFile(fifo) still opening after 10 s")
	}
}

//go:build unix

package plainfile

import (
	"bytes"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReadFileHostileAttack (break helper; no break): a file of exactly
// the limit is read and one byte more refused; a /proc file reporting size
// 0 is read whole; a folder, a symlink loop, a socket and /dev/zero are
// refused; a file growing while it is read stops at the limit.
func TestReadFileHostileAttack(t *testing.T) {
	dir := t.TempDir()
	// exact limit
	p := filepath.Join(dir, "exact")
	os.WriteFile(p, bytes.Repeat([]byte("a"), 64), 0o600)
	if b, err := ReadFile(p, 64); err != nil || len(b) != 64 {
		t.Errorf("exact: %d %v", len(b), err)
	}
	os.WriteFile(p, bytes.Repeat([]byte("a"), 65), 0o600)
	if _, err := ReadFile(p, 64); !errors.Is(err, ErrTooLarge) {
		t.Errorf("65: %v", err)
	}
	// proc zero size
	if b, err := ReadFile("/proc/self/status", 1<<20); err != nil || len(b) == 0 {
		t.Errorf("proc: %d %v", len(b), err)
	}
	// dir
	if _, err := ReadFile(dir, 10); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "folder") {
		t.Errorf("dir: %v", err)
	}
	// loop
	a, b := filepath.Join(dir, "la"), filepath.Join(dir, "lb")
	os.Symlink(b, a)
	os.Symlink(a, b)
	if _, err := ReadFile(a, 10); err == nil || !strings.Contains(err.Error(), a) {
		t.Errorf("symlink loop: %v, want an error naming the path", err)
	}
	// socket
	s := filepath.Join(dir, "s")
	l, lerr := net.Listen("unix", s)
	if lerr == nil {
		defer l.Close()
		if _, err := ReadFile(s, 10); err == nil {
			t.Errorf("socket read as a file")
		}
	}
	if _, err := ReadFile("/dev/zero", 10); !errors.Is(err, ErrNotRegular) {
		t.Errorf("/dev/zero: %v, want ErrNotRegular", err)
	}
	// growing
	g := filepath.Join(dir, "grow")
	w, _ := os.Create(g)
	stop := make(chan struct{})
	go func() {
		buf := bytes.Repeat([]byte("x"), 4096)
		for {
			select {
			case <-stop:
				return
			default:
				w.Write(buf)
			}
		}
	}()
	time.Sleep(10 * time.Millisecond)
	_, err := ReadFile(g, 1<<20)
	close(stop)
	w.Close()
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("a file growing while read: %v, want ErrTooLarge (read stops at the limit)", err)
	}
}

//go:build unix

package testkit

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// Fifo makes a named pipe at path and returns path; the test is skipped
// where the file system cannot hold one.
func Fifo(t testing.TB, path string) string {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	return path
}

// SparseFile creates a file of size bytes at path that takes no disk
// (a link to a disk image, a runaway writer) and returns path.
func SparseFile(t testing.TB, path string, size int64) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	return path
}

// ReturnsWithin runs f and returns its error, failing the test when f has
// not returned after 10 s (an open or a read blocked on a FIFO); a writer
// then opened on fifo lets the stuck call go, so no goroutine is left.
func ReturnsWithin(t testing.TB, what, fifo string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		t.Fatalf("%s still blocked after 10 s", what)
		return nil
	}
}

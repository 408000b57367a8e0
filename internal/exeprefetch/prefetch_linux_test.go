package exeprefetch

import (
	"os"
	"path/filepath"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// resident counts the pages of path in the page cache (mincore).
func resident(t *testing.T, path string) (in, total int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	m, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	vec := make([]byte, (len(m)+os.Getpagesize()-1)/os.Getpagesize())
	if _, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Fatal(errno)
	}
	for _, v := range vec {
		in += int(v & 1)
	}
	return in, len(vec)
}

// evicted writes size bytes to a new file and drops it from the page cache,
// skipping the test where the file system keeps it cached (tmpfs).
func evicted(t *testing.T, size int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "blob")
	if err := os.WriteFile(path, make([]byte, size), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil { // dirty pages stay cached through DONTNEED
		t.Fatal(err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		t.Fatal(err)
	}
	if in, _ := resident(t, path); in > 0 {
		t.Skipf("the file system keeps %d pages of a synced, evicted file cached (tmpfs?)", in)
	}
	return path
}

func TestFileReadsTheWholeFileIntoThePageCache(t *testing.T) {
	path := evicted(t, 8<<20)
	if err := File(path); err != nil {
		t.Fatal(err)
	}
	// The advice queues the reads; they complete in the background.
	deadline := time.Now().Add(30 * time.Second)
	for {
		in, total := resident(t, path)
		if in == total {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d pages in the page cache after the advice, want all", in, total)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestFileReportsAFileItCannotOpen(t *testing.T) {
	if err := File(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Fatal("File on a missing path: nil error")
	}
}

// Importing the package advises the kernel about the running executable.
func TestInitAdvisesTheExecutable(t *testing.T) {
	<-done
	if initErr != nil {
		t.Fatalf("init: %v", initErr)
	}
}

//go:build linux

package benchprobe

import (
	"os"
	"strings"
	"syscall"
	"testing"
)

// Shared anonymous memory (mmap MAP_SHARED|MAP_ANONYMOUS: what a process
// shares with the children it forks, and what some allocators and
// graphics stacks map) is shmem, counted in smaps_rollup's Pss_Shmem, and
// its mapping is named "/dev/zero (deleted)" with Anonymous: 0 kB. It was
// taken for a mapped file, whose written pages (Anonymous) were counted:
// none, so its memory was in no part at all.
func TestMemPartsCountSharedAnonymousMemory(t *testing.T) {
	const smaps = `7f0000100000-7f0002100000 rw-s 00000000 00:01 4321                       /dev/zero (deleted)
Pss:               32768 kB
Anonymous:             0 kB
`
	if got := parseSmaps(strings.NewReader(smaps)); got != (MemParts{Shm: 32768}) {
		t.Errorf("parseSmaps(/dev/zero (deleted)) = %+v, want Shm 32768", got)
	}

	const size = 32 << 20
	before := memParts(os.Getpid())
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED|syscall.MAP_ANON)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(b)
	for i := 0; i < size; i += 4096 {
		b[i] = 1
	}
	after := memParts(os.Getpid())
	if grown := after.Shm - before.Shm; grown < (size>>10)*3/4 {
		t.Errorf("32 MiB of shared anonymous memory written: Shm grew %d KiB (parts %+v -> %+v)", grown, before, after)
	}
}

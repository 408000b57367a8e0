//go:build unix && !linux

package attach

import "golang.org/x/sys/unix"

// limitSelf puts the child under its CPU budget (cpu seconds), with no core dumps and no
// files written. macOS and the BSDs do not enforce RLIMIT_AS or
// RLIMIT_DATA for mmap, the Go heap's allocator: there the memory bound is
// the soft memory limit, the decode budget checked before a decode and
// the wall clock.
func limitSelf(cpu int) error {
	for _, l := range []struct {
		res int
		val uint64
	}{
		{unix.RLIMIT_CPU, uint64(cpu)},
		{unix.RLIMIT_CORE, 0},
		{unix.RLIMIT_FSIZE, 0},
	} {
		if err := unix.Setrlimit(l.res, &unix.Rlimit{Cur: l.val, Max: l.val}); err != nil {
			return err
		}
	}
	return nil
}

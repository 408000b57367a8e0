//go:build unix && !linux

package attach

// limitSelf puts the child under its CPU budget (cpu seconds), with no core dumps and no
// files written. macOS and the BSDs do not enforce RLIMIT_AS or
// RLIMIT_DATA for mmap, the Go heap's allocator: there the memory bound is
// the soft memory limit, the decode budget checked before a decode and
// the wall clock.
func limitSelf(cpu int) error {
	return setLimits(cpu)
}

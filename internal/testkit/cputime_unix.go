//go:build unix

package testkit

import (
	"syscall"
	"time"
)

// CPUTime is this process's user and system CPU time so far (benchmarks
// report CPU per operation with it).
func CPUTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

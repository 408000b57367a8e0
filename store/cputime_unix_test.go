//go:build unix

package store

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used (user and system): the
// share of a search's cost that other programs on a busy machine do not
// inflate.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

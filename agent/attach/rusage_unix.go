//go:build unix

package attach

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSS is a finished child's peak resident memory in bytes.
func maxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes there
	}
	return int64(ru.Maxrss) << 10 // KiB elsewhere
}

// killedByCPU reports whether the child was killed for its CPU time
// (RLIMIT_CPU with soft = hard ends in SIGKILL; SIGXCPU if only soft).
func killedByCPU(ee interface{ Sys() any }) bool {
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && (ws.Signal() == syscall.SIGKILL || ws.Signal() == syscall.SIGXCPU)
}

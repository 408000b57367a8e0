//go:build unix

package attach

import (
	"os"
	"os/signal"

	"golang.org/x/sys/unix"
)

// rlimit is one resource limit, set as both soft and hard.
type rlimit struct {
	res int
	val uint64
}

// setLimits puts the process under the limits of every unix: RLIMIT_CPU at
// cpu seconds, no core dumps and no files written, then under more (the
// platform's memory limit).
func setLimits(cpu int, more ...rlimit) error {
	endOnXCPU()
	for _, l := range append([]rlimit{
		{unix.RLIMIT_CPU, uint64(cpu)},
		{unix.RLIMIT_CORE, 0},
		{unix.RLIMIT_FSIZE, 0},
	}, more...) {
		if err := unix.Setrlimit(l.res, &unix.Rlimit{Cur: rlimVal(l.val), Max: rlimVal(l.val)}); err != nil {
			return err
		}
	}
	return nil
}

// endOnXCPU makes SIGXCPU end the process with SIGKILL (killedByCPU). A
// Go program ignores SIGXCPU unless it listens for it, and a kernel may
// send only that at the CPU limit (macOS never kills for RLIMIT_CPU): the
// decoder would otherwise spin on until the wall clock.
func endOnXCPU() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, unix.SIGXCPU)
	go func() {
		<-c
		_ = unix.Kill(os.Getpid(), unix.SIGKILL)
	}()
}

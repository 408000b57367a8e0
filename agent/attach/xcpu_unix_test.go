//go:build unix

package attach

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestSIGXCPUEndsTheChild: a Go program ignores SIGXCPU unless it listens
// for it (the runtime's default for it is "notify", and nothing was), so
// a kernel that only signals when a child passes its CPU limit (macOS
// sends SIGXCPU, never SIGKILL) let a hostile file's decoder spin on to
// the wall clock. Linux kills at the hard limit anyway, so the child here
// limits itself (limitSelf) and then lowers only its soft limit to 1 s,
// which Linux, like macOS, answers with SIGXCPU alone: the child must end.
func TestSIGXCPUEndsTheChild(t *testing.T) {
	if os.Getenv("JUNCTURE_XCPU_PROBE") == "1" {
		if err := limitSelf(60); err != nil {
			os.Exit(3)
		}
		if err := unix.Setrlimit(unix.RLIMIT_CPU, &unix.Rlimit{Cur: rlimVal(1), Max: rlimVal(60)}); err != nil {
			os.Exit(4)
		}
		for x := 0; ; x++ { // a decoder that never ends
			_ = x * x
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // the harness's bound, not an assertion of speed
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestSIGXCPUEndsTheChild$")
	cmd.Env = append(os.Environ(), "JUNCTURE_XCPU_PROBE=1")
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatal("the child ran on past its CPU limit (SIGXCPU ignored) until the test's wall clock")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || !killedByCPU(ee) {
		t.Fatalf("child ended with %v, want killed for its CPU time", err)
	}
}

package tools

import (
	"syscall"
	"testing"
)

// The shell dies with the app, however the app dies.
func TestShellCommandDiesWithTheApp(t *testing.T) {
	t.Parallel()
	if got := shellCommand("true").SysProcAttr.Pdeathsig; got != syscall.SIGKILL {
		t.Errorf("Pdeathsig = %v, want SIGKILL", got)
	}
}

//go:build unix

package tools

import (
	"os/exec"
	"syscall"
)

const shellName = "/bin/sh -c"

// shellCommand runs the command through /bin/sh in a new session, which
// also makes it the leader of its own process group (pgid == pid), so Stop
// can signal everything it started. A new session rather than only
// Setpgid: without a controlling terminal, a program that wants to prompt
// on /dev/tty (sudo, ssh) fails at once instead of hanging until timeout.
func shellCommand(command string) *exec.Cmd {
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	return cmd
}

// signalGroup sends SIGTERM (or SIGKILL when kill is set) to the command's
// whole process group. Errors (the group is already gone) are ignored.
func signalGroup(cmd *exec.Cmd, kill bool) {
	if cmd.Process == nil {
		return
	}
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}

//go:build unix

package tools

import (
	"os/exec"
	"syscall"
)

const shellName = "/bin/sh -c"

// inheritedEnv is what a command inherits from the app's environment:
// what programs need to find each other, the user and the locale. Nothing
// else: the app's environment holds its API key and browser-mode token.
var inheritedEnv = []string{"PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR"}

// shellCommand runs the command through /bin/sh in a new session, which
// also makes it the leader of its own process group (pgid == pid), so Stop
// can signal everything it started. A new session rather than only
// Setpgid: without a controlling terminal, a program that wants to prompt
// on /dev/tty (sudo, ssh) fails at once instead of hanging until timeout.
func shellCommand(command string) *exec.Cmd {
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	setParentDeathSignal(cmd.SysProcAttr)
	return cmd
}

// signal sends SIGTERM (or SIGKILL when kill is set) to the command's
// whole process group. Errors (the group is already gone) are ignored.
func (g *procGroup) signal(kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-g.cmd.Process.Pid, sig)
}

// release ends whatever is left of the group once the shell has been
// reaped. The group's id cannot have been reused meanwhile while a member
// lives: the kernel keeps a process group's id taken until its last member
// is gone. Only when the group is already empty could the id belong to a
// new group by now, in the moment between the reap and this call.
func (g *procGroup) release() {
	g.signal(true)
}

// groupAttrs makes cmd a process-group leader in a new session, killed
// with the app on Linux (see shellCommand).
func groupAttrs(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	setParentDeathSignal(cmd.SysProcAttr)
}

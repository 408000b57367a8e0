//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// signalZero is kill(pid, 0): ESRCH when the process is gone.
func signalZero(pid int) error { return syscall.Kill(pid, 0) }

// ownGroup starts cmd in a process group of its own (killGroup).
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

//go:build !windows

package tools

import "os/exec"

// procGroup is a started command: the shell and everything it starts,
// which share the shell's process group where the platform has them (on
// Windows a Job Object holds them: command_windows.go).
type procGroup struct {
	cmd *exec.Cmd
}

func startGroup(cmd *exec.Cmd) (*procGroup, error) {
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &procGroup{cmd: cmd}, nil
}

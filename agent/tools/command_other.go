//go:build !unix && !windows

package tools

import "os/exec"

const shellName = "sh -c"

// shellCommand runs the command through sh. This platform has no process
// groups here: Stop kills the shell only.
func shellCommand(command string) *exec.Cmd { return exec.Command("sh", "-c", command) }

func signalGroup(cmd *exec.Cmd, kill bool) {
	if kill && cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

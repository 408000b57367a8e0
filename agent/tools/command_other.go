//go:build !unix && !windows

package tools

import "os/exec"

const shellName = "sh -c"

var inheritedEnv = []string{"PATH", "HOME", "USER", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR"}

// shellCommand runs the command through sh. This platform has no process
// groups here: Stop kills the shell only.
func shellCommand(command string) *exec.Cmd { return exec.Command("sh", "-c", command) }

func (g *procGroup) signal(kill bool) {
	if kill {
		_ = g.cmd.Process.Kill()
	}
}

// release does nothing: without process groups there is nothing left
// that this package could find.
func (g *procGroup) release() {}

func groupAttrs(*exec.Cmd) {}

//go:build darwin

package sandbox

import (
	"os"
	"os/exec"
)

const sandboxExecPath = "/usr/bin/sandbox-exec"

func systemConfiners(Options) []confiner { return []confiner{seatbelt{}} }

// seatbelt runs the program under sandbox-exec with Profile.
type seatbelt struct{}

func (seatbelt) name() string { return SandboxExe }

func (seatbelt) enforcesPorts() bool { return true }

func (seatbelt) available() (bool, string) {
	if _, err := os.Stat(sandboxExecPath); err != nil {
		return false, "sandbox-exec is missing"
	}
	return true, ""
}

func (seatbelt) wrap(cmd *exec.Cmd, p Policy, tmp string, _ reads) (Status, error) {
	args := append(seatbeltArgs(sandboxExecPath, p, tmp), cmd.Path)
	if len(cmd.Args) > 1 {
		args = append(args, cmd.Args[1:]...)
	}
	cmd.Path, cmd.Args = sandboxExecPath, args
	return Status{Mechanism: SandboxExe, Write: p.Write, Network: networkText(p), Reads: "anything you can read (reads are not confined on macOS)"}, nil
}

func confineAndExec(string, string, []string) error {
	return errUnsupportedChild
}

//go:build !linux && !darwin && !windows

package sandbox

import (
	"errors"
	"os/exec"
	"runtime"
)

func systemConfiners(Options) []confiner { return []confiner{unconfined{}} }

// unconfined is the answer of a system where Juncture has no sandbox:
// never available, with the reason the Status carries.
type unconfined struct{}

func (unconfined) name() string { return None }

func (unconfined) enforcesPorts() bool { return false }

func (unconfined) available() (bool, string) {
	return false, runtime.GOOS + ": no sandbox is implemented"
}

func (unconfined) wrap(*exec.Cmd, Policy, string, reads) (Status, error) {
	return Status{}, errors.New("sandbox: not available here")
}

func confineAndExec(string, string, []string) error {
	return errUnsupportedChild
}

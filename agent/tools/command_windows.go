//go:build windows

package tools

import (
	"os/exec"
	"strconv"
	"syscall"
)

const shellName = "cmd /C"

// createNewProcessGroup is CREATE_NEW_PROCESS_GROUP.
const createNewProcessGroup = 0x00000200

// shellCommand runs the command through cmd /C. The command line is passed
// verbatim: cmd has its own quoting rules, which Go's argument escaping
// would break.
func shellCommand(command string) *exec.Cmd {
	cmd := exec.Command("cmd")
	cmd.SysProcAttr = &syscall.SysProcAttr{
		CmdLine:       `cmd /S /C "` + command + `"`,
		CreationFlags: createNewProcessGroup,
		HideWindow:    true,
	}
	return cmd
}

// signalGroup stops the command's process tree with taskkill: /T without
// /F first (asks politely), then /T /F. Windows has no process-group
// signals a windowless app can send.
func signalGroup(cmd *exec.Cmd, kill bool) {
	if cmd.Process == nil {
		return
	}
	args := []string{"/T", "/PID", strconv.Itoa(cmd.Process.Pid)}
	if kill {
		args = append([]string{"/F"}, args...)
	}
	k := exec.Command("taskkill", args...)
	k.SysProcAttr = &syscall.SysProcAttr{HideWindow: true}
	_ = k.Run()
	if kill {
		_ = cmd.Process.Kill() // in case taskkill could not
	}
}

//go:build windows

package sandbox

import (
	"fmt"
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

func systemConfiners(Options) []confiner { return []confiner{lowIntegrity{}} }

// lowIntegrity runs the program with a low-integrity copy of Juncture's
// token (planWindows): it cannot write the user's files, which are
// labeled medium integrity, except in its writable folders, which Wrap
// labels low. The Job Object that bounds its life and its process count
// (WindowsJob) is made where it is started (agent/tools).
//
// Built on Linux (GOOS=windows go build/vet); its plan is tested on Linux
// (winplan_test.go); it has not been run on Windows here.
type lowIntegrity struct{}

func (lowIntegrity) name() string { return WindowsToken }

func (lowIntegrity) available() (bool, string) { return true, "" }

func (lowIntegrity) enforcesPorts() bool { return false }

func (lowIntegrity) wrap(cmd *exec.Cmd, p Policy, tmp string, _ reads) (Status, error) {
	plan := planWindows(p, tmp)
	if isPlan(cmd) {
		return plan.status, nil
	}
	for _, dir := range plan.label {
		if err := labelFolder(dir, plan.labelSDDL); err != nil {
			return Status{}, fmt.Errorf("sandbox: letting the program write in %s: %w", dir, err)
		}
	}
	tok, err := integrityToken(plan.integritySID)
	if err != nil {
		return Status{}, fmt.Errorf("sandbox: making a low-integrity token: %w", err)
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Token = syscall.Token(tok)
	closers.Store(cmd, func() { _ = tok.Close() })
	return plan.status, nil
}

// labelFolder sets the mandatory label of dir (inherited below it).
func labelFolder(dir, sddl string) error {
	sd, err := windows.SecurityDescriptorFromString(sddl)
	if err != nil {
		return err
	}
	sacl, _, err := sd.SACL()
	if err != nil {
		return err
	}
	return windows.SetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT, windows.LABEL_SECURITY_INFORMATION, nil, nil, nil, sacl)
}

// integrityToken is a primary copy of this process's token at the
// integrity level sid.
func integrityToken(sid string) (windows.Token, error) {
	var cur windows.Token
	if err := windows.OpenProcessToken(windows.CurrentProcess(),
		windows.TOKEN_DUPLICATE|windows.TOKEN_QUERY|windows.TOKEN_ADJUST_DEFAULT|windows.TOKEN_ASSIGN_PRIMARY, &cur); err != nil {
		return 0, err
	}
	defer cur.Close()
	var dup windows.Token
	if err := windows.DuplicateTokenEx(cur, windows.MAXIMUM_ALLOWED, nil, windows.SecurityImpersonation, windows.TokenPrimary, &dup); err != nil {
		return 0, err
	}
	s, err := windows.StringToSid(sid)
	if err != nil {
		_ = dup.Close()
		return 0, err
	}
	tml := windows.Tokenmandatorylabel{Label: windows.SIDAndAttributes{Sid: s, Attributes: windows.SE_GROUP_INTEGRITY}}
	if err := windows.SetTokenInformation(dup, windows.TokenIntegrityLevel, (*byte)(unsafe.Pointer(&tml)),
		uint32(unsafe.Sizeof(tml))+windows.GetLengthSid(s)); err != nil {
		_ = dup.Close()
		return 0, err
	}
	return dup, nil
}

func confineAndExec(string, string, []string) error {
	return errUnsupportedChild
}

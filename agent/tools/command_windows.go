//go:build windows

package tools

import (
	"os/exec"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/juncture-app/juncture/agent/sandbox"
)

const shellName = "cmd /C"

// inheritedEnv is what a command inherits from the app's environment:
// what Windows programs need to start and find each other, the user's
// folders and the temporary folder. Nothing else: the app's environment
// holds its API key and browser-mode token. Names match case-insensitively.
var inheritedEnv = []string{
	"PATH", "PATHEXT", "SystemRoot", "SystemDrive", "windir", "ComSpec", "TEMP", "TMP",
	"USERPROFILE", "USERNAME", "HOMEDRIVE", "HOMEPATH", "APPDATA", "LOCALAPPDATA",
	"ProgramData", "ProgramFiles", "ProgramFiles(x86)", "CommonProgramFiles",
	"PROCESSOR_ARCHITECTURE", "NUMBER_OF_PROCESSORS", "OS", "LANG", "LC_ALL", "LC_CTYPE",
}

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

// procGroup is a started command and the Job Object that holds it and
// everything it starts. The job is created with KILL_ON_JOB_CLOSE: when
// its last handle closes (release, or the app ending however it ends),
// Windows ends every process in it. job is 0 when no job could be made;
// then only taskkill's view of the process tree is left.
type procGroup struct {
	cmd *exec.Cmd
	job windows.Handle
}

// startGroup starts cmd and puts it in a new job. The shell joins the job
// just after it starts: a program it starts in that first moment is not
// in the job (Go cannot start a process suspended and resume it).
func startGroup(cmd *exec.Cmd) (*procGroup, error) {
	job, jobErr := newKillOnCloseJob()
	if err := cmd.Start(); err != nil {
		if jobErr == nil {
			_ = windows.CloseHandle(job)
		}
		return nil, err
	}
	g := &procGroup{cmd: cmd}
	if jobErr == nil {
		if assignToJob(job, cmd.Process.Pid) == nil {
			g.job = job
		} else {
			_ = windows.CloseHandle(job)
		}
	}
	return g, nil
}

func newKillOnCloseJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, err
	}
	// Kill on close, a bound on the process count, no breakaway: the
	// sandbox's Job Object (agent/sandbox.WindowsJob).
	flags, procs := sandbox.WindowsJob()
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{
			LimitFlags:         flags,
			ActiveProcessLimit: procs,
		},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return 0, err
	}
	return job, nil
}

func assignToJob(job windows.Handle, pid int) error {
	p, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return err
	}
	defer windows.CloseHandle(p)
	return windows.AssignProcessToJobObject(job, p)
}

// signal stops the command's process tree: taskkill /T without /F first
// (asks politely; Windows has no process-group signals a windowless app
// can send), then the whole job, and taskkill /T /F for a command outside
// a job.
func (g *procGroup) signal(kill bool) {
	if kill && g.job != 0 {
		_ = windows.TerminateJobObject(g.job, 1)
	}
	args := []string{"/T", "/PID", strconv.Itoa(g.cmd.Process.Pid)}
	if kill {
		args = append([]string{"/F"}, args...)
	}
	k := exec.Command("taskkill", args...)
	k.SysProcAttr = &syscall.SysProcAttr{HideWindow: true}
	k.Env, _ = commandEnv(nil)
	_ = k.Run()
	if kill {
		_ = g.cmd.Process.Kill() // in case taskkill could not
	}
}

// release ends whatever is left in the job once the shell has exited and
// closes the job.
func (g *procGroup) release() {
	if g.job == 0 {
		return
	}
	_ = windows.TerminateJobObject(g.job, 1)
	_ = windows.CloseHandle(g.job)
	g.job = 0
}

// groupAttrs starts cmd in a new process group without a console window;
// startGroup puts it in a kill-on-close job.
func groupAttrs(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: createNewProcessGroup, HideWindow: true}
}

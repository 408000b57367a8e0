package tools

import "syscall"

// setParentDeathSignal makes the kernel kill the shell when the app dies,
// however it dies. Linux sends it when the thread that started the shell
// ends rather than the process: commands are started from a goroutine of
// their own (see Processes.start), whose thread the Go runtime never ends.
// Only the shell gets it; what the shell started in the background
// outlives a crash of the app (an orderly shutdown calls KillAll, which
// ends the whole group).
func setParentDeathSignal(a *syscall.SysProcAttr) {
	a.Pdeathsig = syscall.SIGKILL
}

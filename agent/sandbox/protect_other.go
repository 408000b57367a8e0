//go:build !linux

package sandbox

// protectProcess does nothing here: macOS refuses task_for_pid and reading
// another process's environment to unprivileged processes of the same
// user without it, and Windows programs run with a low-integrity token
// that cannot open Juncture's (medium-integrity) process.
func protectProcess() error { return nil }

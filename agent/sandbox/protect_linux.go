package sandbox

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// protectProcess makes Juncture's process non-dumpable: its /proc files
// (environ, where the API keys of the shell that started Juncture live;
// maps, auxv, mem; the fd, cwd and root links) then need CAP_SYS_PTRACE
// (or, on Linux 6.18, CAP_SYS_ADMIN or CAP_PERFMON) to be read, instead of
// only the same user. A confined program is already refused them by
// Landlock's ptrace scoping when it runs without those capabilities (a
// person's own user); this covers the programs Landlock does not confine
// (bwrap's, sandbox off, "network": "any" servers started unconfined) and
// Juncture run as root, together with dropProcessCaps. It does not pass to
// the programs Juncture starts: exec makes a process dumpable again.
func protectProcess() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("making Juncture's process unreadable to the programs it starts: %w", err)
	}
	return nil
}

// processCaps are the capabilities that let a process read another's
// /proc files whatever Landlock says: as root, a confined program read
// Juncture's environ, maps and auxv with any one of them (Linux 6.18).
var processCaps = []uintptr{unix.CAP_SYS_PTRACE, unix.CAP_SYS_ADMIN, unix.CAP_PERFMON}

// dropProcessCaps removes processCaps from the bounding set of the
// confining child, so that the program it execs never has them, even when
// Juncture runs as root. Without CAP_SETPCAP (not root) the call fails
// with EPERM and there is nothing to drop (no_new_privs keeps a program
// from gaining them through file capabilities); EINVAL is a capability
// this kernel does not know.
func dropProcessCaps() error {
	for _, c := range processCaps {
		err := unix.Prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0)
		if err != nil && !errors.Is(err, unix.EPERM) && !errors.Is(err, unix.EINVAL) {
			return fmt.Errorf("dropping capability %d: %w", c, err)
		}
	}
	return nil
}

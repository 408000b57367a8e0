package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// bwrapConfiner runs the program under bubblewrap: a read-only view of
// the file system (/tmp included) with the writable folders bound back, used where
// Landlock is missing.
type bwrapConfiner struct {
	path string // "" → bwrap on the PATH; "-" → none

	once   sync.Once
	found  string
	reason string
}

func (*bwrapConfiner) name() string { return Bwrap }

func (*bwrapConfiner) enforcesPorts() bool { return false }

// available finds bwrap and runs it once: it needs user namespaces,
// which a system may forbid.
func (b *bwrapConfiner) available() (bool, string) {
	b.once.Do(func() {
		p := b.path
		switch p {
		case "-":
			b.reason = "bwrap is not installed"
			return
		case "":
			var err error
			if p, err = exec.LookPath("bwrap"); err != nil {
				b.reason = "bwrap is not installed"
				return
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		probe := exec.CommandContext(ctx, p, "--ro-bind", "/", "/", "--dev", "/dev", "--", "/bin/true")
		var stderr bytes.Buffer
		probe.Stderr = &stderr
		if err := probe.Run(); err != nil {
			b.reason = fmt.Sprintf("bwrap cannot run here (%s)", strings.TrimSpace(firstLine(stderr.String(), err.Error())))
			return
		}
		b.found = p
	})
	return b.found != "", b.reason
}

func firstLine(s, or string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if s == "" {
		return or
	}
	return s
}

func (b *bwrapConfiner) wrap(cmd *exec.Cmd, p Policy, tmp string, r reads) (Status, error) {
	args := bwrapArgs(b.found, p, tmp, r)
	args = append(args, "--", cmd.Path)
	if len(cmd.Args) > 1 {
		args = append(args, cmd.Args[1:]...)
	}
	cmd.Path, cmd.Args = b.found, args
	st := Status{Mechanism: Bwrap, Write: p.Write, Network: networkText(p), Reads: readsText(p)}
	switch p.Network {
	case NetLocal, NetPorts, NetHosts:
		if p.Network == NetPorts && len(p.Ports) == 0 {
			break
		}
		st.Network = "any"
		st.Reason = "network not confined: bwrap can only cut the network off entirely"
	}
	return st, nil
}

// bwrapArgs is bwrap's command line up to the program: an empty root
// (read-only) with the readable folders and files bound read-only, a
// fresh /dev and /proc, the writable folders and the private temporary
// folder bound writable, no network for NetNone, a PID namespace of its
// own (its /proc shows only its processes: bwrap has no ptrace scoping, and
// other processes' environ and maps would be readable), and the program
// killed with Juncture.
func bwrapArgs(bwrap string, p Policy, tmp string, r reads) []string {
	args := []string{bwrap}
	for _, d := range r.dirs {
		switch d {
		case "/dev":
			args = append(args, "--dev", "/dev")
		case "/proc":
			args = append(args, "--proc", "/proc")
		default:
			args = append(args, "--ro-bind-try", d, d)
		}
	}
	for _, f := range r.files {
		if strings.HasPrefix(f, "/proc/") {
			continue // /etc/mtab's /proc/<Juncture>/mounts: the fresh /proc has its own
		}
		args = append(args, "--ro-bind-try", f, f)
	}
	for _, l := range r.links {
		args = append(args, "--symlink", l[0], l[1])
	}
	for _, w := range append(append([]string{}, p.Write...), tmp) {
		args = append(args, "--bind", w, w)
	}
	args = append(args, "--remount-ro", "/")
	if p.Network == NetNone || p.Network == NetPorts && len(p.Ports) == 0 {
		args = append(args, "--unshare-net")
	}
	return append(args, "--unshare-pid", "--die-with-parent")
}

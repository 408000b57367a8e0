package sandbox

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestConfinedCannotReadJunctureProc: a confined command cannot read what
// /proc shows of Juncture's own process (its environment, where API keys
// from the shell that started it live; its memory map; its open files and
// folder), even when both run as root here (Landlock's ptrace scoping
// refused it to a non-root user, not to root's capabilities). MaybeRunChild
// made this process non-dumpable, and the confining child drops
// CAP_SYS_PTRACE, CAP_SYS_ADMIN and CAP_PERFMON.
func TestConfinedCannotReadJunctureProc(t *testing.T) {
	needLandlock(t)
	if d, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0); err != nil || d != 0 {
		t.Errorf("Juncture's process is dumpable (%d, %v): every program of the same user reads its /proc files", d, err)
	}
	pl := newPlace(t)
	me := "/proc/" + strconv.Itoa(os.Getpid())
	for _, script := range []string{
		`tr '\0' '\n' < ` + me + `/environ`,
		`cat ` + me + `/maps`,
		`cat ` + me + `/auxv >/dev/null`,
		`head -c 8 ` + me + `/mem >/dev/null`,
		`readlink ` + me + `/cwd`,
		`readlink ` + me + `/fd/0`,
		`cat ` + me + `/root/etc/hostname`,
	} {
		_, out, err := shell(t, New(Options{}), Policy{Write: []string{pl.ws}}, pl, script)
		if err == nil {
			t.Errorf("%s: read Juncture's process:\n%.300s", script, out)
		}
	}
	// The child drops the capabilities that pass the check even when
	// Juncture runs as root.
	_, out, err := shell(t, New(Options{}), Policy{Write: []string{pl.ws}}, pl, `grep CapBnd /proc/self/status`)
	if err != nil {
		t.Fatal(err, out)
	}
	hex := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(out), "CapBnd:"))
	if bnd, err := strconv.ParseUint(hex, 16, 64); err != nil || bnd&(1<<unix.CAP_SYS_PTRACE|1<<unix.CAP_SYS_ADMIN|1<<unix.CAP_PERFMON) != 0 {
		t.Errorf("the confined program may still ptrace: %q (%v)", out, err)
	}
}

// TestBwrapHidesOtherProcesses: under bwrap (no Landlock, so no ptrace
// scoping) a confined command sees only its own processes in /proc: not
// Juncture's nor any other program of the person (a PID namespace of its
// own), so no other process's environment, memory map or open files.
func TestBwrapHidesOtherProcesses(t *testing.T) {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Skip("bwrap is not installed")
	}
	if ok, why := (&bwrapConfiner{path: bwrap}).available(); !ok {
		t.Skipf("bwrap cannot run here: %s", why)
	}
	s := New(Options{LandlockABI: func() (int, error) { return 0, errNoLandlock }, Bwrap: bwrap})
	pl := newPlace(t)
	me := "/proc/" + strconv.Itoa(os.Getpid())
	st, out, err := shell(t, s, Policy{Write: []string{pl.ws}}, pl,
		`tr '\0' '\n' < `+me+`/environ; cat `+me+`/maps; ls /proc | grep -c '^[0-9]'`)
	if st.Mechanism != Bwrap {
		t.Fatalf("not confined by bwrap: %s", st)
	}
	if strings.Contains(out, "PATH=") || strings.Contains(out, ".test") {
		t.Errorf("Juncture's process was readable under bwrap: %v\n%.400s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if n, err := strconv.Atoi(lines[len(lines)-1]); err != nil || n > 4 {
		t.Errorf("the command sees %q processes, want only its own", lines[len(lines)-1])
	}
}

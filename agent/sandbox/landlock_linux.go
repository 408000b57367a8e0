package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

func systemConfiners(o Options) []confiner {
	abi := o.LandlockABI
	if abi == nil {
		abi = llsys.LandlockGetABIVersion
	}
	return []confiner{landlockConfiner{abi: abi}, &bwrapConfiner{path: o.Bwrap}}
}

// landlockConfiner applies Landlock rules in a re-executed child of
// Juncture (MaybeRunChild), which then execs the program.
type landlockConfiner struct {
	abi func() (int, error)
}

func (landlockConfiner) name() string { return Landlock }

func (l landlockConfiner) enforcesPorts() bool {
	v, err := l.abi()
	return err == nil && v >= 4
}

func (l landlockConfiner) available() (bool, string) {
	if !childReady.Load() {
		return false, "Landlock is not used: this program does not start confining children (MaybeRunChild is not called)"
	}
	v, err := l.abi()
	switch {
	case err != nil:
		return false, fmt.Sprintf("Landlock is unavailable (%v)", err)
	case v < 1:
		return false, "Landlock is unavailable (not enabled in this kernel)"
	}
	return true, ""
}

func (l landlockConfiner) wrap(cmd *exec.Cmd, p Policy, tmp string, rd reads) (Status, error) {
	exe, err := os.Executable()
	if err != nil {
		return Status{}, fmt.Errorf("sandbox: finding Juncture's own program to confine %s: %w", cmd.Path, err)
	}
	v, _ := l.abi()
	r, w, err := os.Pipe()
	if err != nil {
		return Status{}, fmt.Errorf("sandbox: %w", err)
	}
	fd := 3 + len(cmd.ExtraFiles)
	cmd.ExtraFiles = append(cmd.ExtraFiles, w)
	readyPipes.Store(cmd, readyPipe{r: r, w: w})
	spec, err := json.Marshal(childSpec{Write: append(append([]string{}, p.Write...), tmp), ReadDirs: rd.dirs, ReadFiles: rd.files,
		Network: p.Network, Ports: p.Ports, ReadyFD: fd})
	if err != nil {
		return Status{}, fmt.Errorf("sandbox: %w", err)
	}
	argv0 := cmd.Path
	if len(cmd.Args) > 0 {
		argv0 = cmd.Args[0]
	}
	args := []string{exe, childArg, string(spec), cmd.Path, argv0}
	if len(cmd.Args) > 1 {
		args = append(args, cmd.Args[1:]...)
	}
	cmd.Path, cmd.Args = exe, args

	st := Status{Mechanism: Landlock, Write: p.Write, Network: networkText(p), Reads: readsText(p)}
	switch {
	case p.Network == NetAny:
	case v < 4:
		st.Network = "any"
		st.Reason = fmt.Sprintf("network not confined: this kernel's Landlock (ABI %d) has no TCP rules", v)
	case p.viaProxy(): // only reached without TCP rules; Wrap routes them through the proxy otherwise
		st.Network = "any"
		st.Reason = "network not confined: the sandbox's proxy needs Landlock's TCP rules"
	case v < 10:
		st.Reason = fmt.Sprintf("TCP only: UDP is not confined by this kernel's Landlock (ABI %d)", v)
	}
	return st, nil
}

// confineAndExec is the child's work: apply the rules in spec to this
// thread, then exec the program on it (the program inherits the rules,
// the other threads of this Go process end with the exec).
func confineAndExec(specJSON, path string, argv []string) error {
	var sp childSpec
	if err := json.Unmarshal([]byte(specJSON), &sp); err != nil {
		return fmt.Errorf("reading the policy: %w", err)
	}
	cfg := landlock.V11.BestEffort()
	if sp.Network == NetAny || sp.Network == NetLocal || sp.Network == NetHosts {
		cfg.HandledAccessNet = 0
	}
	rules := []landlock.Rule{
		landlock.RODirs(sp.ReadDirs...),
		landlock.ROFiles(sp.ReadFiles...),
		landlock.RWDirs(sp.Write...).WithRefer(),
		landlock.RWFiles("/dev/null", "/dev/zero", "/dev/full", "/dev/tty").IgnoreIfMissing(),
		landlock.RWFiles("/dev/ptmx").WithIoctlDev().IgnoreIfMissing(),
		landlock.RWDirs("/dev/pts").WithIoctlDev().IgnoreIfMissing(),
		landlock.RWDirs("/dev/shm").IgnoreIfMissing(),
	}
	if sp.Network == NetPorts {
		for _, port := range sp.Ports {
			rules = append(rules, landlock.ConnectTCP(port))
		}
	}
	runtime.LockOSThread() // never unlocked: the exec happens on this thread
	fd, flags, err := cfg.NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("building the Landlock rules: %w", err)
	}
	if fd < 0 {
		return errors.New("landlock is unavailable: refusing to run the program unconfined")
	}
	if err := dropProcessCaps(); err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("setting no_new_privs: %w", err)
	}
	if err := llsys.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("applying the Landlock rules: %w", err)
	}
	_ = unix.Close(fd)
	if sp.ReadyFD > 2 {
		unix.CloseOnExec(sp.ReadyFD) // closes when the program runs: Started
	}
	err = syscall.Exec(path, argv, os.Environ())
	return fmt.Errorf("starting %s: %w", path, err)
}

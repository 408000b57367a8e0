package sandbox

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/juncture-app/juncture/agent/sandbox/sandboxtest"
)

// needLandlock skips unless this kernel offers Landlock with TCP rules
// (ABI 4+); JUNCTURE_REQUIRE_LANDLOCK=1 makes that a failure instead.
func needLandlock(t *testing.T) {
	t.Helper()
	v, err := llsys.LandlockGetABIVersion()
	sandboxtest.RequireLandlock(t, err == nil && v >= 4, fmt.Sprintf("Landlock ABI %d (4+ wanted), %v", v, err))
}

// place is a workspace and a stand-in for the home folder outside it
// (never the real HOME), with a .ssh folder.
type place struct{ ws, home string }

func newPlace(t *testing.T) place {
	t.Helper()
	p := place{ws: t.TempDir(), home: t.TempDir()}
	if err := os.Mkdir(filepath.Join(p.home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	return p
}

// shell runs script under /bin/sh confined by s and p, in pl.ws, and
// returns the status and the output.
func shell(t *testing.T, s *Sandbox, p Policy, pl place, script string, env ...string) (Status, string, error) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Dir = pl.ws
	cmd.Env = append([]string{"PATH=/usr/bin:/bin", "HOME=" + pl.home}, env...)
	st, cleanup, err := s.Wrap(cmd, p)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	out, err := cmd.CombinedOutput()
	return st, string(out), err
}

func selfExe(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// TestLandlockConfinesWrites: a confined command writes in the workspace
// and its private TMPDIR, and cannot write ~/.ssh/x (home outside).
func TestLandlockConfinesWrites(t *testing.T) {
	needLandlock(t)
	pl := newPlace(t)
	st, out, err := shell(t, New(Options{}), Policy{Write: []string{pl.ws}}, pl,
		`echo ok > inside.txt && echo tmp > "$TMPDIR/t" && cat "$TMPDIR/t" && echo key > "$HOME/.ssh/x"`)
	if st.Mechanism != Landlock || !strings.Contains(st.String(), "network: none") {
		t.Errorf("status %v", st)
	}
	if err == nil {
		t.Fatalf("the write outside succeeded:\n%s", out)
	}
	if b, rerr := os.ReadFile(filepath.Join(pl.ws, "inside.txt")); rerr != nil || string(b) != "ok\n" {
		t.Errorf("the workspace write: %q, %v (output %s)", b, rerr, out)
	}
	if _, serr := os.Stat(filepath.Join(pl.home, ".ssh", "x")); serr == nil {
		t.Error("~/.ssh/x was written")
	}
	if !strings.Contains(out, "tmp\n") || !strings.Contains(out, "Permission denied") {
		t.Errorf("output:\n%s", out)
	}
	if Explain(st, out) == "" {
		t.Error("the refusal is not explained")
	}
}

// TestLandlockNetwork: with network none a confined program cannot reach
// a local port that is open; with that port listed it can; with any it can.
func TestLandlockNetwork(t *testing.T) {
	needLandlock(t)
	addr := sandboxtest.Listen(t)
	_, portText, _ := net.SplitHostPort(addr)
	port, _ := strconv.Atoi(portText)
	pl := newPlace(t)
	tests := []struct {
		name string
		p    Policy
		ok   bool
	}{
		{"none", Policy{Write: []string{pl.ws}}, false},
		{"other port", Policy{Write: []string{pl.ws}, Network: NetPorts, Ports: []uint16{uint16(port) + 1}}, false},
		{"listed port", Policy{Write: []string{pl.ws}, Network: NetPorts, Ports: []uint16{uint16(port)}}, true},
		{"any", Policy{Write: []string{pl.ws}, Network: NetAny}, true},
	}
	for _, tt := range tests {
		tt.p.Read = []string{filepath.Dir(selfExe(t))} // the test binary is the client
		_, out, err := shell(t, New(Options{}), tt.p, pl, strconv.Quote(selfExe(t)), dialEnv+"="+addr)
		if got := err == nil && strings.Contains(out, "connected"); got != tt.ok {
			t.Errorf("%s: connected=%v, want %v: %v\n%s", tt.name, got, tt.ok, err, out)
		}
		if !tt.ok && !strings.Contains(out, "permission denied") {
			t.Errorf("%s: the refusal does not say permission denied:\n%s", tt.name, out)
		}
	}
}

// TestFallbackWithoutLandlock simulates a kernel without Landlock: bwrap
// confines the command where it is installed, and otherwise the command
// runs unconfined and the status says so and why.
func TestFallbackWithoutLandlock(t *testing.T) {
	noLandlock := func() (int, error) { return 0, errNoLandlock }
	pl := newPlace(t)
	script := `echo ok > inside.txt; echo key > "$HOME/.ssh/x"; echo done`

	st, out, _ := shell(t, New(Options{LandlockABI: noLandlock, Bwrap: "-"}), Policy{Write: []string{pl.ws}}, pl, script)
	if st.Confined() || !strings.Contains(st.String(), "sandbox: none (Landlock is unavailable (function not implemented); bwrap is not installed)") {
		t.Errorf("status without Landlock and bwrap: %s", st)
	}
	if _, err := os.Stat(filepath.Join(pl.home, ".ssh", "x")); err != nil {
		t.Errorf("unconfined, the write should have happened: %v\n%s", err, out)
	}
	os.Remove(filepath.Join(pl.home, ".ssh", "x"))

	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Skip("bwrap is not installed: the bwrap fallback is not tested here")
	}
	s := New(Options{LandlockABI: noLandlock, Bwrap: bwrap})
	if ok, why := (&bwrapConfiner{path: bwrap}).available(); !ok {
		t.Skipf("bwrap cannot run here: %s", why)
	}
	st, out, _ = shell(t, s, Policy{Write: []string{pl.ws}}, pl, script)
	if st.Mechanism != Bwrap || !strings.Contains(st.String(), "Landlock is unavailable") {
		t.Errorf("status with bwrap: %s", st)
	}
	if _, err := os.Stat(filepath.Join(pl.ws, "inside.txt")); err != nil {
		t.Errorf("bwrap: the workspace write failed: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(pl.home, ".ssh", "x")); err == nil {
		t.Errorf("bwrap: ~/.ssh/x was written\n%s", out)
	}
	if Explain(st, out) == "" {
		t.Errorf("bwrap: the refusal is not explained:\n%s", out)
	}
	if err := os.WriteFile(filepath.Join(pl.home, ".ssh", "id_x"), []byte("PRIVATE KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, out, err := shell(t, s, Policy{Write: []string{pl.ws}}, pl, `cat "$HOME/.ssh/id_x"`); err == nil || strings.Contains(out, "PRIVATE KEY") {
		t.Errorf("bwrap: the secret outside was read: %v\n%s", err, out)
	}
	addr := sandboxtest.Listen(t)
	_, out, err = shell(t, s, Policy{Write: []string{pl.ws}, Read: []string{filepath.Dir(selfExe(t))}}, pl, strconv.Quote(selfExe(t)), dialEnv+"="+addr)
	if err == nil || strings.Contains(out, "connected") {
		t.Errorf("bwrap: network none connected: %v\n%s", err, out)
	}
}

// TestChildRefusesToRunUnconfined: a confining child whose rules cannot
// be applied does not run the program.
func TestChildRefusesToRunUnconfined(t *testing.T) {
	cmd := exec.Command(selfExe(t), childArg, "{not json", "/bin/echo", "echo", "ran")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 126 || strings.Contains(string(out), "ran") {
		t.Errorf("child: %v\n%s", err, out)
	}
}

// TestLandlockBreakouts: ways out a command might try, each refused: a
// symlink in the workspace pointing outside, a hard link of an outside
// file, a rename out of the workspace, and a signal to a process outside
// the sandbox (this test binary, its parent).
func TestLandlockBreakouts(t *testing.T) {
	needLandlock(t)
	pl := newPlace(t)
	outside := filepath.Join(pl.home, "victim")
	if err := os.WriteFile(outside, []byte("safe"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(pl.home, ".ssh"), filepath.Join(pl.ws, "ssh")); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, script string }{
		{"symlink out", `echo key > ssh/x`},
		{"hard link", `ln "` + outside + `" here && echo pwned > here`},
		{"rename out", `echo x > f && mv f "` + pl.home + `/f"`},
		{"truncate outside", `: > "` + outside + `"`},
		{"signal outside", `kill -CONT ` + strconv.Itoa(os.Getpid())}, // harmless if it got through
	}
	for _, tt := range tests {
		_, out, err := shell(t, New(Options{}), Policy{Write: []string{pl.ws}}, pl, tt.script)
		if err == nil {
			t.Errorf("%s: succeeded:\n%s", tt.name, out)
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "safe" {
		t.Errorf("the outside file became %q", b)
	}
	for _, p := range []string{filepath.Join(pl.home, ".ssh", "x"), filepath.Join(pl.home, "f")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written", p)
		}
	}
}

// TestStartedWaitsForTheProgram: Started closes once the confining child
// has exec'd the program (its output can then only be the program's), and
// at once for a command that was not wrapped by Landlock.
func TestStartedWaitsForTheProgram(t *testing.T) {
	needLandlock(t)
	pl := newPlace(t)
	cmd := exec.Command("/bin/sh", "-c", "echo run; sleep 5")
	cmd.Dir, cmd.Env = pl.ws, []string{"PATH=/usr/bin:/bin"}
	st, cleanup, err := New(Options{}).Wrap(cmd, Policy{Write: []string{pl.ws}})
	if err != nil || st.Mechanism != Landlock {
		t.Fatal(st, err)
	}
	defer cleanup()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	<-Started(cmd)
	exe, err := os.Readlink("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/exe")
	if err != nil || !strings.HasSuffix(exe, "sh") {
		t.Errorf("after Started the process runs %q (%v), want the shell", exe, err)
	}
	plain := exec.Command("/bin/true")
	select {
	case <-Started(plain):
	default:
		t.Error("Started of an unwrapped command is not closed")
	}
}

// TestLandlockConfinesReads: a confined command reads the system, the
// workspace and the folders it was given to read, and cannot read a
// secret outside them (a stand-in for ~/.ssh/id_x) nor list that folder.
func TestLandlockConfinesReads(t *testing.T) {
	needLandlock(t)
	pl := newPlace(t)
	secret := filepath.Join(pl.home, ".ssh", "id_x")
	if err := os.WriteFile(secret, []byte("PRIVATE KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	shared := t.TempDir()
	if err := os.WriteFile(filepath.Join(shared, "notes"), []byte("shared notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pl.ws, "own"), []byte("own file"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := Policy{Write: []string{pl.ws}, Read: []string{shared}}
	st, out, err := shell(t, New(Options{}), p, pl, `cat own /etc/passwd "`+shared+`/notes" >/dev/null && echo read-ok`)
	if err != nil || !strings.Contains(out, "read-ok") {
		t.Fatalf("allowed reads failed: %v\n%s", err, out)
	}
	if !strings.Contains(st.String(), "reads: the system") || !strings.Contains(st.String(), shared) {
		t.Errorf("status does not say what it reads: %s", st)
	}
	if err := os.Symlink(filepath.Join(pl.home, ".ssh"), filepath.Join(pl.ws, "keys")); err != nil {
		t.Fatal(err)
	}
	for script, leak := range map[string]string{
		`cat "` + secret + `"`:         "PRIVATE KEY",
		`ls "` + pl.home + `/.ssh"`:    "id_x\n",
		`cat keys/id_x`:                "PRIVATE KEY", // a link in the workspace leads nowhere new
		`cat /proc/self/root` + secret: "PRIVATE KEY",
	} {
		_, out, err := shell(t, New(Options{}), p, pl, script)
		if err == nil || strings.Contains(out, leak) {
			t.Errorf("%s: the secret was reachable: %v\n%s", script, err, out)
		}
		if !strings.Contains(out, "Permission denied") {
			t.Errorf("%s: not refused by the sandbox:\n%s", script, out)
		}
	}
}

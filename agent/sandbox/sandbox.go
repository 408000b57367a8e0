package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Network modes of a Policy.
const (
	NetNone  = "none"  // no network (the default of run_command)
	NetLocal = "local" // this machine only, through the filtering proxy (see the package doc)
	NetPorts = "ports" // TCP to the listed ports, any host
	NetHosts = "hosts" // the listed hosts only, through the filtering proxy
	NetAny   = "any"   // not confined (the default of MCP servers)
)

// maxHosts bounds a host list.
const maxHosts = 64

// Mechanisms a Status names.
const (
	Landlock   = "landlock"
	Bwrap      = "bwrap"
	SandboxExe = "sandbox-exec"
	// WindowsToken is a low-integrity token in a Job Object (Windows).
	WindowsToken = "low-integrity token"
	None         = "none"
)

// Policy is what one program may do beyond reading.
type Policy struct {
	// Write are the folders it may change (the workspace, the folders the
	// person listed). They must be absolute; missing ones are skipped.
	Write []string
	// Network is NetNone, NetLocal, NetPorts, NetHosts or NetAny; empty
	// is NetNone.
	Network string
	// Ports are the TCP ports NetPorts may connect to.
	Ports []uint16
	// Hosts are what NetHosts may reach: "example.com" (ports 80 and
	// 443), "*.example.com", "example.com:8443", an IP address.
	Hosts []string
	// Read are folders (or files) it may read besides the system, its
	// own installation and Write (see readSet). Absolute; missing ones
	// are skipped.
	Read []string
}

// Status says how a program runs: the mechanism, what it may write and
// reach, and why it is less than asked (Reason; empty when all is
// enforced).
type Status struct {
	Mechanism string   `json:"mechanism"`
	Reason    string   `json:"reason,omitempty"`
	Write     []string `json:"write,omitempty"`
	Network   string   `json:"network"`
	// Reads says what it may read, for the person: "the system, …" where
	// reads are confined.
	Reads string `json:"reads,omitempty"`
}

// Confined reports whether anything was enforced.
func (s Status) Confined() bool { return s.Mechanism != "" && s.Mechanism != None }

// String is the one line the card, the tool result and the server status
// show: "sandbox: landlock (writes: /ws; network: none)" or
// "sandbox: none (Landlock is unavailable: …; bwrap is not installed)".
func (s Status) String() string {
	mech := s.Mechanism
	if mech == "" {
		mech = None
	}
	if !s.Confined() {
		if s.Reason == "" {
			return "sandbox: none"
		}
		return "sandbox: none (" + s.Reason + ")"
	}
	writes := "nowhere"
	if len(s.Write) > 0 {
		writes = strings.Join(s.Write, ", ")
	}
	line := fmt.Sprintf("sandbox: %s (writes: %s, a private temporary folder; network: %s", mech, writes, s.Network)
	if s.Reads != "" {
		line += "; reads: " + s.Reads
	}
	if s.Reason != "" {
		line += "; " + s.Reason
	}
	return line + ")"
}

// readsText describes what a program confined by p may read, for the
// person: the system, its own program files, the folders it may write,
// and the folders listed in p.Read by name.
func readsText(p Policy) string {
	t := "the system, its own program files and the folders it writes"
	if len(p.Read) > 0 {
		t += ", and " + strings.Join(p.Read, ", ")
	}
	return t
}

// networkText describes a policy's network for the person.
func networkText(p Policy) string {
	switch p.Network {
	case NetAny:
		return "any"
	case NetLocal:
		return "this machine only, through the sandbox's proxy"
	case NetHosts:
		return "only " + strings.Join(p.Hosts, ", ") + ", through the sandbox's proxy"
	case NetPorts:
		if len(p.Ports) == 0 {
			return "none"
		}
		ports := make([]string, len(p.Ports))
		for i, port := range p.Ports {
			ports[i] = strconv.Itoa(int(port))
		}
		return "TCP ports " + strings.Join(ports, ", ")
	}
	return "none"
}

// Check validates p: known network mode, absolute write folders, ports
// only with NetPorts.
func (p Policy) Check() error {
	if p.Network != NetPorts && len(p.Ports) > 0 {
		return fmt.Errorf("sandbox: ports are only used with the network mode %q", NetPorts)
	}
	if p.Network != NetHosts && len(p.Hosts) > 0 {
		return fmt.Errorf("sandbox: hosts are only used with the network mode %q", NetHosts)
	}
	switch p.Network {
	case "", NetNone, NetLocal, NetAny:
	case NetPorts:
		if slices.Contains(p.Ports, 0) {
			return errors.New("sandbox: port 0 is not a port one can connect to")
		}
	case NetHosts:
		if len(p.Hosts) == 0 || len(p.Hosts) > maxHosts {
			return fmt.Errorf("sandbox: the network mode %q needs 1 to %d hosts", NetHosts, maxHosts)
		}
		if _, err := p.proxyRules(); err != nil {
			return err
		}
	default:
		return fmt.Errorf("sandbox: network must be %q, %q, %q, %q or %q, not %q", NetNone, NetLocal, NetPorts, NetHosts, NetAny, p.Network)
	}
	for _, w := range p.Write {
		if !filepath.IsAbs(w) {
			return fmt.Errorf("sandbox: the writable folder %q is not an absolute path", w)
		}
	}
	for _, r := range p.Read {
		if !filepath.IsAbs(r) {
			return fmt.Errorf("sandbox: the readable folder %q is not an absolute path", r)
		}
	}
	return nil
}

// normalized returns p with the network mode filled in and the write
// folders cleaned, resolved (Landlock rules follow the real path) and
// without the missing ones.
func (p Policy) normalized() Policy {
	if p.Network == "" {
		p.Network = NetNone
	}
	p.Write = existing(p.Write, true)
	p.Read = existing(p.Read, false)
	return p
}

// existing returns paths cleaned, resolved and deduplicated, without the
// missing ones (and the ones that are not folders, when dirsOnly).
func existing(paths []string, dirsOnly bool) []string {
	var out []string
	for _, w := range paths {
		real, err := filepath.EvalSymlinks(filepath.Clean(w))
		if err != nil {
			continue
		}
		if fi, err := os.Stat(real); err != nil || dirsOnly && !fi.IsDir() {
			continue
		}
		if !slices.Contains(out, real) {
			out = append(out, real)
		}
	}
	return out
}

// proxyRules are the filtering proxy's rules for p (NetLocal, NetHosts).
func (p Policy) proxyRules() (proxyRules, error) {
	r := proxyRules{local: p.Network == NetLocal}
	for _, h := range p.Hosts {
		rule, err := parseHost(h)
		if err != nil {
			return proxyRules{}, err
		}
		r.hosts = append(r.hosts, rule)
	}
	return r, nil
}

// viaProxy says whether p's network goes through the filtering proxy.
func (p Policy) viaProxy() bool { return p.Network == NetLocal || p.Network == NetHosts }

// confiner is one way to confine a program, per system (landlock_linux.go,
// bwrap_linux.go, darwin.go). wrap rewrites cmd; tmp is the program's
// private temporary folder, already created and in p.Write's company;
// r is what the program may read besides them (readSet).
type confiner interface {
	name() string
	// available says whether it can be used here, and when not, why.
	available() (bool, string)
	// enforcesPorts says whether it can hold a program to NetPorts (so
	// to the filtering proxy's port).
	enforcesPorts() bool
	wrap(cmd *exec.Cmd, p Policy, tmp string, r reads) (Status, error)
}

// reads are the folders and files a program may read besides its
// writable folders (readSet), and the links at the top of the file
// system that lead there ({target, link}: {"usr/bin", "/bin"}).
type reads struct {
	dirs, files []string
	links       [][2]string
}

// Options configure a Sandbox.
type Options struct {
	// Off turns confinement off; the Status says so with OffReason.
	Off       bool
	OffReason string
	// LandlockABI, when set, replaces the kernel's answer to "which
	// Landlock ABI do you offer" (tests simulate a kernel without
	// Landlock with it). Linux only.
	LandlockABI func() (int, error)
	// Bwrap, when set, is the bubblewrap program to fall back to instead
	// of bwrap on the PATH; "-" means none. Linux only.
	Bwrap string
	// ProxyLookup, when set, replaces the filtering proxy's name lookup
	// (and its refusal of private addresses behind a public name): tests
	// give a loopback server a host name with it.
	ProxyLookup LookupFunc
}

// Sandbox confines programs. nil uses the system's mechanisms; a Sandbox
// is safe for concurrent use. The environment variable
// JUNCTURE_SANDBOX=off is the global switch: it turns confinement off, and
// every Status says so.
type Sandbox struct {
	o Options
}

// New returns a Sandbox.
func New(o Options) *Sandbox { return &Sandbox{o: o} }

// off says whether confinement is turned off, and why.
func (s *Sandbox) off() (bool, string) {
	switch {
	case s != nil && s.o.Off:
		if s.o.OffReason == "" {
			return true, "turned off in the settings"
		}
		return true, s.o.OffReason
	case os.Getenv("JUNCTURE_SANDBOX") == "off":
		return true, "turned off by JUNCTURE_SANDBOX=off"
	}
	return false, ""
}

// Plan is the Status a program run with p would get, for an approval
// card shown before it runs. The program is confined as planned, or not
// started (Wrap fails).
func (s *Sandbox) Plan(p Policy) Status {
	cmd := exec.Command("/bin/true")
	cmd.Args[0] = planArg0 // nothing is changed for it: no proxy, no folder labels (isPlan)
	cmd.Env = []string{}
	st, cleanup, err := s.Wrap(cmd, p)
	cleanup()
	if err != nil {
		return Status{Mechanism: None, Reason: err.Error(), Network: "any"}
	}
	return st
}

// planArg0 marks the command Plan wraps, which never runs.
const planArg0 = "juncture-sandbox-plan"

// isPlan says whether cmd is Plan's, which is wrapped only to learn the
// Status: no proxy is started and nothing on disk is changed for it.
func isPlan(cmd *exec.Cmd) bool { return len(cmd.Args) > 0 && cmd.Args[0] == planArg0 }

func (s *Sandbox) confiners() []confiner {
	var o Options
	if s != nil {
		o = s.o
	}
	return systemConfiners(o)
}

// Wrap rewrites cmd (Path, Args, Env; on Windows SysProcAttr.Token) to run
// confined by p, using the strongest mechanism available, and returns
// how it runs and a cleanup to call once the program has ended (it
// removes the private temporary folder). cmd.Env must be set: TMPDIR is
// pointed at the private folder. An error means the program must not be
// started (the policy is invalid, or the private folder cannot be made).
func (s *Sandbox) Wrap(cmd *exec.Cmd, p Policy) (Status, func(), error) {
	noop := func() {}
	if err := p.Check(); err != nil {
		return Status{}, noop, err
	}
	if off, reason := s.off(); off {
		return Status{Mechanism: None, Reason: reason, Network: "any"}, noop, nil
	}
	if cmd.Env == nil {
		return Status{}, noop, errors.New("sandbox: the program's environment must be set explicitly")
	}
	p = p.normalized()
	r := readSet(cmd, p)
	var why []string
	for _, c := range s.confiners() {
		ok, reason := c.available()
		if !ok {
			why = append(why, reason)
			continue
		}
		tmp, err := os.MkdirTemp("", "juncture-sandbox-")
		if err != nil {
			return Status{}, noop, fmt.Errorf("sandbox: making the private temporary folder: %w", err)
		}
		if real, err := filepath.EvalSymlinks(tmp); err == nil {
			tmp = real
		}
		cmd.Env = setEnv(cmd.Env, "TMPDIR", tmp)
		wp := p
		var px *proxy
		viaProxy := p.viaProxy() && c.enforcesPorts()
		switch {
		case viaProxy && isPlan(cmd):
			wp.Network, wp.Ports, wp.Hosts = NetPorts, []uint16{1}, nil
		case viaProxy:
			rules, _ := p.proxyRules() // checked
			if px, err = startProxy(rules, s.lookup()); err != nil {
				_ = os.RemoveAll(tmp)
				return Status{}, noop, err
			}
			wp.Network, wp.Ports, wp.Hosts = NetPorts, []uint16{px.port()}, nil
			cmd.Env = proxyEnv(cmd.Env, px.url())
			proxies.Store(cmd, px)
		}
		st, err := c.wrap(cmd, wp, tmp, r)
		if viaProxy {
			st.Network = networkText(p)
			st.Reason = strings.TrimPrefix(st.Reason+"; "+proxyPortCaveat, "; ")
		}
		cleanup := func() {
			_ = os.RemoveAll(tmp)
			if v, ok := readyPipes.LoadAndDelete(cmd); ok {
				_ = v.(readyPipe).r.Close()
				_ = v.(readyPipe).w.Close()
			}
			if px != nil {
				proxies.CompareAndDelete(cmd, px)
				px.stop()
			}
			if v, ok := closers.LoadAndDelete(cmd); ok {
				v.(func())()
			}
		}
		if err != nil {
			cleanup()
			return Status{}, noop, err
		}
		if len(why) > 0 {
			st.Reason = strings.Join(append(why, st.Reason), "; ")
			st.Reason = strings.TrimSuffix(st.Reason, "; ")
		}
		return st, cleanup, nil
	}
	if len(why) == 0 {
		why = append(why, "this system has no sandbox Juncture can use")
	}
	return Status{Mechanism: None, Reason: strings.Join(why, "; "), Network: "any"}, noop, nil
}

// proxyPortCaveat is what the Status of a program whose network goes
// through the filtering proxy adds: Landlock's TCP rules name ports, not
// addresses, so the port the program may connect to (the proxy's) is open
// on every host, and a server elsewhere listening on it is reachable
// around the proxy's host list.
const proxyPortCaveat = "TCP to the proxy's port on any host is not refused (Landlock's rules name ports, not addresses)"

func (s *Sandbox) lookup() LookupFunc {
	if s == nil {
		return nil
	}
	return s.o.ProxyLookup
}

// closers holds, by command, what a confiner must release once the
// program has ended (the token on Windows).
var closers sync.Map // *exec.Cmd → func()

// proxies holds, by command, the filtering proxy its network goes
// through (Refused).
var proxies sync.Map // *exec.Cmd → *proxy

// Refused returns the destinations ("host:port") the filtering proxy of
// cmd refused so far, for the tool result; nil when cmd's network does
// not go through one. Call it before Wrap's cleanup.
func Refused(cmd *exec.Cmd) []string {
	if v, ok := proxies.Load(cmd); ok {
		return v.(*proxy).refusals()
	}
	return nil
}

// proxyEnv points every proxy variable clients read at the filtering
// proxy, and drops the exceptions (a client that connected directly would
// be refused by the sandbox instead).
func proxyEnv(env []string, url string) []string {
	for _, k := range []string{"NO_PROXY", "no_proxy"} {
		env = dropEnv(env, k)
	}
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"} {
		env = setEnv(env, k, url)
	}
	return env
}

// readyPipes holds, by command, the pipe a confining child closes when it
// execs the program (Landlock only; see Started).
var readyPipes sync.Map // *exec.Cmd → readyPipe

type readyPipe struct{ r, w *os.File }

// Started is closed once cmd's program itself runs, after cmd.Start: at
// once for a program started directly or by bwrap or sandbox-exec, and
// when the confining child execs it under Landlock (or exits without doing
// so). A command's time limit starts there, so a slow start of the child
// (a loaded machine, a race-instrumented test binary) does not eat it.
// Call it once, after a successful cmd.Start; the cleanup Wrap returned
// releases what it holds if it is never called.
func Started(cmd *exec.Cmd) <-chan struct{} {
	ch := make(chan struct{})
	v, ok := readyPipes.LoadAndDelete(cmd)
	if !ok {
		close(ch)
		return ch
	}
	rp := v.(readyPipe)
	_ = rp.w.Close() // the child holds its own copy
	go func() {
		defer close(ch)
		defer rp.r.Close()
		var b [1]byte
		_, _ = rp.r.Read(b[:]) // EOF: the child exec'd or exited
	}()
	return ch
}

// setEnv sets key in env (replacing every earlier value).
func setEnv(env []string, key, value string) []string {
	return append(dropEnv(env, key), key+"="+value)
}

// dropEnv returns env without key.
func dropEnv(env []string, key string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != key {
			out = append(out, kv)
		}
	}
	return out
}

// refusalMarks are how programs report EACCES and EPERM (and EROFS, which
// bwrap's read-only view gives) in their output.
var refusalMarks = []string{
	strings.ToLower(refusedByTheProxy), "permission denied", "operation not permitted", "read-only file system",
	"eacces", "eperm", "erofs", "errno 13", "errno 1]", "access is denied",
}

// Explain returns a note for a program's output when the program ran
// confined and its output shows a refusal the sandbox would cause
// (EACCES, EPERM, EROFS), or "" otherwise. The note says the sandbox
// probably refused it and what the program may write and reach.
func Explain(st Status, output string) string {
	if !st.Confined() {
		return ""
	}
	low := strings.ToLower(output)
	marks := refusalMarks
	if st.Mechanism == Bwrap {
		marks = append(slices.Clip(marks), hiddenMarks...)
	}
	if !slices.ContainsFunc(marks, func(m string) bool { return strings.Contains(low, m) }) {
		return ""
	}
	writes := "nowhere"
	if len(st.Write) > 0 {
		writes = strings.Join(st.Write, ", ")
	}
	reads := ""
	if st.Reads != "" {
		reads = "read only " + st.Reads + ", "
	}
	what := "refused an operation (permission denied)"
	if st.Mechanism == Bwrap {
		what = "refused an operation (permission denied, or a file outside its folders is hidden and looks missing)"
	}
	return fmt.Sprintf("[The sandbox (%s) %s: this program may %swrite only in %s "+
		"and its private temporary folder, and reach the network: %s. Reading, writing or connecting elsewhere is refused "+
		"by design; do not retry it another way.]", st.Mechanism, what, reads, writes, st.Network)
}

// hiddenMarks are how programs report a missing file: under bwrap what
// lies outside the readable folders is not there at all.
var hiddenMarks = []string{"no such file or directory", "directory nonexistent", "enoent"}

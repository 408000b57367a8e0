package mcp

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/juncture-app/juncture/agent/sandbox"
	"github.com/juncture-app/juncture/agent/tools"
)

// ErrUnknownServer is returned for a server name that is not configured.
var ErrUnknownServer = errors.New("mcp: no server of that name is configured")

// SampleMessage is one message of a server's sampling request, as text.
type SampleMessage struct{ Role, Text string }

// SampleRequest is what a server's sampling/createMessage asks the app's
// model, once the person approved it.
type SampleRequest struct {
	Server    string // the server's configured name
	ThreadID  string // the thread of the call the request serves: its model answers ("" outside a run)
	System    string
	Messages  []SampleMessage
	MaxTokens int
}

// SampleResult is the model's answer.
type SampleResult struct{ Text, Model, StopReason string }

// Sampler answers an approved sampling request with the app's model.
type Sampler func(ctx context.Context, r SampleRequest) (SampleResult, error)

// Options configure a Manager.
type Options struct {
	Processes *tools.Processes // owns every stdio server's process group (required for stdio servers)
	Pins      PinStore         // nil: pins kept in memory only
	Roots     func() []string  // folders reported by roots/list (the workspace); nil: none
	// Sandbox confines every stdio server (nil: the system's sandbox; see
	// agent/sandbox and ServerSandbox). A server may write in Roots as
	// they are when it starts.
	Sandbox *sandbox.Sandbox
	Sampler Sampler // nil: sampling is not offered to servers
	Logger  *slog.Logger
	Version string // client version in initialize
	// OnChange is called when a status or a tool list changed; on a
	// goroutine of the Manager's, never under a lock, coalesced.
	OnChange func()
	// Crash restarts: BackoffBase (default 1 s) doubling up to BackoffMax
	// (default 30 s); back to BackoffBase after 60 s ready.
	BackoffBase, BackoffMax time.Duration
	StartTimeout            time.Duration // connect + initialize + tools/list; default 30 s
	// RetryReadyWait bounds how long the retry of a call that asked for
	// input (the person's answer, maybe given after a restart) waits for
	// its server to be ready; default 30 s.
	RetryReadyWait time.Duration
	Now            func() time.Time

	// Sign-in (oauth.go): Vault keeps the tokens by issuer (the app's key
	// storage); Browser opens the authorization page. Without either, a
	// server asking for sign-in shows why it cannot.
	Vault   TokenVault
	Browser Browser
	// ClientMetadataURL is Juncture's Client ID Metadata Document (an
	// https URL), used where the authorization server accepts them; empty:
	// dynamic registration.
	ClientMetadataURL string
	SignInTimeout     time.Duration // the browser step; default 5 minutes
	// SchemeRedirect is the juncture:// redirect (SchemeRedirectURI), set
	// only where the packages registered the scheme: a dynamic
	// registration then asks for it, and its answer arrives through
	// DeliverSignInLink. Empty (the default), or a registration that
	// refuses it: the loopback redirect.
	SchemeRedirect string
	OAuthTransport http.RoundTripper // the authorization servers' requests; nil: http.DefaultTransport
}

// Manager runs the configured MCP servers and offers their tools.
type Manager struct {
	o    Options
	log  *slog.Logger
	pins PinStore

	logLevels logLevels // chosen in Settings, by server name (loglevel.go)
	auth      authBook  // sign-in states, by server name (oauth.go)
	links     linkBook  // sign-ins waiting for a juncture:// answer (oauth_link.go)

	mu      sync.Mutex
	servers map[string]*supervisor
	closed  bool

	wg        sync.WaitGroup // every goroutine of the supervisors
	closeOnce sync.Once
	changed   chan struct{} // capacity 1: an OnChange is due
	quit      chan struct{} // closed by Close once the supervisors ended
	notified  chan struct{} // closed when the notifier returned
}

// NewManager returns a Manager running no server; Apply starts them.
func NewManager(o Options) *Manager {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.BackoffBase <= 0 {
		o.BackoffBase = time.Second
	}
	if o.BackoffMax <= 0 {
		o.BackoffMax = 30 * time.Second
	}
	o.BackoffMax = max(o.BackoffMax, o.BackoffBase)
	if o.StartTimeout <= 0 {
		o.StartTimeout = 30 * time.Second
	}
	if o.RetryReadyWait <= 0 {
		o.RetryReadyWait = 30 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Version == "" {
		o.Version = "dev" // initialize requires one
	}
	m := &Manager{
		o: o, log: o.Logger, pins: o.Pins,
		servers: map[string]*supervisor{},
		changed: make(chan struct{}, 1), quit: make(chan struct{}), notified: make(chan struct{}),
	}
	if m.pins == nil {
		m.pins = newMemoryPins()
	}
	go m.notifier()
	return m
}

func (m *Manager) now() time.Time { return m.o.Now() }

// notify schedules an OnChange; it never blocks, and a burst of changes
// makes one call.
func (m *Manager) notify() { signal(m.changed) }

func (m *Manager) notifier() {
	defer close(m.notified)
	for {
		select {
		case <-m.changed:
			if m.o.OnChange != nil {
				m.o.OnChange()
			}
		case <-m.quit:
			return
		}
	}
}

// Apply makes the running set match cfg and returns at once (servers start
// in the background): new servers start, removed ones stop, changed ones
// restart (the new process starts once the old one ended), disabled ones
// stop and report "disabled". A change of the approval policy alone
// restarts nothing.
func (m *Manager) Apply(cfg Config) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	for name, old := range m.servers {
		if _, ok := cfg.Servers[name]; !ok {
			old.cancel()
			delete(m.servers, name)
		}
	}
	for name, sc := range cfg.Servers {
		old := m.servers[name]
		if old != nil && sameLaunch(old.cfg, sc) {
			old.update(func(st *state) { st.policy = sc.Approval })
			continue
		}
		log, restarts := newLogTail(), 0
		var prev <-chan struct{}
		if old != nil {
			old.cancel()
			log, prev = old.log, old.stopped()
			restarts = old.snapshot().restarts
		}
		s := newSupervisor(m, name, sc, log, restarts, prev)
		m.servers[name] = s
		if !sc.Disabled {
			m.wg.Add(1)
			go s.run()
		}
	}
	m.notify()
}

// sameLaunch reports whether two configurations start the same server
// (everything but the approval policy and unknown fields).
func sameLaunch(a, b ServerConfig) bool {
	return a.Command == b.Command && slices.Equal(a.Args, b.Args) && maps.Equal(a.Env, b.Env) &&
		a.Cwd == b.Cwd && a.URL == b.URL && maps.Equal(a.Headers, b.Headers) &&
		a.Type == b.Type && a.Disabled == b.Disabled
}

func (m *Manager) lookup(name string) *supervisor {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.servers[name]
}

// sorted returns the supervisors ordered by name.
func (m *Manager) sorted() []*supervisor {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*supervisor, 0, len(m.servers))
	for _, s := range m.servers {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// Servers reports every configured server, sorted by name, with its tools
// while it is ready (ReadOnly: runs without asking, policy and pins
// applied).
func (m *Manager) Servers() []ServerStatus {
	sups := m.sorted()
	states := make([]state, len(sups))
	var views []serverView
	for i, s := range sups {
		states[i] = s.snapshot()
		if states[i].sess != nil {
			views = append(views, viewOf(s.name, states[i]))
		}
	}
	names := assignNames(views)
	out := make([]ServerStatus, 0, len(sups))
	for i, s := range sups {
		st := states[i]
		ss := ServerStatus{
			Name: s.name, Title: st.title, Transport: s.cfg.Transport(), Status: st.status,
			Error: st.err, Restarts: st.restarts, Policy: st.policy, Tools: []ToolInfo{},
		}
		if st.sess != nil {
			ss.Sandbox = st.sess.sandbox()
		}
		ss.Auth = m.auth.status(s.name)
		if st.status == StatusError && !st.nextRetry.IsZero() {
			ss.NextRetry = st.nextRetry.UnixMilli()
		}
		for _, e := range st.tools {
			ss.Tools = append(ss.Tools, toolInfo(s.name, st.policy, e, names))
		}
		out = append(out, ss)
	}
	return out
}

func toolInfo(server string, p Policy, e toolEntry, names map[ToolRef]string) ToolInfo {
	t := e.tool
	ti := ToolInfo{
		Name: t.Name, Title: toolTitle(t), Description: t.Description,
		ReadOnly:       effectiveReadOnly(p, e),
		Destructive:    !hint(t) && (t.Annotations == nil || t.Annotations.DestructiveHint == nil || *t.Annotations.DestructiveHint),
		ClaimsReadOnly: e.verdict.claims,
	}
	if e.schemaErr != "" {
		ti.Description = "Not offered to the model: " + e.schemaErr + "." + strings.TrimSpace(" "+t.Description)
	} else {
		ti.ModelName = names[ToolRef{Server: server, Tool: t.Name}]
	}
	return ti
}

func viewOf(name string, st state) serverView {
	v := serverView{name: name, title: orDefault(st.title, name), policy: st.policy, entries: st.tools}
	if st.sess != nil {
		v.sandbox = st.sess.sandbox()
	}
	return v
}

// assignNames names the offered tools of every ready server together, so
// no two collide.
func assignNames(views []serverView) map[ToolRef]string {
	var refs []ToolRef
	for _, v := range views {
		for _, e := range v.entries {
			if e.schemaErr == "" {
				refs = append(refs, ToolRef{Server: v.name, Tool: e.tool.Name})
			}
		}
	}
	return AssignNames(refs)
}

// Tools returns the tools of the ready servers for the next turn's
// registry, ordered by server then tool name (a stable request prefix).
func (m *Manager) Tools() []tools.Tool {
	var views []serverView
	for _, s := range m.sorted() {
		if st := s.snapshot(); st.sess != nil {
			views = append(views, viewOf(s.name, st))
		}
	}
	names := assignNames(views)
	var out []tools.Tool
	for _, v := range views {
		entries := slices.Clone(v.entries)
		sort.Slice(entries, func(i, j int) bool { return entries[i].tool.Name < entries[j].tool.Name })
		for _, e := range entries {
			if e.schemaErr == "" {
				out = append(out, m.adapt(v, e, names[ToolRef{Server: v.name, Tool: e.tool.Name}]))
			}
		}
	}
	return out
}

// Restart stops and starts a server now; a crashed server's backoff is
// skipped. A disabled server stays disabled.
func (m *Manager) Restart(name string) error {
	s := m.lookup(name)
	if s == nil {
		return ErrUnknownServer
	}
	if !s.cfg.Disabled {
		signal(s.restartCh)
	}
	return nil
}

// Log returns the tail of a server's stderr, its logging notifications
// and Juncture's notes about it (at most 64 KB / 500 lines).
func (m *Manager) Log(name string) (string, error) {
	s := m.lookup(name)
	if s == nil {
		return "", ErrUnknownServer
	}
	return s.log.String(), nil
}

// RootsChanged tells every server the workspace changed; each supervisor
// updates its client's roots, and the SDK notifies the server.
func (m *Manager) RootsChanged() {
	for _, s := range m.sorted() {
		if !s.cfg.Disabled {
			signal(s.rootsCh)
		}
	}
}

// rootURIs are the roots every client reports: file:// URIs of the
// workspace folders.
func (m *Manager) rootURIs() []*sdk.Root {
	if m.o.Roots == nil {
		return nil
	}
	var out []*sdk.Root
	seen := map[string]bool{}
	for _, dir := range m.o.Roots() {
		if dir == "" {
			continue
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			continue
		}
		p := filepath.ToSlash(abs)
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // a Windows drive: file:///C:/...
		}
		u := (&url.URL{Scheme: "file", Path: p}).String()
		if !seen[u] {
			seen[u] = true
			out = append(out, &sdk.Root{URI: u, Name: filepath.Base(abs)})
		}
	}
	return out
}

// Close ends every session and process group and waits for every
// goroutine the Manager started. Later calls to Apply do nothing.
func (m *Manager) Close() {
	m.closeOnce.Do(func() {
		m.mu.Lock()
		m.closed = true
		for _, s := range m.servers {
			s.cancel()
		}
		m.mu.Unlock()
		m.wg.Wait()
		close(m.quit)
		<-m.notified
	})
}

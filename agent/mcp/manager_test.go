package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/sandbox"
	"github.com/juncture-app/juncture/agent/tools"
)

func TestMain(m *testing.M) {
	sandbox.MaybeRunChild() // stdio servers start confined by a child of this binary
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	goleak.VerifyTestMain(m)
}

// fakeEnv is the runtime's CallEnv as a test wants it: progress recorded,
// prompts answered by answer (none: nobody can answer).
type fakeEnv struct {
	mu       sync.Mutex
	progress []tools.Progress
	prompts  []tools.Prompt
	answer   func(ctx context.Context, p tools.Prompt) (tools.Reply, error)
	onReport func(tools.Progress) // called for each report, outside the lock
}

func (e *fakeEnv) Progress(p tools.Progress) {
	e.mu.Lock()
	e.progress = append(e.progress, p)
	f := e.onReport
	e.mu.Unlock()
	if f != nil {
		f(p)
	}
}

func (e *fakeEnv) Ask(ctx context.Context, p tools.Prompt) (tools.Reply, error) {
	e.mu.Lock()
	e.prompts = append(e.prompts, p)
	answer := e.answer
	e.mu.Unlock()
	if answer == nil {
		return tools.Reply{}, tools.ErrNoPerson
	}
	return answer(ctx, p)
}

func (e *fakeEnv) reports() []tools.Progress {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]tools.Progress(nil), e.progress...)
}

func (e *fakeEnv) asked() []tools.Prompt {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]tools.Prompt(nil), e.prompts...)
}

// newManager returns a Manager with fast backoff whose processes and
// goroutines end with the test.
func newManager(t testing.TB, o Options) *Manager {
	t.Helper()
	procs := tools.NewProcesses()
	o.Processes = procs
	if o.BackoffBase == 0 {
		o.BackoffBase = 50 * time.Millisecond
	}
	if o.BackoffMax == 0 {
		o.BackoffMax = 200 * time.Millisecond
	}
	if o.StartTimeout == 0 {
		o.StartTimeout = 30 * time.Second
	}
	m := NewManager(o)
	t.Cleanup(func() {
		m.Close()
		procs.Close()
	})
	return m
}

// status returns a server's status (fails when it is not configured).
func status(t testing.TB, m *Manager, name string) ServerStatus {
	t.Helper()
	for _, s := range m.Servers() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("server %q is not listed", name)
	return ServerStatus{}
}

// waitFor polls a server's status until ok (at most 30 s).
func waitFor(t testing.TB, m *Manager, name string, what string, ok func(ServerStatus) bool) ServerStatus {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s := status(t, m, name)
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			log, _ := m.Log(name)
			t.Fatalf("server %q: still not %s: %+v\nlog:\n%s", name, what, s, log)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func isReady(s ServerStatus) bool { return s.Status == StatusReady }

// waitTool waits until a ready server lists tool (some tools appear only
// after initialization) and returns it.
func waitTool(t testing.TB, m *Manager, server, tool string) ToolInfo {
	t.Helper()
	var ti ToolInfo
	waitFor(t, m, server, "listing "+tool, func(s ServerStatus) bool {
		for _, x := range s.Tools {
			if x.Name == tool && s.Status == StatusReady {
				ti = x
				return true
			}
		}
		return false
	})
	return ti
}

// lookupTool returns the tools.Tool the model would call for a server's tool.
func lookupTool(t testing.TB, m *Manager, server, tool string) tools.Tool {
	t.Helper()
	name := waitTool(t, m, server, tool).ModelName
	for _, x := range m.Tools() {
		if x.Name == name {
			return x
		}
	}
	t.Fatalf("no tool %q (%s of %s) in Tools()", name, tool, server)
	return tools.Tool{}
}

// runTool calls a server's tool as the runtime does: through a registry
// of every tool the Manager offers (which also proves they all compile),
// Prepare, then Execute with env in the context.
func runTool(t testing.TB, ctx context.Context, m *Manager, env *fakeEnv, server, tool string, args any) tools.Result {
	t.Helper()
	name := waitTool(t, m, server, tool).ModelName
	reg, err := tools.NewRegistry(m.Tools()...)
	if err != nil {
		t.Fatalf("the registry of the MCP tools: %v", err)
	}
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	c, res := reg.Prepare(name, string(raw))
	if res != nil {
		return *res
	}
	if env != nil {
		ctx = tools.WithCallEnv(ctx, env)
	}
	return reg.Execute(ctx, c)
}

func mustContain(t testing.TB, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in:\n%s", w, got)
		}
	}
}

func TestUnknownServer(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	if err := m.Restart("nope"); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("Restart: %v", err)
	}
	if _, err := m.Log("nope"); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("Log: %v", err)
	}
	if got := m.Servers(); len(got) != 0 {
		t.Errorf("Servers: %+v", got)
	}
}

func TestStartFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  ServerConfig
		want string
	}{
		{"missing command", ServerConfig{Command: "juncture-no-such-program"}, `could not start "juncture-no-such-program": executable file not found in $PATH`},
		{"missing folder", ServerConfig{Command: "sh", Cwd: "/juncture/no/such/dir"}, `could not start "sh": the folder "/juncture/no/such/dir" does not exist`},
		{"refused port", ServerConfig{URL: "http://127.0.0.1:1/mcp?key=s3cret", Headers: map[string]string{"Authorization": "Bearer s3cret"}}, "could not connect to http://127.0.0.1:1/mcp: "},
	}
	m := newManager(t, Options{})
	cfg := Config{Servers: map[string]ServerConfig{}}
	for _, tt := range tests {
		cfg.Servers[tt.name] = tt.cfg
	}
	m.Apply(cfg)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := waitFor(t, m, tt.name, "failed", func(s ServerStatus) bool { return s.Status == StatusError })
			mustContain(t, s.Error, tt.want)
			if s.NextRetry == 0 {
				t.Errorf("no NextRetry: %+v", s)
			}
			log, _ := m.Log(tt.name)
			if strings.Contains(s.Error+log, "s3cret") {
				t.Errorf("a secret leaked:\n%s\n%s", s.Error, log)
			}
		})
	}
	// Failed starts are retried with backoff; each retry counts.
	waitFor(t, m, "missing command", "retried", func(s ServerStatus) bool { return s.Restarts >= 2 })
}

// TestHTTPHeaders: configured headers reach the server, and a 404 to the
// Streamable HTTP POST makes Juncture try the legacy SSE transport once.
func TestHTTPHeaders(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	seen := map[string]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.Method] = r.Header.Get("X-Api-Key")
		mu.Unlock()
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{"h": {URL: srv.URL + "/mcp", Headers: map[string]string{"X-Api-Key": "k3y-value"}}}})
	s := waitFor(t, m, "h", "failed", func(s ServerStatus) bool { return s.Status == StatusError })
	m.Close() // the server must see no more requests while we read
	mu.Lock()
	defer mu.Unlock()
	if seen["POST"] != "k3y-value" || seen["GET"] != "k3y-value" {
		t.Errorf("headers seen by method: %v", seen)
	}
	log, _ := m.Log("h")
	mustContain(t, log, "refused Streamable HTTP (HTTP 404)", "legacy SSE")
	if strings.Contains(s.Error+log, "k3y-value") {
		t.Errorf("a header value leaked:\n%s\n%s", s.Error, log)
	}
}

func TestDisabledAndRemoved(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{
		"off": {Command: "juncture-no-such-program", Disabled: true},
		"bad": {Command: "juncture-no-such-program"},
	}})
	if s := status(t, m, "off"); s.Status != StatusDisabled || s.Transport != TransportStdio {
		t.Errorf("disabled server: %+v", s)
	}
	if err := m.Restart("off"); err != nil {
		t.Errorf("Restart of a disabled server: %v", err)
	}
	waitFor(t, m, "bad", "failed", func(s ServerStatus) bool { return s.Status == StatusError })
	m.Apply(Config{Servers: map[string]ServerConfig{"off": {Command: "juncture-no-such-program", Disabled: true}}})
	if got := m.Servers(); len(got) != 1 || got[0].Name != "off" {
		t.Errorf("after removing bad: %+v", got)
	}
	if _, err := m.Log("bad"); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("Log of a removed server: %v", err)
	}
}

func TestOnChange(t *testing.T) {
	t.Parallel()
	changed := make(chan struct{}, 100)
	m := newManager(t, Options{OnChange: func() { changed <- struct{}{} }})
	m.Apply(Config{Servers: map[string]ServerConfig{"x": {Command: "juncture-no-such-program"}}})
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("OnChange was not called")
	}
}

func TestFingerprint(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	base := &sdk.Tool{Name: "t", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}
	fp := Fingerprint("s", base)
	if len(fp) != 32 {
		t.Fatalf("fingerprint %q is not 16 bytes of hex", fp)
	}
	tests := []struct {
		name   string
		server string
		tool   *sdk.Tool
		same   bool
	}{
		{"same", "s", &sdk.Tool{Name: "t", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}, true},
		{"description", "s", &sdk.Tool{Name: "t", Description: "d", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}, false},
		{"title", "s", &sdk.Tool{Name: "t", Title: "T", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}, false},
		{"input schema", "s", &sdk.Tool{Name: "t", InputSchema: map[string]any{"type": "object"}, Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}, false},
		{"defaults spelled out", "s", &sdk.Tool{Name: "t", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &yes, OpenWorldHint: &yes}}, true},
		{"other server", "s2", base, false},
		{"other name", "s", &sdk.Tool{Name: "t2", Annotations: base.Annotations}, false},
		{"readOnly", "s", &sdk.Tool{Name: "t"}, false},
		{"destructive", "s", &sdk.Tool{Name: "t", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &no}}, false},
		{"idempotent", "s", &sdk.Tool{Name: "t", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}}, false},
		{"openWorld", "s", &sdk.Tool{Name: "t", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}}, false},
	}
	for _, tt := range tests {
		if got := Fingerprint(tt.server, tt.tool) == fp; got != tt.same {
			t.Errorf("%s: same fingerprint = %v, want %v", tt.name, got, tt.same)
		}
	}
}

// failingPins is a PinStore whose disk is gone.
type failingPins struct{}

func (failingPins) ToolPins(context.Context) ([]Pin, error) { return nil, errors.New("disk gone") }
func (failingPins) SaveToolPin(context.Context, Pin) error  { return errors.New("disk gone") }

func TestApplyPins(t *testing.T) {
	t.Parallel()
	ro := func(name string, readOnly bool) *sdk.Tool {
		return &sdk.Tool{Name: name, Annotations: &sdk.ToolAnnotations{ReadOnlyHint: readOnly}}
	}
	now := time.UnixMilli(1_700_000_000_000)
	log := slog.New(slog.DiscardHandler)
	tests := []struct {
		name     string
		pinned   []Pin
		tool     *sdk.Tool
		want     readOnlyVerdict
		wantPin  *Pin // what the store holds afterwards
		failings bool
	}{
		{"first sight read-only", nil, ro("a", true), readOnlyVerdict{readOnly: true}, &Pin{Server: "s", Tool: "a", ReadOnly: true, FirstSeen: now.UnixMilli()}, false},
		{"first sight writes", nil, ro("a", false), readOnlyVerdict{}, &Pin{Server: "s", Tool: "a", FirstSeen: now.UnixMilli()}, false},
		{"no annotations", nil, &sdk.Tool{Name: "a"}, readOnlyVerdict{}, &Pin{Server: "s", Tool: "a", FirstSeen: now.UnixMilli()}, false},
		{"claims read-only later", []Pin{{Server: "s", Tool: "a", FirstSeen: 1}}, ro("a", true), readOnlyVerdict{claims: true}, &Pin{Server: "s", Tool: "a", FirstSeen: 1}, false},
		{"stricter is accepted", []Pin{{Server: "s", Tool: "a", ReadOnly: true, FirstSeen: 1}}, ro("a", false), readOnlyVerdict{}, &Pin{Server: "s", Tool: "a", FirstSeen: 1}, false},
		{"still read-only", []Pin{{Server: "s", Tool: "a", ReadOnly: true, FirstSeen: 1}}, ro("a", true), readOnlyVerdict{readOnly: true}, &Pin{Server: "s", Tool: "a", ReadOnly: true, FirstSeen: 1}, false},
		{"other server's pin", []Pin{{Server: "other", Tool: "a", FirstSeen: 1}}, ro("a", true), readOnlyVerdict{readOnly: true}, &Pin{Server: "s", Tool: "a", ReadOnly: true, FirstSeen: now.UnixMilli()}, false},
		{"store fails", nil, ro("a", true), readOnlyVerdict{claims: true}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var store PinStore = failingPins{}
			mem := newMemoryPins()
			if !tt.failings {
				for _, p := range tt.pinned {
					_ = mem.SaveToolPin(context.Background(), p)
				}
				store = mem
			}
			got := applyPins(context.Background(), store, "s", []*sdk.Tool{tt.tool}, now, log)["a"]
			if got != tt.want {
				t.Errorf("verdict %+v, want %+v", got, tt.want)
			}
			if tt.wantPin != nil {
				if p := mem.pins[ToolRef{Server: "s", Tool: "a"}]; p != *tt.wantPin {
					t.Errorf("pin %+v, want %+v", p, *tt.wantPin)
				}
			}
		})
	}
}

func TestLogTail(t *testing.T) {
	t.Parallel()
	l := newLogTail()
	for i := 0; i < 600; i++ {
		_, _ = io.WriteString(l, "line\n")
	}
	if n := strings.Count(l.String(), "\n"); n != logTailMaxLines {
		t.Errorf("%d lines kept, want %d", n, logTailMaxLines)
	}
	big := strings.Repeat("x", 1000)
	for i := 0; i < 200; i++ {
		_, _ = io.WriteString(l, big+"\n")
	}
	if n := len(l.String()); n > logTailMaxBytes {
		t.Errorf("%d bytes kept, over %d", n, logTailMaxBytes)
	}
	_, _ = io.WriteString(l, "half a ")
	_, _ = io.WriteString(l, "line")
	if got := l.lastLine(); got != "half a line" {
		t.Errorf("lastLine %q", got)
	}
	_, _ = io.WriteString(l, "\r\n")
	l.Note(notePrefix + "starting")
	if got := l.lastLine(); got != "" {
		t.Errorf("lastLine after a note: %q", got)
	}
	_, _ = io.WriteString(l, strings.Repeat("y", 3*logLineMax))
	for _, line := range strings.Split(l.String(), "\n") {
		if len(line) > logLineMax+len(" …") {
			t.Errorf("a line of %d bytes was kept", len(line))
		}
	}
}

func TestLookPath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	exe := dir + "/prog"
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=/nowhere", "PATH=relative:" + dir}
	tests := []struct {
		name, cmd, dir, want string
		err                  bool
	}{
		{"on PATH", "prog", "", exe, false},
		{"absolute", exe, "", exe, false},
		{"relative to the folder", "./prog", dir, dir + "/prog", false},
		{"not found", "juncture-nope", "", "", true},
		{"empty", "", "", "", true},
	}
	for _, tt := range tests {
		got, err := lookPath(tt.cmd, tt.dir, env)
		if (err != nil) != tt.err || (!tt.err && got != tt.want) {
			t.Errorf("%s: lookPath(%q) = %q, %v", tt.name, tt.cmd, got, err)
		}
	}
}

func TestRootURIs(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{Roots: func() []string { return []string{"/tmp/a b", "", "/tmp/a b", "/srv/x"} }})
	got := m.rootURIs()
	if len(got) != 2 || got[0].URI != "file:///tmp/a%20b" || got[0].Name != "a b" || got[1].URI != "file:///srv/x" {
		t.Errorf("roots %+v", got)
	}
}

func TestRulesAndPreview(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	e := newToolEntry("srv", &sdk.Tool{Name: "t", Title: "Tee", InputSchema: map[string]any{"type": "object"}}, readOnlyVerdict{})
	tool := m.adapt(serverView{name: "srv", title: "The Server", entries: []toolEntry{e}}, e, "srv__t")
	rules := tool.Rules.Suggest(nil)
	if len(rules) != 2 || rules[0].Scope != history.ScopeToolIdentity || rules[0].Pattern != e.fingerprint ||
		rules[1].Tool != "mcp:srv" || rules[1].Scope != history.ScopeServer || rules[1].Pattern != "srv" {
		t.Fatalf("suggested %+v", rules)
	}
	tests := []struct {
		rule history.PermissionRule
		want bool
	}{
		{rules[0], true},
		{rules[1], true},
		{history.PermissionRule{Tool: "srv__t", Scope: history.ScopeToolIdentity, Pattern: "0000"}, false},
		{history.PermissionRule{Tool: "other__t", Scope: history.ScopeToolIdentity, Pattern: e.fingerprint}, false},
		{history.PermissionRule{Tool: "mcp:other", Scope: history.ScopeServer, Pattern: "srv"}, false},
		{history.PermissionRule{Tool: "srv__t", Scope: history.ScopeTool}, false},
	}
	for _, tt := range tests {
		if got := tool.Rules.Match(tt.rule, nil); got != tt.want {
			t.Errorf("Match(%+v) = %v", tt.rule, got)
		}
	}
	pv, err := tool.Preview(context.Background(), json.RawMessage(`{"a":1}`))
	if err != nil || pv.Kind != tools.PreviewJSON || pv.Title != "The Server · Tee" || pv.Body != "{\n  \"a\": 1\n}" {
		t.Errorf("preview %+v, %v", pv, err)
	}
	if tool.OnStop != tools.Abortable || tool.Description != "Tee" || tool.Source != "srv" {
		t.Errorf("tool %+v", tool)
	}
}

func TestSchemas(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		schema any
		ok     bool
		want   string // the schema offered, when ok
	}{
		{"absent", nil, true, `{"type":"object","properties":{}}`},
		{"not an object", "string", true, `{"type":"object","properties":{}}`},
		{"object", map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}}}, true, ""},
		{"no type", map[string]any{"properties": map[string]any{}}, true, ""},
		{"array root", map[string]any{"type": "array"}, false, ""},
		{"bad keyword", map[string]any{"type": "object", "minProperties": "two"}, false, ""},
		{"dangling ref", map[string]any{"type": "object", "$ref": "#/$defs/nope"}, false, ""},
	}
	for _, tt := range tests {
		e := newToolEntry("s", &sdk.Tool{Name: "t", InputSchema: tt.schema}, readOnlyVerdict{})
		if (e.schemaErr == "") != tt.ok {
			t.Errorf("%s: schemaErr %q", tt.name, e.schemaErr)
			continue
		}
		if tt.want != "" && string(e.schema) != tt.want {
			t.Errorf("%s: schema %s", tt.name, e.schema)
		}
		if tt.ok {
			// What is offered must build a registry.
			if _, err := tools.NewRegistry(tools.Tool{Name: "t", Schema: e.schema, Run: func(context.Context, json.RawMessage) (tools.Result, error) { return tools.Result{}, nil }}); err != nil {
				t.Errorf("%s: the registry refuses it: %v", tt.name, err)
			}
		}
	}
}

func TestRoute(t *testing.T) {
	t.Parallel()
	r := newCallRegistry()
	stopped, stop := context.WithCancel(context.Background())
	first, doneFirst := r.begin(stopped)
	second, doneSecond := r.begin(context.Background())
	third, doneThird := r.begin(context.Background())
	defer doneSecond()
	defer doneThird()
	if got := r.route(context.Background()); got != first {
		t.Error("not the earliest call")
	}
	stop()
	if got := r.route(context.Background()); got != second {
		t.Error("a stopped call was picked")
	}
	if got := r.route(third.ctx); got != third {
		t.Error("a request within a call's context went elsewhere")
	}
	if got := r.byToken(third.token); got != third {
		t.Error("byToken")
	}
	doneFirst()
	if got := r.byToken(first.token); got != nil {
		t.Error("a finished call still gets progress")
	}
	if got := newCallRegistry().route(context.Background()); got != nil {
		t.Error("a call without any in flight")
	}
}

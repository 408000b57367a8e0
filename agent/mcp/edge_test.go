package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/tools"
)

// edgeConfig is the edge server over stdio with extra args and env.
func edgeConfig(t testing.TB, env map[string]string, args ...string) ServerConfig {
	t.Helper()
	cmd, base := edgeServerCommand(t)
	return ServerConfig{Command: cmd, Args: append(base, args...), Env: env}
}

// startEdge runs the edge server as "edge" in a fresh Manager and waits
// until it is ready.
func startEdge(t testing.TB, o Options, env map[string]string, args ...string) *Manager {
	t.Helper()
	m := newManager(t, o)
	m.Apply(Config{Servers: map[string]ServerConfig{"edge": edgeConfig(t, env, args...)}})
	waitFor(t, m, "edge", "ready", isReady)
	return m
}

func TestEdgeFailStart(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{"edge": edgeConfig(t, nil, "-stderr-lines", "3", "-fail-start", "no luck: the database is locked")}})
	s := waitFor(t, m, "edge", "failed", func(s ServerStatus) bool { return s.Status == StatusError })
	if s.Error != "exited with status 1: no luck: the database is locked" {
		t.Errorf("error %q", s.Error)
	}
	log, err := m.Log("edge")
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, log, "edgeserver stderr line 1 of 3", "edgeserver stderr line 3 of 3", "no luck")
}

func TestEdgeSlowStart(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{StartTimeout: 300 * time.Millisecond})
	m.Apply(Config{Servers: map[string]ServerConfig{"edge": edgeConfig(t, nil, "-slow-start", "5s")}})
	s := waitFor(t, m, "edge", "timed out", func(s ServerStatus) bool { return s.Status == StatusError })
	if s.Error != "did not start within 300ms" {
		t.Errorf("error %q", s.Error)
	}
}

// TestEdgeTools covers the plain tools of one edge server: results,
// progress, policies, and a call that never gets an answer.
func TestEdgeTools(t *testing.T) {
	t.Parallel()
	m := startEdge(t, Options{}, nil)
	ctx := context.Background()

	t.Run("results", func(t *testing.T) {
		tests := []struct {
			tool  string
			args  any
			text  string
			isErr bool
			kind  string
		}{
			{"echo", map[string]any{"text": "hi"}, "hi", false, ""},
			{"image", nil, "[image: image/png, 73 B — shown to the person]\na 1x1 red pixel", false, tools.PartImage},
			{"structured", nil, "21 C", false, tools.PartStructured},
			{"links", nil, "[link: doc https://example.com/doc]\nsee the linked document", false, tools.PartLink},
			{"fails", nil, "the edge server failed on purpose", true, ""},
			{"echo", map[string]any{}, "Invalid arguments for edge__echo", true, ""},
		}
		for _, tt := range tests {
			res := runTool(t, ctx, m, nil, "edge", tt.tool, tt.args)
			if !strings.Contains(res.Content, tt.text) || res.IsError != tt.isErr {
				t.Errorf("%s: %+v", tt.tool, res)
			}
			if tt.kind != "" && (len(res.Parts) != 1 || res.Parts[0].Kind != tt.kind) {
				t.Errorf("%s: parts %+v", tt.tool, res.Parts)
			}
		}
	})

	t.Run("progress", func(t *testing.T) {
		env := &fakeEnv{}
		res := runTool(t, ctx, m, env, "edge", "slow", map[string]any{"steps": 3, "stepMs": 20})
		if res.Content != "done" {
			t.Fatalf("slow: %+v", res)
		}
		got := env.reports()
		checkProgress(t, got, 3)
		if len(got) > 0 && got[0].Message != "step 1 of 3" {
			t.Errorf("progress %+v", got)
		}
	})

	t.Run("flood", func(t *testing.T) {
		env := &fakeEnv{}
		start := time.Now()
		res := runTool(t, ctx, m, env, "edge", "flood", map[string]any{"count": 10000})
		if res.Content != "flooded 10000" {
			t.Fatalf("flood: %+v", res)
		}
		t.Logf("10000 progress notifications in %s, %d reported", time.Since(start).Round(time.Millisecond), len(env.reports()))
		// The session is still fine afterwards.
		if res := runTool(t, ctx, m, nil, "edge", "echo", map[string]any{"text": "after"}); res.Content != "after" {
			t.Errorf("echo after the flood: %+v", res)
		}
	})

	t.Run("policies", func(t *testing.T) {
		needs := func(tool string) (bool, bool) {
			x := lookupTool(t, m, "edge", tool)
			if x.NeedsApproval == nil {
				return false, false
			}
			return x.NeedsApproval(nil), true
		}
		cfg := edgeConfig(t, nil)
		tests := []struct {
			policy     Policy
			echo, note bool // asks
			nilFunc    bool
		}{
			{PolicyDefault, false, true, false},
			{PolicyAsk, true, true, false},
			{PolicyTrust, false, false, true},
			{PolicyDefault, false, true, false},
		}
		for _, tt := range tests {
			cfg.Approval = tt.policy
			m.Apply(Config{Servers: map[string]ServerConfig{"edge": cfg}})
			echo, set := needs("echo")
			note, _ := needs("note")
			if echo != tt.echo || note != tt.note || set == tt.nilFunc {
				t.Errorf("policy %q: echo asks %v, note asks %v, NeedsApproval set %v", tt.policy, echo, note, set)
			}
			s := status(t, m, "edge")
			if s.Status != StatusReady || s.Restarts != 0 || s.Policy != tt.policy {
				t.Errorf("a policy change restarted the server or was not applied: %+v", s)
			}
		}
	})

	t.Run("elicit without a person", func(t *testing.T) {
		// A 2026-07-28 server asks by its result: the call returns the
		// question, nothing waits (roundtrip_test.go covers the retry).
		res := runTool(t, ctx, m, nil, "edge", "elicit", nil)
		if res.Input == nil || len(res.Input.Prompts) != 1 {
			t.Errorf("elicit: %+v", res)
		}
	})
}

func TestEdgeHangStop(t *testing.T) {
	t.Parallel()
	// The logs sit in the server's workspace: the sandbox lets it write
	// nowhere else.
	logs := t.TempDir()
	cancelLog := filepath.Join(logs, "cancel.log")
	startLog := filepath.Join(logs, "start.log")
	m := startEdge(t, Options{Roots: func() []string { return []string{logs} }}, map[string]string{"EDGE_CANCEL_LOG": cancelLog, "EDGE_START_LOG": startLog})
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan time.Time, 1)
	go func() {
		// Stop once the server has the call: before, there is nothing to cancel.
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if b, _ := os.ReadFile(startLog); len(b) > 0 {
				break
			}
		}
		stopped <- time.Now()
		cancel()
	}()
	res := runTool(t, ctx, m, nil, "edge", "hang", nil)
	took := time.Since(<-stopped)
	t.Logf("Run returned %s after its context was cancelled", took.Round(time.Microsecond))
	// Generous: "returns once stopped rather than waiting for the server"
	// (the figure is BenchmarkStopDuringMCPCall's).
	if took > 3*time.Second {
		t.Errorf("Run took %s to return after Stop", took)
	}
	if res.Content != stoppedResult.Content || !res.IsError {
		t.Errorf("result %+v", res)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(cancelLog)
		if strings.HasPrefix(string(b), "cancelled ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server never heard of the cancellation (log %q)", b)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if s := status(t, m, "edge"); s.Status != StatusReady {
		t.Errorf("after a stopped call: %+v", s)
	}
}

func TestEdgeCrashMidCall(t *testing.T) {
	t.Parallel()
	m := startEdge(t, Options{}, nil)
	res := runTool(t, context.Background(), m, nil, "edge", "crash", map[string]any{"afterMs": 50})
	want := `The MCP server "edge" stopped during the call (exited with status 3); side effects unknown.`
	if !res.IsError || res.Content != want {
		t.Errorf("result %+v", res)
	}
	s := waitFor(t, m, "edge", "ready again", func(s ServerStatus) bool { return s.Status == StatusReady && s.Restarts == 1 })
	if len(s.Tools) == 0 {
		t.Errorf("no tools after the restart: %+v", s)
	}
	log, _ := m.Log("edge")
	mustContain(t, log, "stopped unexpectedly (exited with status 3)")
}

func TestEdgeGarbage(t *testing.T) {
	t.Parallel()
	// A long first backoff, so the error status can be seen.
	m := startEdge(t, Options{BackoffBase: time.Second, BackoffMax: time.Second}, nil)
	res := runTool(t, context.Background(), m, nil, "edge", "garbage", nil)
	if !res.IsError || !strings.Contains(res.Content, `The MCP server "edge" stopped during the call (`) {
		t.Errorf("result %+v", res)
	}
	s := waitFor(t, m, "edge", "in error", func(s ServerStatus) bool { return s.Status == StatusError })
	mustContain(t, s.Error, "stopped unexpectedly (", "restarting in 1s")
	if s.NextRetry == 0 {
		t.Errorf("no NextRetry: %+v", s)
	}
	// Not ready: the call is not sent.
	if res := m.call(context.Background(), "edge", "echo", json.RawMessage(`{"text":"x"}`)); !strings.Contains(res.Content, `The MCP server "edge" is not ready (error: stopped unexpectedly`) || !res.IsError {
		t.Errorf("call while in error: %+v", res)
	}
	waitFor(t, m, "edge", "ready again", func(s ServerStatus) bool { return s.Status == StatusReady && s.Restarts == 1 })
}

// TestEdgeFlipPins: a tool first seen as not read-only keeps asking when
// the server later says it is read-only.
func TestEdgeFlipPins(t *testing.T) {
	t.Parallel()
	m := startEdge(t, Options{}, map[string]string{"EDGE_FLIP_READONLY": "0"})
	if ti := waitTool(t, m, "edge", "flip"); ti.ReadOnly || ti.ClaimsReadOnly {
		t.Fatalf("flip at first: %+v", ti)
	}
	m.Apply(Config{Servers: map[string]ServerConfig{"edge": edgeConfig(t, map[string]string{"EDGE_FLIP_READONLY": "1"})}})
	var ti ToolInfo
	waitFor(t, m, "edge", "restarted with the new hint", func(s ServerStatus) bool {
		for _, x := range s.Tools {
			if x.Name == "flip" && s.Status == StatusReady {
				ti = x
				return x.ClaimsReadOnly
			}
		}
		return false
	})
	if ti.ReadOnly {
		t.Errorf("flip became read-only: %+v", ti)
	}
	if x := lookupTool(t, m, "edge", "flip"); x.NeedsApproval == nil || !x.NeedsApproval(nil) {
		t.Error("flip runs without asking")
	}
	// A tool that was read-only from the start still is.
	if x := lookupTool(t, m, "edge", "echo"); x.NeedsApproval(nil) {
		t.Error("echo asks")
	}
}

// TestEdgeEnv: the server gets its configured variables, never the app's
// secrets. Not parallel: it sets the test process's environment.
func TestEdgeEnv(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-app-secret")
	t.Setenv("JUNCTURE_TOKEN", "app-token")
	t.Setenv("EDGE_SECRET", "app-only")
	m := startEdge(t, Options{}, map[string]string{"EDGE_OWN": "configured"})
	res := runTool(t, context.Background(), m, nil, "edge", "env", nil)
	var vars map[string]string
	if err := json.Unmarshal([]byte(res.Content), &vars); err != nil {
		t.Fatalf("env: %+v", res)
	}
	for _, secret := range []string{"OPENAI_API_KEY", "JUNCTURE_TOKEN", "EDGE_SECRET"} {
		if v, ok := vars[secret]; ok {
			t.Errorf("the server got %s=%q", secret, v)
		}
	}
	if vars["EDGE_OWN"] != "configured" || vars["PATH"] == "" {
		t.Errorf("env %v", vars)
	}
}

func TestEdgeRoots(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	dirs := []string{t.TempDir()}
	roots := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), dirs...)
	}
	m := startEdge(t, Options{Roots: roots}, nil)
	res := runTool(t, context.Background(), m, nil, "edge", "roots", nil)
	if res.Content != "file://"+dirs[0] {
		t.Fatalf("roots: %+v", res)
	}
	second := t.TempDir()
	mu.Lock()
	dirs = []string{second}
	mu.Unlock()
	m.RootsChanged()
	deadline := time.Now().Add(10 * time.Second)
	for {
		res = runTool(t, context.Background(), m, nil, "edge", "roots", nil)
		if res.Content == "file://"+second {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("roots after RootsChanged: %+v", res)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestEdgeCloseKillsProcesses: after Close, no server process is left.
func TestEdgeCloseKillsProcesses(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("finds the server's process in /proc")
	}
	m := newManager(t, Options{})
	cfg := Config{Servers: map[string]ServerConfig{}}
	for i := range 3 {
		cfg.Servers["edge"+strconv.Itoa(i)] = edgeConfig(t, map[string]string{"EDGE_OWN": "close-test-" + t.Name()})
	}
	m.Apply(cfg)
	for name := range cfg.Servers {
		waitFor(t, m, name, "ready", isReady)
	}
	pids := childrenWithEnv(t, "EDGE_OWN=close-test-"+t.Name())
	if len(pids) != 3 {
		t.Fatalf("found %d server processes, want 3: %v", len(pids), pids)
	}
	// A call that never gets an answer must not hold Close up.
	hung := make(chan tools.Result, 1)
	go func() { hung <- m.call(context.Background(), "edge0", "hang", json.RawMessage(`{}`)) }()
	waitInFlight(t, m, "edge0")
	start := time.Now()
	m.Close()
	t.Logf("Close of 3 ready stdio servers (one call in flight) took %s", time.Since(start).Round(time.Millisecond))
	if res := <-hung; !res.IsError || res.Content != `The MCP server "edge0" stopped during the call (it was stopped); side effects unknown.` {
		t.Errorf("the call in flight at Close: %+v", res)
	}
	for _, pid := range pids {
		if err := signalZero(pid); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("process %d is still there after Close (kill 0: %v)", pid, err)
		}
	}
}

// childrenWithEnv returns the pids of this process's children whose
// environment holds kv.
func childrenWithEnv(t *testing.T, kv string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	self := strconv.Itoa(os.Getpid())
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so cut at ")".
		_, rest, ok := strings.Cut(string(stat), ") ")
		if f := strings.Fields(rest); !ok || len(f) < 2 || f[1] != self {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && strings.Contains("\x00"+string(env)+"\x00", "\x00"+kv+"\x00") {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitInFlight waits until a call of server is in flight, then a moment
// more for its request to reach the server.
func waitInFlight(t *testing.T, m *Manager, server string) {
	t.Helper()
	r := m.lookup(server).calls
	deadline := time.Now().Add(10 * time.Second)
	for {
		r.mu.Lock()
		n := len(r.calls)
		r.mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no call of %s in flight", server)
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
}

// TestEdgeRestart: Restart replaces the session; a call in flight is told
// the server was restarted.
func TestEdgeRestart(t *testing.T) {
	t.Parallel()
	m := startEdge(t, Options{}, nil)
	hung := make(chan tools.Result, 1)
	go func() { hung <- m.call(context.Background(), "edge", "hang", json.RawMessage(`{}`)) }()
	waitInFlight(t, m, "edge")
	if err := m.Restart("edge"); err != nil {
		t.Fatal(err)
	}
	if res := <-hung; res.Content != `The MCP server "edge" stopped during the call (it was restarted); side effects unknown.` {
		t.Errorf("the call in flight: %+v", res)
	}
	waitFor(t, m, "edge", "ready again", func(s ServerStatus) bool { return s.Status == StatusReady && s.Restarts == 1 })
	if res := runTool(t, context.Background(), m, nil, "edge", "echo", map[string]any{"text": "again"}); res.Content != "again" {
		t.Errorf("echo after Restart: %+v", res)
	}
}

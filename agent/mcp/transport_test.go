package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// edgeServerHTTPAt starts the edge server over Streamable HTTP at addr
// (host:port) and returns its endpoint; it is killed when the test ends.
func edgeServerHTTPAt(t testing.TB, addr string, env ...string) string {
	t.Helper()
	bin, _ := edgeServerCommand(t)
	cmd := exec.Command(bin, "-http", addr)
	cmd.Env = append(os.Environ(), env...)
	u, err := startServer(t, cmd, func(out string) (string, bool) {
		for line := range strings.Lines(out) {
			if u, ok := strings.CutPrefix(line, "listening on "); ok && strings.HasSuffix(u, "\n") {
				return strings.TrimSpace(u), true
			}
		}
		return "", false
	})
	if err != nil {
		t.Fatalf("edge server at %s: %v", addr, err)
	}
	return u
}

// TestEdgeHTTPDiesMidCall (issue 19, defect 19): an HTTP server that dies
// during a call leaves the call's side effects unknown (not "refused",
// which reads as not run); the supervisor notices, reports the server not
// ready, and reconnects with backoff once it is back.
func TestEdgeHTTPDiesMidCall(t *testing.T) {
	t.Parallel()
	endpoint := edgeServerHTTP(t)
	m := newManager(t, Options{})
	// A token in the query must stay out of the result, the status and the log.
	m.Apply(Config{Servers: map[string]ServerConfig{"web": {URL: endpoint + "?token=s3cret-query"}}})
	waitFor(t, m, "web", "ready", isReady)

	res := runTool(t, context.Background(), m, nil, "web", "crash", map[string]any{"afterMs": 50})
	t.Logf("result: %s", res.Content)
	if !res.IsError || !strings.Contains(res.Content, "side effects unknown") || strings.Contains(res.Content, "refused") {
		t.Errorf("result of a call whose server died: %+v", res)
	}
	s := waitFor(t, m, "web", "not ready after the server died", func(s ServerStatus) bool { return s.Status != StatusReady })
	t.Logf("after the death: %s %q", s.Status, s.Error)
	if log, _ := m.Log("web"); strings.Contains(res.Content+s.Error+log, "s3cret") {
		t.Errorf("the URL's token leaked:\n%s\n%s\n%s", res.Content, s.Error, log)
	}

	// The server comes back on the same address: the supervisor reconnects.
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	edgeServerHTTPAt(t, u.Host)
	waitFor(t, m, "web", "ready again", func(s ServerStatus) bool { return s.Status == StatusReady && s.Restarts > 0 })
	if res := runTool(t, context.Background(), m, nil, "web", "echo", map[string]any{"text": "back"}); res.Content != "back" {
		t.Errorf("a call after the reconnection: %+v", res)
	}
	log, _ := m.Log("web")
	mustContain(t, log, "stopped unexpectedly")
}

// TestEdgeResultTooLarge (issue 19, defect 22): a result larger than the
// SDK reads in one message (16 MiB) is reported as too large, with the
// limit, not as "server stopped (exit status 0)".
func TestEdgeResultTooLarge(t *testing.T) {
	t.Parallel()
	const size = 17 << 20
	want := fmt.Sprintf("larger than %s, the most Juncture reads", humanSize(maxFrameBytes))
	t.Run("stdio", func(t *testing.T) {
		t.Parallel()
		m := startEdge(t, Options{}, nil)
		res := runTool(t, context.Background(), m, nil, "edge", "bigtext", map[string]any{"bytes": size})
		if !res.IsError || !strings.Contains(res.Content, want) || strings.Contains(res.Content, "status 0") {
			t.Errorf("result %+v", res)
		}
		waitFor(t, m, "edge", "ready again", func(s ServerStatus) bool { return s.Status == StatusReady && s.Restarts > 0 })
		log, _ := m.Log("edge")
		mustContain(t, log, want)
	})
	t.Run("http json", func(t *testing.T) {
		// A server that answers with plain JSON, which the SDK reads whole.
		t.Parallel()
		srv := sdk.NewServer(&sdk.Implementation{Name: "json", Version: "1"}, nil)
		srv.AddTool(&sdk.Tool{Name: "big", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.Repeat("j", size)}}}, nil
		})
		hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{JSONResponse: true}))
		t.Cleanup(hs.Close)
		m := newManager(t, Options{})
		m.Apply(Config{Servers: map[string]ServerConfig{"json": {URL: hs.URL}}})
		res := runTool(t, context.Background(), m, nil, "json", "big", nil)
		if !res.IsError || !strings.Contains(res.Content, want) {
			t.Errorf("result %.300s", res.Content)
		}
		m.Close()
	})
	t.Run("http", func(t *testing.T) {
		t.Parallel()
		m := newManager(t, Options{})
		m.Apply(Config{Servers: map[string]ServerConfig{"web": {URL: edgeServerHTTP(t)}}})
		res := runTool(t, context.Background(), m, nil, "web", "bigtext", map[string]any{"bytes": size})
		if !res.IsError || !strings.Contains(res.Content, want) {
			t.Errorf("result %+v", res)
		}
		waitFor(t, m, "web", "ready again", func(s ServerStatus) bool { return s.Status == StatusReady && s.Restarts > 0 })
		if res := runTool(t, context.Background(), m, nil, "web", "echo", map[string]any{"text": "after"}); res.Content != "after" {
			t.Errorf("a call after the large result: %+v", res)
		}
	})
}

// TestEdgeHTTPDiesUnderConcurrentCalls: calls in flight when an HTTP
// server dies all say side effects unknown, and their failures (each asks
// the supervisor to check) make one reconnection, not one each. The server
// speaks 2026-07-28 (stateless Streamable HTTP): an older server takes one
// call at a time (roundtrip.go), so only a newer one has several in flight.
func TestEdgeHTTPDiesUnderConcurrentCalls(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	const n = 6
	arrived := make(chan struct{}, n)
	srv := sdk.NewServer(&sdk.Implementation{Name: "slow", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "slow", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		select {
		case arrived <- struct{}{}:
		default:
		}
		select {
		case <-ctx.Done():
		case <-release:
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done"}}}, nil
	})
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(hs.Close)
	t.Cleanup(func() { close(release) }) // runs first: hs.Close waits for handlers
	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{"web": {URL: hs.URL}}})
	waitFor(t, m, "web", "ready", isReady)
	results := make(chan string, n)
	for range n {
		go func() {
			results <- runTool(t, context.Background(), m, nil, "web", "slow", nil).Content
		}()
	}
	calls := m.lookup("web").calls
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		calls.mu.Lock()
		k := len(calls.calls)
		calls.mu.Unlock()
		if k == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d calls in flight", k, n)
		}
	}
	// Every request has reached the server's handler (a sleep here lost
	// the race on a loaded machine: a call not yet connected is "not
	// sent", which is right, but not what this test is about).
	for range n {
		select {
		case <-arrived:
		case <-time.After(30 * time.Second):
			t.Fatal("the calls never reached the server")
		}
	}
	hs.Listener.Close()         // the server dies with every call open:
	hs.CloseClientConnections() // nothing answers, nothing reconnects
	for range n {
		if r := <-results; !strings.Contains(r, "side effects unknown") {
			t.Errorf("a call in flight: %s", r)
		}
	}
	s := waitFor(t, m, "web", "not ready", func(s ServerStatus) bool { return s.Status == StatusError })
	if s.Restarts > 1 {
		t.Errorf("restarted %d times for one death", s.Restarts)
	}
}

package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A hostile 2026-07-28 server over Streamable HTTP (stateless, as go-sdk
// v1.8.0 serves the new protocol): each of its rounds meets a budget
// decided before it is read, and the model reads why the call ended. The
// same budgets hold on a server that declares the tasks extension (its
// plain calls go the raw way, callTask).
func TestRoundTripBudgets(t *testing.T) {
	t.Parallel()
	t.Run("plain", func(t *testing.T) { t.Parallel(); roundTripBudgets(t, nil) })
	t.Run("tasks declared", func(t *testing.T) {
		t.Parallel()
		roundTripBudgets(t, &sdk.ServerOptions{Capabilities: &sdk.ServerCapabilities{
			Tools: &sdk.ToolCapabilities{}, Extensions: map[string]any{tasksExtension: map[string]any{}}}})
	})
}

func roundTripBudgets(t *testing.T, o *sdk.ServerOptions) {
	var rootRounds atomic.Int32
	s := sdk.NewServer(&sdk.Implementation{Name: "hostile", Version: "1"}, o)
	ask := &sdk.ElicitParams{Mode: "form", Message: "?", RequestedSchema: map[string]any{"type": "object"}}
	type none struct{}
	add := func(name string, h func(*sdk.CallToolRequest) *sdk.CallToolResult) {
		sdk.AddTool(s, &sdk.Tool{Name: name}, func(_ context.Context, req *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
			return h(req), nil, nil
		})
	}
	add("bigstate", func(*sdk.CallToolRequest) *sdk.CallToolResult {
		return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"a": ask}, RequestState: strings.Repeat("x", maxRequestState+1)}
	})
	add("many", func(*sdk.CallToolRequest) *sdk.CallToolResult {
		m := sdk.InputRequestMap{}
		for i := 0; i <= maxInputs; i++ {
			m[fmt.Sprint(i)] = ask
		}
		return &sdk.CallToolResult{InputRequests: m}
	})
	add("rootsforever", func(*sdk.CallToolRequest) *sdk.CallToolResult {
		rootRounds.Add(1)
		return &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{"r": &sdk.ListRootsParams{}}}
	})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(srv.Close)
	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{"hostile": {URL: srv.URL}}})
	waitFor(t, m, "hostile", "ready", isReady)
	if sess, _ := m.lookup("hostile").ready(); sess == nil || !sess.mrtr {
		t.Fatalf("not spoken to in 2026-07-28: %+v", sess)
	}
	if sess, _ := m.lookup("hostile").ready(); o != nil && taskForm(context.Background(), sess, "bigstate") != formExtension {
		t.Fatal("the tasks extension is not seen: the raw path is not exercised")
	}
	for _, tt := range []struct{ tool, want string }{
		{"bigstate", "over Juncture's limit of 256.0 KB"},
		{"many", fmt.Sprintf("asked %d things at once", maxInputs+1)},
		{"rootsforever", fmt.Sprintf("asked for the roots %d times in a row", maxAutoRounds)},
	} {
		res := runTool(t, context.Background(), m, nil, "hostile", tt.tool, nil)
		if res.Input != nil || !res.IsError || !strings.Contains(res.Content, tt.want) {
			t.Errorf("%s: %+v", tt.tool, res)
		}
	}
	if n := rootRounds.Load(); n != maxAutoRounds {
		t.Errorf("the roots were answered %d times, want %d", n, maxAutoRounds)
	}
}

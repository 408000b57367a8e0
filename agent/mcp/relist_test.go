package mcp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestListChangedFloodIsPaced: a server that says its tools changed
// without pause (here: a new tool every millisecond for two seconds) is
// listed again at most once per relistGap, not once per notification:
// each listing costs a page walk, the pins and a refresh of every window.
func TestListChangedFloodIsPaced(t *testing.T) {
	t.Parallel()
	srv := sdk.NewServer(&sdk.Implementation{Name: "flood", Version: "1"}, nil)
	handler := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{}, nil
	}
	srv.AddTool(&sdk.Tool{Name: "t0", InputSchema: map[string]any{"type": "object"}}, handler)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	var lists atomic.Int64
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil {
			b, _ := io.ReadAll(r.Body)
			if bytes.Contains(b, []byte(`"tools/list"`)) {
				lists.Add(1)
			}
			r.Body = io.NopCloser(bytes.NewReader(b))
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)

	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{"f": {URL: hs.URL + "/mcp"}}})
	waitFor(t, m, "f", "ready", isReady)
	before := lists.Load()
	start := time.Now()
	for i := 1; time.Since(start) < 2*time.Second; i++ {
		srv.AddTool(&sdk.Tool{Name: fmt.Sprint("t", i), InputSchema: map[string]any{"type": "object"}}, handler)
		time.Sleep(time.Millisecond)
	}
	flood := time.Since(start)
	time.Sleep(relistGap + 500*time.Millisecond)
	m.Close()
	got := lists.Load() - before
	if limit := int64(flood/relistGap) + 3; got > limit {
		t.Fatalf("%d listings during a %s flood of list_changed, at most %d", got, flood, limit)
	}
	if got == 0 {
		t.Fatal("the tools were never listed again")
	}
}

package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHTTPHeadersStayOnTheirOrigin (issue 19, defect 16): the headers
// configured for an HTTP server (an Authorization token) go only to the
// configured origin. Server A redirects every request to server B, another
// loopback port (another origin): B is a working MCP server, so the
// session starts, and B never sees the configured values.
func TestHTTPHeadersStayOnTheirOrigin(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var atA, atB []string // the configured values each server saw
	record := func(list *[]string, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		for _, k := range []string{"Authorization", "X-Api-Key"} {
			if v := r.Header.Get(k); v != "" {
				*list = append(*list, k+": "+v)
			}
		}
	}
	mcpServer := sdk.NewServer(&sdk.Implementation{Name: "b", Version: "1"}, nil)
	mcpServer.AddTool(&sdk.Tool{Name: "ping", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "pong"}}}, nil
	})
	mcpHandler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcpServer }, nil)
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		record(&atB, r)
		mcpHandler.ServeHTTP(w, r)
	}))
	t.Cleanup(b.Close)
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		record(&atA, r)
		http.Redirect(w, r, b.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(a.Close)

	m := newManager(t, Options{})
	headers := map[string]string{"Authorization": "Bearer s3cret-token", "X-Api-Key": "k3y-value"}
	m.Apply(Config{Servers: map[string]ServerConfig{"r": {URL: a.URL + "/mcp", Headers: headers}}})
	waitFor(t, m, "r", "ready through the redirect", isReady)
	m.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(atA) == 0 {
		t.Error("the configured origin never got the headers")
	}
	if len(atB) > 0 {
		t.Errorf("another origin got the configured headers: %v", atB)
	}
	if log, _ := m.Log("r"); strings.Contains(log, "s3cret") {
		t.Errorf("a header value is in the log:\n%s", log)
	}
}

func TestSameOrigin(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		same bool
	}{
		{"http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/other?x=1", true},
		{"http://127.0.0.1:8080/mcp", "http://127.0.0.1:8081/mcp", false},
		{"http://example.com/mcp", "http://example.com:80/mcp", true},
		{"https://example.com/mcp", "https://EXAMPLE.com:443/x", true},
		{"https://example.com/mcp", "http://example.com/mcp", false},
		{"https://example.com/mcp", "https://evil.example.com/mcp", false},
		{"https://example.com/mcp", "https://example.com.evil.net/mcp", false},
	}
	for _, tt := range tests {
		if got := sameOrigin(mustURL(t, tt.a), mustURL(t, tt.b)); got != tt.same {
			t.Errorf("sameOrigin(%s, %s) = %v", tt.a, tt.b, got)
		}
	}
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestRedactURLs(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`Post "http://127.0.0.1:1/mcp?token=s3cret": EOF`, `Post "http://127.0.0.1:1/mcp": EOF`},
		{`Get https://user:pw@example.com/sse#frag failed`, `Get https://example.com/sse failed`},
		{`no url here`, `no url here`},
		{`Post "http://127.0.0.1:1/mcp": EOF`, `Post "http://127.0.0.1:1/mcp": EOF`},
	}
	for _, tt := range tests {
		if got := redactURLs(tt.in); got != tt.want {
			t.Errorf("redactURLs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestHeaderTransportOrigin: the configured headers are added to requests
// for the configured origin only, whatever made the request go elsewhere
// (a redirect, or a legacy SSE server naming an endpoint on another host).
func TestHeaderTransportOrigin(t *testing.T) {
	t.Parallel()
	var got []string
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		got = append(got, r.URL.Host+"="+r.Header.Get("Authorization"))
		return &http.Response{StatusCode: 200, Body: http.NoBody, Header: http.Header{}}, nil
	})
	h := &headerTransport{base: base, headers: map[string]string{"Authorization": "Bearer t"}, origin: mustURL(t, "https://mcp.example.com/mcp")}
	for _, u := range []string{"https://mcp.example.com/messages?sessionId=1", "https://evil.example.net/mcp", "http://mcp.example.com/mcp"} {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		resp, err := h.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	want := []string{"mcp.example.com=Bearer t", "evil.example.net=", "mcp.example.com="}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %v, want %v", got, want)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

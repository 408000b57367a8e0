package mcp

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/juncture-app/juncture/internal/oauthtest"
	"github.com/juncture-app/juncture/internal/testkit"
)

// gatedRefresh holds the token endpoint's refresh requests, once armed,
// until released: a refresh the person's Sign out overtakes.
type gatedRefresh struct {
	armed    atomic.Bool
	entered  chan struct{}
	release  chan struct{}
	answered chan struct{}
	once     sync.Once
}

func (g *gatedRefresh) RoundTrip(r *http.Request) (*http.Response, error) {
	if !g.armed.Load() || r.URL.Path != "/token" {
		return http.DefaultTransport.RoundTrip(r)
	}
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	if !strings.Contains(string(body), "grant_type=refresh_token") {
		return http.DefaultTransport.RoundTrip(r)
	}
	first := false
	g.once.Do(func() { first = true })
	if first {
		close(g.entered)
		<-g.release
		defer close(g.answered)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestOAuthSignOutDuringRefreshKeepsNoToken: a refresh under way when the
// person signs out must not write its new tokens back to the key storage
// (which would sign the server in again behind the person's back).
func TestOAuthSignOutDuringRefreshKeepsNoToken(t *testing.T) {
	as := oauthtest.NewAS()
	as.AccessTTL = 5 * time.Second // within oauth2's 10 s margin: every use refreshes
	rs := oauthtest.NewRS(as)
	vault := &testkit.Vault{}
	gate := &gatedRefresh{entered: make(chan struct{}), release: make(chan struct{}), answered: make(chan struct{})}
	m := NewManager(Options{Vault: vault, Browser: &testBrowser{}, SignInTimeout: 5 * time.Second, OAuthTransport: gate,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(func() { m.Close(); rs.Close(); as.Close() })
	m.Apply(Config{Servers: map[string]ServerConfig{"notes": {URL: rs.URL}}})
	waitAuth(t, m, AuthSignIn)
	if err := m.SignIn(context.Background(), "notes"); err != nil {
		t.Fatalf("SignIn: %v", err)
	}
	waitTool(t, m, "notes", "whoami")

	gate.armed.Store(true)
	_ = m.Restart("notes") // the reconnect refreshes, and the refresh waits
	select {
	case <-gate.entered:
	case <-time.After(20 * time.Second):
		t.Fatal("no refresh started")
	}
	if err := m.SignOut("notes"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(vault.Dump(), "at-") {
		t.Fatal("Sign out left tokens in the key storage")
	}
	close(gate.release)
	<-gate.answered
	// The refreshed token would be written right after its answer; the
	// restarted server then finds it. Watch the storage while it settles.
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if d := vault.Dump(); strings.Contains(d, "at-") || strings.Contains(d, "rt-") {
			t.Fatal("a refresh that finished after Sign out put the tokens back in the key storage")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if st := waitAuth(t, m, AuthSignIn); isReady(st) {
		t.Errorf("the server is ready after Sign out: %+v", st)
	}
}

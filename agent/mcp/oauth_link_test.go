package mcp

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juncture-app/juncture/internal/oauthtest"
	"github.com/juncture-app/juncture/internal/testkit"
)

// linkBrowser is the person's browser where Juncture registered the
// juncture:// scheme: it opens the authorization page and hands the link
// it is sent to (as the operating system would) to deliver.
type linkBrowser struct {
	deliver func(link string)
	mu      sync.Mutex
	links   []string
}

func (b *linkBrowser) Open(ctx context.Context, authURL string) error {
	go func() {
		link, err := redirectOf(authURL)
		if err != nil {
			return
		}
		b.mu.Lock()
		b.links = append(b.links, link)
		b.mu.Unlock()
		b.deliver(link)
	}()
	return nil
}

func (b *linkBrowser) last() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.links) == 0 {
		return ""
	}
	return b.links[len(b.links)-1]
}

// A sign-in through the juncture:// redirect, end to end against the test
// authorization server: the registration asks for juncture://oauth/callback,
// the link's answer reaches the sign-in waiting for its state, a forged
// state and a replay are refused and change nothing, and the code is in
// no log line.
func TestOAuthSignInThroughJunctureLink(t *testing.T) {
	as := oauthtest.NewAS()
	rs := oauthtest.NewRS(as)
	vault := &testkit.Vault{}
	logs := &bytes.Buffer{}
	var mu sync.Mutex
	var m *Manager
	type verdict struct {
		forged, real error
	}
	got := make(chan verdict, 1)
	br := &linkBrowser{deliver: func(link string) {
		u, err := url.Parse(link)
		if err != nil || u.Scheme != "juncture" || u.Host != "oauth" || u.Path != "/callback" {
			got <- verdict{real: errors.New("not a juncture:// link: " + link)}
			return
		}
		forged := u.Query()
		forged.Set("state", forged.Get("state")+"x")
		var v verdict
		v.forged = m.DeliverSignInLink(forged)
		v.real = m.DeliverSignInLink(u.Query())
		got <- v
	}}
	m = NewManager(Options{Vault: vault, Browser: br, SignInTimeout: 5 * time.Second, SchemeRedirect: SchemeRedirectURI,
		Logger: slog.New(slog.NewTextHandler(lockedWriter{&mu, logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	m.Apply(Config{Servers: map[string]ServerConfig{"notes": {URL: rs.URL}}})
	t.Cleanup(func() { m.Close(); rs.Close(); as.Close() })
	waitFor(t, m, "notes", "waiting for sign-in", func(s ServerStatus) bool { return authState(s) == AuthSignIn })
	if err := m.DeliverSignInLink(url.Values{"state": {"nothing-waits"}, "code": {"c"}}); !errors.Is(err, ErrNoSignInWaits) {
		t.Fatalf("an answer while no sign-in waits: %v", err)
	}
	if err := m.SignIn(context.Background(), "notes"); err != nil {
		t.Fatalf("SignIn: %v", err)
	}
	v := <-got
	if !errors.Is(v.forged, ErrNoSignInWaits) || v.real != nil {
		t.Fatalf("forged state: %v; the real answer: %v", v.forged, v.real)
	}
	waitTool(t, m, "notes", "whoami")
	waitAuth(t, m, AuthSignedIn)
	link, _ := url.Parse(br.last())
	if err := m.DeliverSignInLink(link.Query()); !errors.Is(err, ErrNoSignInWaits) {
		t.Fatalf("a replayed answer: %v", err)
	}
	code := link.Query().Get("code")
	mu.Lock()
	logged := logs.String()
	mu.Unlock()
	if code == "" || strings.Contains(logged, code) {
		t.Fatalf("the code %q is logged (or missing): %s", code, logged)
	}
	m.links.mu.Lock()
	left := len(m.links.cbs)
	m.links.mu.Unlock()
	if left != 0 {
		t.Fatalf("%d sign-ins still wait for a link", left)
	}
}

// Without SchemeRedirect (the default) the sign-in uses the loopback
// redirect and no juncture:// answer is taken.
func TestOAuthLoopbackStaysTheDefault(t *testing.T) {
	r := newOAuthRig(t, nil, ServerConfig{})
	waitFor(t, r.m, "notes", "waiting for sign-in", func(s ServerStatus) bool { return authState(s) == AuthSignIn })
	if err := r.m.SignIn(context.Background(), "notes"); err != nil {
		t.Fatalf("SignIn: %v", err)
	}
	r.br.mu.Lock()
	opened := strings.Join(r.br.opened, " ")
	r.br.mu.Unlock()
	if !strings.HasPrefix(opened, "http://127.0.0.1:") {
		t.Fatalf("redirect %q, want the loopback one", opened)
	}
}

// A registration that refuses the juncture:// redirect: the sign-in falls
// back to the loopback one and finishes.
func TestOAuthSchemeRefusedFallsBackToLoopback(t *testing.T) {
	as := oauthtest.NewAS()
	as.LoopbackOnly = true
	rs := oauthtest.NewRS(as)
	br := &testBrowser{}
	m := NewManager(Options{Vault: &testkit.Vault{}, Browser: br, SignInTimeout: 5 * time.Second, SchemeRedirect: SchemeRedirectURI})
	m.Apply(Config{Servers: map[string]ServerConfig{"notes": {URL: rs.URL}}})
	t.Cleanup(func() { m.Close(); rs.Close(); as.Close() })
	waitFor(t, m, "notes", "waiting for sign-in", func(s ServerStatus) bool { return authState(s) == AuthSignIn })
	if err := m.SignIn(context.Background(), "notes"); err != nil {
		t.Fatalf("SignIn: %v", err)
	}
	waitAuth(t, m, AuthSignedIn)
	br.mu.Lock()
	defer br.mu.Unlock()
	if len(br.opened) != 1 || !strings.HasPrefix(br.opened[0], "http://127.0.0.1:") {
		t.Fatalf("redirects %v, want the loopback one", br.opened)
	}
}

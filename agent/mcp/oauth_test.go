package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juncture-app/juncture/internal/oauthtest"
	"github.com/juncture-app/juncture/internal/testkit"
)

// testBrowser is the person's browser: it opens the authorization page
// (which auto-approves) and follows its redirect to Juncture's loopback
// address, through tamper when set.
type testBrowser struct {
	tamper func(callback string) string
	mu     sync.Mutex
	opened []string // callback URLs it followed
}

// redirectOf asks for authURL as a browser does, without following the
// redirect, and returns where it points (the callback with its code).
func redirectOf(authURL string) (string, error) {
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(authURL)
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	return resp.Header.Get("Location"), nil
}

func (b *testBrowser) Open(ctx context.Context, authURL string) error {
	go func() {
		cb, err := redirectOf(authURL)
		if err != nil {
			return
		}
		if b.tamper != nil {
			cb = b.tamper(cb)
		}
		b.mu.Lock()
		b.opened = append(b.opened, cb)
		b.mu.Unlock()
		if r, err := http.Get(cb); err == nil {
			r.Body.Close()
		}
	}()
	return nil
}

type oauthRig struct {
	as    *oauthtest.AS
	rs    *oauthtest.RS
	vault *testkit.Vault
	br    *testBrowser
	m     *Manager
	logs  *bytes.Buffer
}

func newOAuthRig(t *testing.T, cfg func(*oauthtest.AS), server ServerConfig) *oauthRig {
	t.Helper()
	as := oauthtest.NewAS()
	if cfg != nil {
		cfg(as)
	}
	rs := oauthtest.NewRS(as)
	logs := &bytes.Buffer{}
	r := &oauthRig{as: as, rs: rs, vault: &testkit.Vault{}, br: &testBrowser{}, logs: logs}
	var mu sync.Mutex
	r.m = NewManager(Options{Vault: r.vault, Browser: r.br, SignInTimeout: 5 * time.Second,
		Logger: slog.New(slog.NewTextHandler(lockedWriter{&mu, logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	server.URL = rs.URL
	r.m.Apply(Config{Servers: map[string]ServerConfig{"notes": server}})
	t.Cleanup(func() { r.m.Close(); rs.Close(); as.Close() })
	return r
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func authState(s ServerStatus) string {
	if s.Auth == nil {
		return ""
	}
	return s.Auth.State
}

func waitAuth(t *testing.T, m *Manager, state string) ServerStatus {
	t.Helper()
	return waitFor(t, m, "notes", "auth "+state, func(s ServerStatus) bool { return authState(s) == state })
}

// assertNoSecrets fails when a token, code, verifier or secret the test
// servers saw appears anywhere but the key storage.
func (r *oauthRig) assertNoSecrets(t *testing.T, extra ...string) {
	t.Helper()
	log, _ := r.m.Log("notes")
	statuses, _ := json.Marshal(r.m.Servers())
	places := map[string]string{"log tail": log, "app log": r.logs.String(), "statuses": string(statuses)}
	for i, e := range extra {
		places[fmt.Sprintf("extra %d", i)] = e
	}
	for _, s := range r.as.Secrets() {
		for where, text := range places {
			if strings.Contains(text, s) {
				t.Errorf("a secret (%.6s…) appears in the %s", s, where)
			}
		}
	}
}

func TestOAuthSignInRefreshRevoke(t *testing.T) {
	r := newOAuthRig(t, func(as *oauthtest.AS) { as.AccessTTL = 5 * time.Second }, ServerConfig{})
	st := waitFor(t, r.m, "notes", "waiting for sign-in", func(s ServerStatus) bool { return authState(s) == AuthSignIn && s.Status == StatusError })
	if st.NextRetry != 0 || !strings.Contains(st.Error, "Sign in") {
		t.Errorf("status %+v: want an error that says Sign in, no timed retry", st)
	}
	if err := r.m.SignIn(context.Background(), "notes"); err != nil {
		t.Fatalf("SignIn: %v", err)
	}
	waitTool(t, r.m, "notes", "whoami")
	st = waitAuth(t, r.m, AuthSignedIn)
	if st.Auth.Issuer != r.as.URL {
		t.Errorf("issuer %q, want %q", st.Auth.Issuer, r.as.URL)
	}
	if !strings.Contains(r.vault.Dump(), "at-") {
		t.Fatal("no token in the key storage")
	}
	if _, err := r.vault.Get(oauthTokenAccount(r.as.URL, r.rs.URL)); err != nil {
		t.Errorf("the tokens are not stored by issuer: %v", err)
	}
	// Tokens expire within oauth2's 10 s margin: a reconnect refreshes.
	before := r.as.Refreshes()
	r.m.Restart("notes")
	waitFor(t, r.m, "notes", "ready after a refresh", func(s ServerStatus) bool { return isReady(s) && r.as.Refreshes() > before })
	// Revoked grant: "Sign in again", not a retry loop.
	r.as.Revoke()
	r.m.Restart("notes")
	st = waitAuth(t, r.m, AuthSignInAgain)
	if st.NextRetry != 0 {
		t.Errorf("a revoked sign-in is retried on a timer (next retry %d)", st.NextRetry)
	}
	if strings.Contains(r.vault.Dump(), "at-") {
		t.Error("the revoked tokens stay in the key storage")
	}
	if err := r.m.SignIn(context.Background(), "notes"); err != nil {
		t.Fatalf("SignIn again: %v", err)
	}
	waitTool(t, r.m, "notes", "whoami")
	// Sign out deletes the tokens.
	if err := r.m.SignOut("notes"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(r.vault.Dump(), "at-") || strings.Contains(r.vault.Dump(), "rt-") {
		t.Error("Sign out left tokens in the key storage")
	}
	waitAuth(t, r.m, AuthSignIn)
	r.assertNoSecrets(t)
}

func TestOAuthStepUpAsksForScopes(t *testing.T) {
	r := newOAuthRig(t, nil, ServerConfig{})
	waitAuth(t, r.m, AuthSignIn)
	if err := r.m.SignIn(context.Background(), "notes"); err != nil {
		t.Fatalf("SignIn: %v", err)
	}
	waitTool(t, r.m, "notes", "whoami")
	r.rs.Require("notes:read", "notes:write")
	r.m.Restart("notes")
	st := waitAuth(t, r.m, AuthMoreAccess)
	if !strings.Contains(st.Auth.Message, "notes write (notes:write)") {
		t.Errorf("the scopes are not said in words: %q", st.Auth.Message)
	}
	if err := r.m.SignIn(context.Background(), "notes"); err != nil {
		t.Fatalf("SignIn for more access: %v", err)
	}
	waitTool(t, r.m, "notes", "whoami")
	r.assertNoSecrets(t)
}

func TestOAuthIssuerMismatchRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*oauthtest.AS)
		want string
	}{
		{"metadata issuer", func(as *oauthtest.AS) { as.MetaIssuer = "https://evil.example" }, "does not match"},
		{"iss in the redirect", func(as *oauthtest.AS) { as.WrongIss = "https://evil.example" }, "another issuer"},
		{"iss missing though advertised", func(as *oauthtest.AS) {
			as.MetaPatch = func(m map[string]any) { m["authorization_response_iss_parameter_supported"] = true }
			as.NoIssParam = true
		}, "no issuer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newOAuthRig(t, tc.set, ServerConfig{})
			waitAuth(t, r.m, AuthSignIn)
			err := r.m.SignIn(context.Background(), "notes")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("SignIn = %v, want a refusal (%s)", err, tc.want)
			}
			if strings.Contains(r.vault.Dump(), "at-") {
				t.Error("a token was stored")
			}
			waitAuth(t, r.m, AuthFailed)
			r.assertNoSecrets(t, err.Error())
		})
	}
}

func TestOAuthClientCredentials(t *testing.T) {
	r := newOAuthRig(t, func(as *oauthtest.AS) { as.AddClientCredentials("robot", "cc-secret-123456") },
		ServerConfig{Auth: &ServerAuth{Type: AuthClientCredentials, ClientID: "robot", ClientSecret: "cc-secret-123456", Scopes: []string{"notes:read"}}})
	waitTool(t, r.m, "notes", "whoami")
	if r.br.opened != nil {
		t.Error("client credentials opened a browser")
	}
	if !strings.Contains(r.vault.Dump(), "at-") {
		t.Error("the machine token is not in the key storage")
	}
	// The secret itself goes to the keychain, mcp.json holds a reference.
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	cfg := Config{Servers: map[string]ServerConfig{"notes": {URL: r.rs.URL, Auth: &ServerAuth{Type: AuthClientCredentials, ClientID: "robot", ClientSecret: "cc-secret-123456"}}}}
	if err := SaveConfigSecrets(path, cfg, r.vault.Set); err != nil {
		t.Fatal(err)
	}
	file, _ := os.ReadFile(path)
	if strings.Contains(string(file), "cc-secret") {
		t.Errorf("mcp.json holds the client secret:\n%s", file)
	}
	back, _ := LoadConfig(path)
	resolved, missing := ResolveSecrets(back, r.vault.Get)
	if len(missing) > 0 || resolved.Servers["notes"].Auth.ClientSecret != "cc-secret-123456" {
		t.Errorf("the secret does not come back from the keychain: %v", missing)
	}
	if m := back.Masked().Servers["notes"].Auth.ClientSecret; strings.Contains(m, "cc-secret") {
		t.Errorf("Settings shows the secret: %q", m)
	}
	r.assertNoSecrets(t, string(file))
	// A wrong secret fails with a clear error, never with the secret.
	r2 := newOAuthRig(t, nil, ServerConfig{Auth: &ServerAuth{Type: AuthClientCredentials, ClientID: "robot", ClientSecret: "wrong-secret-999"}})
	st := waitAuth(t, r2.m, AuthFailed)
	if strings.Contains(st.Error+st.Auth.Message, "wrong-secret") || !strings.Contains(st.Auth.Message, "invalid_client") {
		t.Errorf("status %q / %q", st.Error, st.Auth.Message)
	}
}

func TestOAuthClientIDMetadataDocument(t *testing.T) {
	r := newOAuthRig(t, func(as *oauthtest.AS) { as.CIMD = true }, ServerConfig{})
	r.m.o.ClientMetadataURL = "https://juncture.example/oauth/client.json"
	waitAuth(t, r.m, AuthSignIn)
	if err := r.m.SignIn(context.Background(), "notes"); err != nil {
		t.Fatalf("SignIn: %v", err)
	}
	waitTool(t, r.m, "notes", "whoami")
	if !strings.Contains(r.vault.Dump(), "juncture.example") {
		t.Error("the client ID metadata document was not used")
	}
}

func TestOAuthHostileCallback(t *testing.T) {
	t.Run("state mismatch", func(t *testing.T) {
		r := newOAuthRig(t, nil, ServerConfig{})
		r.br.tamper = func(cb string) string {
			u, _ := url.Parse(cb)
			q := u.Query()
			q.Set("state", "forged")
			u.RawQuery = q.Encode()
			return u.String()
		}
		waitAuth(t, r.m, AuthSignIn)
		err := r.m.SignIn(context.Background(), "notes")
		if err == nil || !strings.Contains(err.Error(), "not finished") {
			t.Fatalf("SignIn = %v, want a timeout (the forged answer changes nothing)", err)
		}
		if strings.Contains(r.vault.Dump(), "at-") {
			t.Error("a token was stored")
		}
		r.assertNoSecrets(t, err.Error())
	})
	t.Run("replayed code", func(t *testing.T) {
		r := newOAuthRig(t, nil, ServerConfig{})
		waitAuth(t, r.m, AuthSignIn)
		var cb string
		r.br.tamper = func(c string) string { cb = c; return c }
		if err := r.m.SignIn(context.Background(), "notes"); err != nil {
			t.Fatal(err)
		}
		// The loopback listener is gone after one use; the code is spent.
		if resp, err := http.Get(cb); err == nil {
			resp.Body.Close()
			t.Errorf("the callback answered a replay: %d", resp.StatusCode)
		}
	})
}

func TestOAuthCallbackOneUse(t *testing.T) {
	ln, err := listenLoopback("")
	if err != nil {
		t.Fatal(err)
	}
	cb := serveCallback(ln)
	defer cb.close()
	cb.expect("s1")
	base := "http://" + ln.Addr().String() + "/callback"
	get := func(q string) int {
		resp, err := http.Get(base + q)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if c := get("?state=wrong&code=x"); c != http.StatusBadRequest {
		t.Errorf("wrong state: %d", c)
	}
	if c := get("?state=s1&code=c1"); c != http.StatusOK {
		t.Errorf("right state: %d", c)
	}
	if c := get("?state=s1&code=c2"); c != http.StatusBadRequest {
		t.Errorf("replay: %d", c)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	res, err := cb.wait(ctx)
	if err != nil || res.code != "c1" {
		t.Errorf("wait = %+v, %v", res, err)
	}
}

func TestOAuthHostileMetadata(t *testing.T) {
	huge := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"issuer":"`)
		chunk := strings.Repeat("a", 64<<10)
		for i := 0; i < 5*16; i++ { // 5 MiB
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	}
	slow := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"issuer":`)
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(20 * time.Second):
		}
	}
	for _, tc := range []struct {
		name string
		set  func(*oauthtest.AS)
	}{
		{"http endpoint off loopback", func(as *oauthtest.AS) {
			as.MetaPatch = func(m map[string]any) { m["token_endpoint"] = "http://auth.example/token" }
		}},
		{"no PKCE", func(as *oauthtest.AS) {
			as.MetaPatch = func(m map[string]any) { m["code_challenge_methods_supported"] = []string{"plain"} }
		}},
		{"javascript endpoint", func(as *oauthtest.AS) {
			as.MetaPatch = func(m map[string]any) { m["authorization_endpoint"] = "javascript:alert(1)" }
		}},
		{"huge body", func(as *oauthtest.AS) { as.MetaHandler = huge }},
		{"slow body", func(as *oauthtest.AS) { as.MetaHandler = slow }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newOAuthRig(t, tc.set, ServerConfig{})
			r.m.o.SignInTimeout = 2 * time.Second
			waitAuth(t, r.m, AuthSignIn)
			start := time.Now()
			err := r.m.SignIn(context.Background(), "notes")
			if err == nil {
				t.Fatal("SignIn accepted lying metadata")
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("SignIn took %s: the budget is 2 s", d)
			}
			if len(r.br.opened) > 0 {
				t.Error("the browser was opened")
			}
			if len(err.Error()) > 600 {
				t.Errorf("error of %d bytes", len(err.Error()))
			}
		})
	}
}

func TestOAuthRedirectToAnotherOriginCarriesNoToken(t *testing.T) {
	var mu sync.Mutex
	var got []string
	other := http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("Authorization"))
		mu.Unlock()
		http.Error(w, "nothing here", http.StatusNotFound)
	})}
	ln, err := listenLoopback("")
	if err != nil {
		t.Fatal(err)
	}
	go other.Serve(ln)
	defer other.Close()
	r := newOAuthRig(t, nil, ServerConfig{})
	waitAuth(t, r.m, AuthSignIn)
	if err := r.m.SignIn(context.Background(), "notes"); err != nil {
		t.Fatal(err)
	}
	waitTool(t, r.m, "notes", "whoami")
	// localhost is another origin than 127.0.0.1.
	r.rs.SetRedirect("http://localhost:" + strings.Split(ln.Addr().String(), ":")[1] + "/mcp")
	r.m.Restart("notes")
	waitFor(t, r.m, "notes", "failed after the redirect", func(s ServerStatus) bool { return s.Status == StatusError })
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 {
		t.Fatal("the redirect was not followed at all (test is void)")
	}
	for _, h := range got {
		if h != "" {
			t.Errorf("the other origin got an Authorization header")
		}
	}
}

// A server that asks for more scope during a call: the call says what to
// do in words (never a broken tool), the status asks the person, and
// nothing secret is in the result.
func TestOAuthStepUpDuringCall(t *testing.T) {
	r := newOAuthRig(t, nil, ServerConfig{})
	waitAuth(t, r.m, AuthSignIn)
	if err := r.m.SignIn(context.Background(), "notes"); err != nil {
		t.Fatal(err)
	}
	if res := runTool(t, context.Background(), r.m, nil, "notes", "whoami", map[string]any{}); res.IsError || !strings.Contains(res.Content, "hello") {
		t.Fatalf("signed-in call: %+v", res)
	}
	r.rs.Require("notes:read", "notes:write")
	res := runTool(t, context.Background(), r.m, nil, "notes", "whoami", map[string]any{})
	if !res.IsError || !strings.Contains(res.Content, "Allow more access") || !strings.Contains(res.Content, "notes:write") {
		t.Errorf("step-up call result: %+v", res)
	}
	st := waitAuth(t, r.m, AuthMoreAccess)
	if len(st.Auth.Scopes) != 2 {
		t.Errorf("scopes asked: %v", st.Auth.Scopes)
	}
	r.assertNoSecrets(t, res.Content)
}

// A grant revoked while the server runs: the next call says "Sign in
// again" and the status shows the button.
func TestOAuthRevokedDuringSession(t *testing.T) {
	r := newOAuthRig(t, func(as *oauthtest.AS) { as.AccessTTL = 5 * time.Second }, ServerConfig{})
	waitAuth(t, r.m, AuthSignIn)
	if err := r.m.SignIn(context.Background(), "notes"); err != nil {
		t.Fatal(err)
	}
	waitTool(t, r.m, "notes", "whoami")
	r.as.Revoke()
	res := runTool(t, context.Background(), r.m, nil, "notes", "whoami", map[string]any{})
	if !res.IsError || !strings.Contains(res.Content, "Sign in again") {
		t.Errorf("call after revocation: %+v", res)
	}
	waitAuth(t, r.m, AuthSignInAgain)
	r.assertNoSecrets(t, res.Content)
}

// Two sign-ins at once (two clicks), with Servers read meanwhile: the
// newest wins, the server ends signed in, and -race sees no data race.
func TestOAuthConcurrentSignIn(t *testing.T) {
	r := newOAuthRig(t, nil, ServerConfig{})
	waitAuth(t, r.m, AuthSignIn)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = r.m.SignIn(context.Background(), "notes")
		}()
	}
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				_ = r.m.Servers()
			}
		}
	}()
	wg.Wait()
	close(stop)
	if errs[0] != nil && errs[1] != nil {
		t.Fatalf("both sign-ins failed: %v / %v", errs[0], errs[1])
	}
	if errs[0] == nil || errs[1] == nil {
		// The one that won restarted the server with its tokens, and
		// the one it replaced did not mark the sign-in failed.
		waitTool(t, r.m, "notes", "whoami")
		waitAuth(t, r.m, AuthSignedIn)
	}
}

// The form shows the client secret masked and saves it back as it was;
// moved to another origin, the mask stays and the save is refused.
func TestOAuthClientSecretMaskRoundTrip(t *testing.T) {
	prev := ServerConfig{URL: "https://a.example/mcp", Auth: &ServerAuth{Type: AuthClientCredentials, ClientID: "robot", ClientSecret: "s3cret-value-123456"}}
	shown := prev.Masked()
	if strings.Contains(shown.Auth.ClientSecret, "s3cret") || prev.Auth.ClientSecret != "s3cret-value-123456" {
		t.Fatalf("masked %q (original now %q)", shown.Auth.ClientSecret, prev.Auth.ClientSecret)
	}
	if got := RestoreSecrets(prev, shown).Auth.ClientSecret; got != "s3cret-value-123456" {
		t.Errorf("restored %q", got)
	}
	moved := shown
	moved.URL = "https://b.example/mcp"
	restored := RestoreSecrets(prev, moved)
	if restored.Auth.ClientSecret == "s3cret-value-123456" {
		t.Error("the secret followed the server to another origin")
	}
	path := filepath.Join(t.TempDir(), "mcp.json")
	err := SaveConfig(path, Config{Servers: map[string]ServerConfig{"m": restored}})
	if !errors.Is(err, ErrMaskedSecret) {
		t.Errorf("saving a masked secret: %v", err)
	}
	if err := ValidateServer("m", ServerConfig{Command: "x", Auth: &ServerAuth{Type: AuthOAuth}}); err == nil {
		t.Error("auth on a stdio server was accepted")
	}
	if _, err := ParseConfig([]byte(`{"mcpServers":{"m":{"url":"https://a.example","auth":{"type":"oauth","token":"x"}}}}`)); err == nil {
		t.Error("an unknown auth field (a token in mcp.json) was accepted")
	}
}

// A 401 without a Bearer challenge from a server not configured for
// OAuth is an ordinary failure (retried), not a "Sign in" button.
func TestOAuthPlain401IsNotSignIn(t *testing.T) {
	srv := http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "bad key", http.StatusUnauthorized)
	})}
	ln, err := listenLoopback("")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()
	m := NewManager(Options{Vault: &testkit.Vault{}, Browser: &testBrowser{}, BackoffBase: time.Hour})
	defer m.Close()
	m.Apply(Config{Servers: map[string]ServerConfig{"k": {URL: "http://" + ln.Addr().String() + "/mcp", Headers: map[string]string{"X-Key": "wrong"}}}})
	st := waitFor(t, m, "k", "failed", func(s ServerStatus) bool { return s.Status == StatusError })
	if st.Auth != nil || st.NextRetry == 0 {
		t.Errorf("status %+v: want an ordinary retried failure", st)
	}
}

package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// Sign-in states a server's AuthStatus reports.
const (
	AuthSignedIn    = "signed-in"
	AuthSignIn      = "sign-in"       // the server asks for a sign-in that never happened
	AuthSignInAgain = "sign-in-again" // the sign-in expired or was revoked
	AuthMoreAccess  = "more-access"   // the server asks for more scopes (step-up)
	AuthSigningIn   = "signing-in"    // the browser step is under way
	AuthFailed      = "failed"        // the last sign-in failed (Message says why)
)

// AuthStatus is a server's sign-in as the window shows it: one button
// ("Sign in" / "Sign in again" / "Allow more access") and "Sign out".
type AuthStatus struct {
	Type   string `json:"type"`  // AuthOAuth or AuthClientCredentials
	State  string `json:"state"` // one of the Auth* states
	Issuer string `json:"issuer,omitempty"`
	// Scopes: for AuthMoreAccess, what the server asks to add; otherwise
	// what was granted.
	Scopes []string `json:"scopes,omitempty"`
	// Message says, in words, what is needed or what went wrong; it never
	// holds a token, a code or a verifier.
	Message string `json:"message,omitempty"`
}

// SignInError is the error a connection or a call gets when the server
// needs the person to sign in: the status tells, a button fixes it.
type SignInError struct {
	Server string
	State  string
	Scopes []string
}

func (e *SignInError) Error() string {
	switch e.State {
	case AuthMoreAccess:
		return fmt.Sprintf("%s asks for more access (%s): allow it with \"Allow more access\" in Settings, MCP servers", e.Server, ScopeWords(e.Scopes))
	case AuthSignInAgain:
		return fmt.Sprintf("the sign-in to %s expired or was revoked: use \"Sign in again\" in Settings, MCP servers", e.Server)
	}
	return fmt.Sprintf("%s asks you to sign in: use \"Sign in\" in Settings, MCP servers", e.Server)
}

// ScopeWords says scopes in words: "read:issues" reads "read issues",
// joined with commas. The raw scope names stay visible beside them.
func ScopeWords(scopes []string) string {
	if len(scopes) == 0 {
		return "no particular permission named"
	}
	words := make([]string, len(scopes))
	for i, s := range scopes {
		w := strings.NewReplacer(":", " ", ".", " ", "_", " ", "/", " ", "-", " ").Replace(s)
		switch s {
		case "offline_access":
			w = "stay signed in"
		case "openid":
			w = "know who you are"
		}
		if w != s {
			w += " (" + s + ")"
		}
		words[i] = w
	}
	return strings.Join(words, ", ")
}

// authEntry is what the manager knows of one server's sign-in.
type authEntry struct {
	st AuthStatus
	// challenge is the server's last WWW-Authenticate: where its
	// resource metadata is and which scopes it asked for.
	resourceMetadata string
	challenged       []string
	signIn           context.CancelFunc // a sign-in under way
	gen              int                // counts sign-ins: a superseded one changes no state
	// epoch changes whenever the stored sign-in is replaced or deleted
	// (sign-in, Sign out, revoked): a refresh or a sign-in begun before
	// then writes nothing back.
	epoch int
}

// authBook holds every server's sign-in state, by server name.
type authBook struct {
	mu sync.Mutex
	m  map[string]*authEntry
	// store serialises writes and deletions of the stored sign-ins with
	// the epoch checks (taken before mu, never inside it).
	store sync.Mutex
}

// epochOf is the server's current sign-in epoch.
func (b *authBook) epochOf(name string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.entry(name).epoch
}

// saveIf stores g as the server's sign-in only while the epoch is still
// epoch (nothing replaced or deleted it since the caller began), and
// starts a new epoch when bump is set. It reports whether it stored.
func (m *Manager) saveIf(name string, epoch int, g *grantRecord, bump bool) (bool, error) {
	m.auth.store.Lock()
	defer m.auth.store.Unlock()
	if m.auth.epochOf(name) != epoch {
		return false, nil
	}
	if err := m.vault().saveGrant(name, g); err != nil {
		return false, err
	}
	if bump {
		m.auth.update(name, func(e *authEntry) { e.epoch++ })
	}
	return true, nil
}

// forgetGrant deletes the server's stored sign-in and starts a new epoch,
// so a refresh or a sign-in under way cannot put it back.
func (m *Manager) forgetGrant(name string, f func(*authEntry)) error {
	m.auth.store.Lock()
	defer m.auth.store.Unlock()
	m.auth.update(name, func(e *authEntry) {
		e.epoch++
		if f != nil {
			f(e)
		}
	})
	return m.vault().forget(name)
}

func (b *authBook) entry(name string) *authEntry {
	if b.m == nil {
		b.m = map[string]*authEntry{}
	}
	e := b.m[name]
	if e == nil {
		e = &authEntry{}
		b.m[name] = e
	}
	return e
}

func (b *authBook) update(name string, f func(*authEntry)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f(b.entry(name))
}

func (b *authBook) status(name string) *AuthStatus {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.m[name]
	if e == nil || e.st.State == "" {
		return nil
	}
	st := e.st
	st.Scopes = slices.Clone(st.Scopes)
	return &st
}

// blocked reports whether the server waits for the person (a start
// failure then is not retried on a timer: the button restarts it).
func (b *authBook) blocked(name string) bool {
	st := b.status(name)
	return st != nil && (st.State == AuthSignIn || st.State == AuthSignInAgain || st.State == AuthMoreAccess || st.State == AuthSigningIn || st.State == AuthFailed)
}

// authType is the sign-in a server uses: its "auth" type, or OAuth for an
// HTTP server with no Authorization header of its own (a server that
// answers 401 with a Bearer challenge then shows "Sign in").
func authType(cfg ServerConfig) string {
	if cfg.Auth != nil {
		return cfg.Auth.Type
	}
	for k := range cfg.Headers {
		if strings.EqualFold(k, "Authorization") {
			return ""
		}
	}
	return AuthOAuth
}

// oauthConn is the SDK's OAuthHandler for one connection: it puts the
// stored token on requests (refreshing it silently), gets a client
// credentials token on its own, and for a sign-in or more scopes records
// what the server asked and fails the request with a SignInError: the
// browser never opens without the person's click.
type oauthConn struct {
	s  *supervisor
	mu sync.Mutex
	ts oauth2.TokenSource
	g  *grantRecord
	// epoch is the sign-in epoch g was read in: its refreshes are written
	// back only while it lasts.
	epoch int
}

func (h *oauthConn) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ts != nil {
		return h.ts, nil
	}
	epoch := h.s.m.auth.epochOf(h.s.name) // before the read: a Sign out after it voids what was read
	g, ok := h.s.m.vault().grant(h.s.name)
	if !ok || g.Resource != canonicalResource(h.s.cfg.URL) && g.Resource != originOf(h.s.cfg.URL) {
		return nil, nil
	}
	h.useGrant(g, epoch)
	return h.ts, nil
}

// useGrant makes g, read in the given sign-in epoch, the connection's
// token source.
func (h *oauthConn) useGrant(g *grantRecord, epoch int) {
	m, name := h.s.m, h.s.name
	h.g, h.epoch = g, epoch
	rctx := context.WithValue(context.Background(), oauth2.HTTPClient, m.tokenClient())
	base := g.oauthConfig().TokenSource(rctx, g.token())
	if g.Kind == AuthClientCredentials && h.s.cfg.Auth != nil && h.s.cfg.Auth.ClientSecret != "" {
		// No refresh token: a new token is asked for with the secret.
		base = oauth2.ReuseTokenSource(g.token(), m.ccConfig(h.s.cfg, g.TokenURL, g.Resource, nil).TokenSource(rctx))
	}
	h.ts = &persistingSource{
		base: oauth2.ReuseTokenSource(nil, base), last: g.Access, server: name,
		save: func(t *oauth2.Token) {
			g2 := *g
			g2.setToken(t)
			if _, err := m.saveIf(name, epoch, &g2, false); err != nil {
				m.log.Warn("Could not keep a refreshed MCP sign-in", "server", name, "error", err.Error())
			}
		},
		revoke: func() {
			if m.auth.epochOf(name) != epoch {
				return // signed out or in again since: not this grant's news
			}
			_ = m.forgetGrant(name, nil)
			m.setAuth(name, AuthStatus{Type: g.Kind, State: AuthSignInAgain, Issuer: g.Issuer,
				Message: "The sign-in expired or was revoked."})
		},
	}
	m.setAuthIf(name, AuthStatus{Type: g.Kind, State: AuthSignedIn, Issuer: g.Issuer, Scopes: g.Scopes})
}

func (h *oauthConn) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	chs := readChallenges(resp.Header)
	var rm, errCode string
	var scopes []string
	bearer := false
	for _, c := range chs {
		if c.Scheme != "bearer" {
			continue
		}
		rm, errCode, scopes = c.Params["resource_metadata"], c.Params["error"], challengeScopes(c.Params["scope"])
		bearer = true
		break
	}
	m, name := h.s.m, h.s.name
	kind := authType(h.s.cfg)
	if resp.StatusCode == http.StatusForbidden {
		if errCode != "insufficient_scope" {
			return nil // the SDK retries once, then reports the 403
		}
		m.auth.update(name, func(e *authEntry) {
			e.resourceMetadata, e.challenged = rm, scopes
			e.st = AuthStatus{Type: kind, State: AuthMoreAccess, Issuer: e.st.Issuer, Scopes: scopes,
				Message: "The server asks for more access: " + ScopeWords(scopes) + "."}
		})
		m.notify()
		return &SignInError{Server: name, State: AuthMoreAccess, Scopes: scopes}
	}
	if len(rm) > maxMetadataURLLen {
		rm = ""
	}
	if !bearer && h.s.cfg.Auth == nil {
		// Not an OAuth server (a wrong key in a header of its own, say):
		// an ordinary failure, retried as one.
		return fmt.Errorf("the server refused the request (HTTP %d)", resp.StatusCode)
	}
	// The SDK calls Authorize once per request, so none of this loops.
	h.mu.Lock()
	g := h.g
	h.mu.Unlock()
	if kind == AuthClientCredentials {
		// Machine to machine: no person to ask; get a token now.
		epoch := m.auth.epochOf(name)
		g, err := m.clientCredentials(ctx, h.s.cfg, rm)
		if err != nil {
			m.setAuth(name, AuthStatus{Type: kind, State: AuthFailed, Message: err.Error()})
			return err
		}
		if err := m.vault().saveGrant(name, g); err != nil {
			return fmt.Errorf("keeping the token of %s: %w", name, err)
		}
		h.mu.Lock()
		h.useGrant(g, epoch)
		h.mu.Unlock()
		return nil
	}
	if g != nil && g.Refresh != "" {
		// The access token was refused before its expiry: refresh once.
		h.mu.Lock()
		g2 := *g
		g2.Expiry = expiredLongAgo
		h.useGrant(&g2, h.epoch)
		ts := h.ts
		h.mu.Unlock()
		if _, err := ts.Token(); err == nil {
			return nil
		}
	}
	state := AuthSignIn
	if g != nil {
		state = AuthSignInAgain
	}
	m.auth.update(name, func(e *authEntry) {
		e.resourceMetadata, e.challenged = rm, scopes
		if e.st.State != AuthSignInAgain || state != AuthSignIn {
			e.st = AuthStatus{Type: kind, State: state, Issuer: e.st.Issuer}
		}
	})
	m.notify()
	return &SignInError{Server: name, State: state}
}

// setAuth sets a server's sign-in state and tells the window.
func (m *Manager) setAuth(name string, st AuthStatus) {
	m.auth.update(name, func(e *authEntry) { e.st = st })
	m.notify()
}

// setAuthIf sets the state unless the server already waits for the
// person (a refresh that just failed must not be hidden by "signed in").
func (m *Manager) setAuthIf(name string, st AuthStatus) {
	changed := false
	m.auth.update(name, func(e *authEntry) {
		if e.st.State == "" || e.st.State == AuthSignedIn {
			changed = e.st.State != st.State
			e.st = st
		}
	})
	if changed {
		m.notify()
	}
}

func (m *Manager) vault() vaultStore { return vaultStore{m.o.Vault} }

// SignOut deletes the server's tokens from the key storage and restarts
// it, which then shows "Sign in".
func (m *Manager) SignOut(name string) error {
	s := m.lookup(name)
	if s == nil {
		return ErrUnknownServer
	}
	err := m.forgetGrant(name, func(e *authEntry) {
		if e.signIn != nil {
			e.signIn()
		}
		e.st = AuthStatus{Type: authType(s.cfg), State: AuthSignIn, Message: "Signed out."}
	})
	m.notify()
	if err != nil {
		return fmt.Errorf("signing out of %s: %w", name, err)
	}
	return m.Restart(name)
}

// errSignInUnavailable: the manager has nowhere to keep tokens or no
// browser to open.
var errSignInUnavailable = errors.New("signing in is not available here (no key storage or no browser)")

// oauthHandler is h as the SDK's interface; nil (no handler) for nil.
func oauthHandler(h *oauthConn) auth.OAuthHandler {
	if h == nil {
		return nil
	}
	return h
}

// withAuthorization is the configured headers plus Authorization: what a
// redirect to another origin must not carry (the SDK sets the OAuth token
// on the request itself).
func withAuthorization(headers map[string]string) map[string]string {
	out := make(map[string]string, len(headers)+1)
	for k, v := range headers {
		out[k] = v
	}
	out["Authorization"] = ""
	return out
}

// waitingText is what a server waiting for the person shows as its error.
func (b *authBook) waitingText(name string) string {
	st := b.status(name)
	if st == nil {
		return ""
	}
	if st.State == AuthFailed || st.State == AuthSigningIn {
		return st.Message
	}
	return (&SignInError{Server: name, State: st.State, Scopes: st.Scopes}).Error()
}

// ForgetSignIn deletes a server's tokens from the key storage without
// restarting anything (the server is being removed).
func (m *Manager) ForgetSignIn(name string) error {
	return m.forgetGrant(name, func(e *authEntry) {
		if e.signIn != nil {
			e.signIn()
		}
		*e = authEntry{epoch: e.epoch}
	})
}

// Budgets of what a server's challenge may put in the status: at most
// maxChallengeScopes scopes of maxScopeLen bytes, printable ASCII only
// (a scope is that by RFC 6749); a resource_metadata URL of at most 2 KiB.
const (
	maxChallengeScopes = 32
	maxScopeLen        = 128
	maxMetadataURLLen  = 2048
)

// maxChallengeBytes bounds the WWW-Authenticate a server's answer may
// have for Juncture to read it: the SDK's parser looks ahead from every
// comma (quadratic), and a real challenge is a few hundred bytes.
const maxChallengeBytes = 8 << 10

// readChallenges parses the answer's WWW-Authenticate when all its values
// together are within maxChallengeBytes; a longer one is not read (the
// answer then counts as one without a challenge).
func readChallenges(h http.Header) []oauthex.Challenge {
	vals := h.Values("WWW-Authenticate")
	n := 0
	for _, v := range vals {
		if n += len(v); n > maxChallengeBytes {
			return nil
		}
	}
	chs, _ := oauthex.ParseWWWAuthenticate(vals)
	return chs
}

func challengeScopes(raw string) []string {
	var out []string
	for _, s := range strings.Fields(raw) {
		if len(out) == maxChallengeScopes {
			break
		}
		if len(s) > maxScopeLen || strings.IndexFunc(s, func(r rune) bool { return r < 0x21 || r > 0x7e || r == '"' || r == '\\' }) >= 0 {
			continue
		}
		out = append(out, s)
	}
	return out
}

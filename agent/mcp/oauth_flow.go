package mcp

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// Budgets of the sign-in, decided before any byte arrives: metadata and
// token answers are at most maxOAuthBody (the SDK stops at 1 MiB too), a
// metadata request gets metadataTimeout, a token or registration request
// tokenTimeout, and the browser step SignInTimeout (default 5 minutes).
const (
	metadataTimeout      = 10 * time.Second
	tokenTimeout         = 20 * time.Second
	defaultSignInTimeout = 5 * time.Minute
	maxOAuthBody         = 1 << 20
	maxMetadataRedirects = 5
)

// expiredLongAgo marks a token as expired, so the next use refreshes it.
var expiredLongAgo = time.Unix(1, 0)

// bodyLimit caps every answer of the authorization servers.
type bodyLimit struct{ base http.RoundTripper }

func (b bodyLimit) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := b.base.RoundTrip(r)
	if err == nil && resp.Body != nil {
		resp.Body = &limitedBody{ReadCloser: resp.Body, left: maxOAuthBody}
	}
	return resp, err
}

func (m *Manager) oauthTransport() http.RoundTripper {
	if m.o.OAuthTransport != nil {
		return bodyLimit{m.o.OAuthTransport}
	}
	return bodyLimit{http.DefaultTransport}
}

// metaClient fetches metadata (no secret is sent): a few redirects, never
// from https down to http.
func (m *Manager) metaClient() *http.Client {
	return &http.Client{Transport: m.oauthTransport(), Timeout: metadataTimeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxMetadataRedirects {
				return errors.New("too many redirects")
			}
			if via[len(via)-1].URL.Scheme == "https" && req.URL.Scheme != "https" {
				return errors.New("a redirect from https to http")
			}
			return nil
		}}
}

// tokenClient talks to the token and registration endpoints, whose
// requests carry codes, verifiers, refresh tokens and client secrets: it
// follows no redirect at all, so they go nowhere else.
func (m *Manager) tokenClient() *http.Client {
	return &http.Client{Transport: m.oauthTransport(), Timeout: tokenTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// canonicalResource is the server's URL as a resource indicator: no
// fragment.
func canonicalResource(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.Fragment = ""
	return u.String()
}

// originOf is scheme://host[:port] of a URL.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Scheme + "://" + u.Host
}

// discover finds where a server's sign-in happens: its protected
// resource metadata (from the 401's resource_metadata, else the
// well-known places), then its authorization server's metadata (OAuth,
// then OpenID Connect discovery), whose issuer must equal the URL it was
// found under (the SDK checks it) and which must offer PKCE with S256.
func (m *Manager) discover(ctx context.Context, serverURL, rm string) (*oauthex.ProtectedResourceMetadata, *oauthex.AuthServerMeta, error) {
	c := m.metaClient()
	if rm == "" {
		rm = m.probe(ctx, serverURL)
	}
	resource := canonicalResource(serverURL)
	u, err := url.Parse(resource)
	if err != nil {
		return nil, nil, errors.New("the server's URL does not parse")
	}
	type cand struct{ url, resource string }
	var cands []cand
	if rm != "" {
		cands = append(cands, cand{rm, resource})
	}
	wk := *u
	wk.RawQuery = ""
	wk.Path = "/.well-known/oauth-protected-resource/" + strings.TrimLeft(u.Path, "/")
	cands = append(cands, cand{wk.String(), resource})
	wk.Path = "/.well-known/oauth-protected-resource"
	cands = append(cands, cand{wk.String(), originOf(resource)})
	var prm *oauthex.ProtectedResourceMetadata
	var why error
	for _, cd := range cands {
		p, err := oauthex.GetProtectedResourceMetadata(ctx, cd.url, cd.resource, c)
		if err == nil && p != nil {
			prm = p
			break
		}
		if why == nil {
			why = err
		}
	}
	if prm == nil {
		return nil, nil, fmt.Errorf("the server does not say where to sign in (no protected resource metadata): %s", cleanErr(why))
	}
	if len(prm.AuthorizationServers) == 0 {
		return nil, nil, errors.New("the server's metadata names no authorization server")
	}
	issuer := prm.AuthorizationServers[0]
	asm, err := auth.GetAuthServerMetadata(ctx, issuer, c)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the metadata of the authorization server %s: %s", redactURL(issuer), cleanErr(err))
	}
	if asm == nil {
		return nil, nil, fmt.Errorf("the authorization server %s publishes no metadata", redactURL(issuer))
	}
	if !slices.Contains(asm.CodeChallengeMethodsSupported, "S256") {
		return nil, nil, fmt.Errorf("the authorization server %s does not offer PKCE with S256", redactURL(issuer))
	}
	return prm, asm, nil
}

// probe asks the server without a token, to read its 401's challenge.
func (m *Manager) probe(ctx context.Context, serverURL string) string {
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"juncture","version":"` + m.o.Version + `"}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, serverURL, strings.NewReader(body))
	if err != nil {
		return ""
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := m.tokenClient().Do(req)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	chs := readChallenges(resp.Header)
	for _, c := range chs {
		if c.Scheme == "bearer" {
			return c.Params["resource_metadata"]
		}
	}
	return ""
}

// cleanErr is an error as a status may show it: URLs without their query,
// one line, short.
func cleanErr(err error) string {
	if err == nil {
		return "no answer"
	}
	return shorten(strings.ReplaceAll(redactURLs(err.Error()), "\n", " "), 300)
}

// scrubTokenError is a token endpoint's error without anything the
// answer carried: the OAuth error code and a short description only.
func scrubTokenError(err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		msg := "the authorization server refused"
		if re.ErrorCode != "" {
			msg += " (" + safeWord(re.ErrorCode) + ")"
		} else if re.Response != nil {
			msg += " (HTTP " + strconv.Itoa(re.Response.StatusCode) + ")"
		}
		return errors.New(msg)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("the authorization server could not be reached: %s", cleanErr(ue.Err))
	}
	return errors.New("the token request failed")
}

// safeWord keeps an OAuth error code readable and harmless: letters,
// digits and _ only, at most 64.
func safeWord(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
	return shorten(s, 64)
}

// scrub removes every given secret from msg: the last defence, for a
// hostile server that echoes a code or a token into its error text.
func scrub(msg string, secrets ...string) string {
	for _, s := range secrets {
		if len(s) >= 4 {
			msg = strings.ReplaceAll(msg, s, "…")
		}
	}
	return msg
}

// authStyle picks how the client authenticates at the token endpoint.
func authStyle(supported []string, hasSecret bool) oauth2.AuthStyle {
	if !hasSecret {
		return oauth2.AuthStyleInParams
	}
	if slices.Contains(supported, "client_secret_basic") || len(supported) == 0 {
		return oauth2.AuthStyleInHeader
	}
	return oauth2.AuthStyleInParams
}

// registerClient finds the client Juncture signs in as: the person's own
// client ID, else a Client ID Metadata Document (when the server accepts
// them and Juncture has one), else the client registered before at this
// issuer for this redirect, else a new dynamic registration.
func (m *Manager) registerClient(ctx context.Context, asm *oauthex.AuthServerMeta, cfg ServerConfig, redirect string) (clientRecord, error) {
	if a := cfg.Auth; a != nil && a.ClientID != "" {
		return clientRecord{ClientID: a.ClientID, ClientSecret: a.ClientSecret, RedirectURI: redirect, Kind: "configured",
			AuthStyle: int(authStyle(asm.TokenEndpointAuthMethodsSupported, a.ClientSecret != ""))}, nil
	}
	if m.o.ClientMetadataURL != "" && asm.ClientIDMetadataDocumentSupported {
		return clientRecord{ClientID: m.o.ClientMetadataURL, RedirectURI: redirect, Kind: "cimd", AuthStyle: int(oauth2.AuthStyleInParams)}, nil
	}
	var stored clientRecord
	if m.vault().getJSON(oauthClientAccount(asm.Issuer), &stored) && stored.Kind == "dcr" && stored.RedirectURI == redirect {
		return stored, nil
	}
	if asm.RegistrationEndpoint == "" {
		return clientRecord{}, errors.New("the authorization server lets no app register itself: give a client ID in the server's form")
	}
	rctx, cancel := context.WithTimeout(ctx, tokenTimeout)
	defer cancel()
	resp, err := oauthex.RegisterClient(rctx, asm.RegistrationEndpoint, &oauthex.ClientRegistrationMetadata{
		RedirectURIs: []string{redirect}, ClientName: "Juncture",
		GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
		TokenEndpointAuthMethod: "none", ApplicationType: "native",
	}, m.tokenClient())
	if err != nil {
		// The SDK quotes the answer's body, which may hold a client secret.
		var re *oauthex.ClientRegistrationError
		if errors.As(err, &re) {
			return clientRecord{}, fmt.Errorf("registering Juncture with the authorization server failed (%s)", safeWord(re.ErrorCode))
		}
		return clientRecord{}, errors.New("registering Juncture with the authorization server failed")
	}
	style := oauth2.AuthStyleInParams
	if resp.ClientSecret != "" && resp.TokenEndpointAuthMethod == "client_secret_basic" {
		style = oauth2.AuthStyleInHeader
	}
	return clientRecord{ClientID: resp.ClientID, ClientSecret: resp.ClientSecret, RedirectURI: redirect, Kind: "dcr", AuthStyle: int(style)}, nil
}

// SignIn runs the browser sign-in for an HTTP server: discovery,
// registration, authorization code with PKCE (S256) through a one-use
// loopback redirect on 127.0.0.1, the issuer checked (RFC 9207), the
// resource indicated (RFC 8707); the tokens go to the key storage by
// issuer, and the server restarts with them. It returns when the sign-in
// ended; its error never holds a code, a verifier or a token.
func (m *Manager) SignIn(ctx context.Context, name string) error {
	s := m.lookup(name)
	if s == nil {
		return ErrUnknownServer
	}
	cfg := s.cfg
	kind := authType(cfg)
	switch {
	case cfg.Transport() != TransportHTTP || kind == "":
		return fmt.Errorf("%s is not a server one signs in to", name)
	case kind == AuthClientCredentials:
		m.setAuth(name, AuthStatus{Type: kind, State: ""})
		return m.Restart(name)
	case m.o.Vault == nil || m.o.Browser == nil:
		return errSignInUnavailable
	}
	timeout := m.o.SignInTimeout
	if timeout <= 0 {
		timeout = defaultSignInTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var rm string
	var challenged []string
	var gen, epoch int
	m.auth.update(name, func(e *authEntry) {
		if e.signIn != nil {
			e.signIn() // one sign-in per server at a time: the newest wins
		}
		e.signIn = cancel
		e.gen++
		gen, epoch = e.gen, e.epoch
		rm, challenged = e.resourceMetadata, e.challenged
		e.st = AuthStatus{Type: kind, State: AuthSigningIn, Issuer: e.st.Issuer, Message: "Waiting for the sign-in in your browser."}
	})
	m.notify()
	g, err := m.signIn(ctx, name, cfg, rm, challenged)
	superseded := false
	m.auth.update(name, func(e *authEntry) {
		superseded = e.gen != gen
		if !superseded {
			e.signIn = nil
		}
	})
	if err == nil && !superseded {
		// Stored only if no Sign out (nor another sign-in) came between.
		var saved bool
		if saved, err = m.saveIf(name, epoch, g, true); err == nil && !saved {
			return fmt.Errorf("signing in to %s: signed out during the sign-in", name)
		}
	}
	if superseded {
		if err == nil {
			err = errors.New("a newer sign-in replaced this one")
		}
		return fmt.Errorf("signing in to %s: %w", name, err)
	}
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("the sign-in was not finished within %s", roundDelay(timeout))
		}
		msg := "Signing in to " + name + " failed: " + err.Error()
		m.setAuth(name, AuthStatus{Type: kind, State: AuthFailed, Message: msg})
		m.log.Info("An MCP sign-in failed", "server", name, "error", msg)
		return errors.New(msg)
	}
	m.auth.update(name, func(e *authEntry) { e.challenged = nil })
	m.setAuth(name, AuthStatus{Type: kind, State: AuthSignedIn, Issuer: g.Issuer, Scopes: g.Scopes})
	m.log.Info("Signed in to an MCP server", "server", name, "issuer", g.Issuer)
	return m.Restart(name)
}

func (m *Manager) signIn(ctx context.Context, name string, cfg ServerConfig, rm string, challenged []string) (*grantRecord, error) {
	prm, asm, err := m.discover(ctx, cfg.URL, rm)
	if err != nil {
		return nil, err
	}
	scopes := prm.ScopesSupported
	if cfg.Auth != nil && len(cfg.Auth.Scopes) > 0 {
		scopes = cfg.Auth.Scopes
	} else if len(challenged) > 0 {
		scopes = challenged
	}
	scopes = slices.Clone(scopes)
	if old, ok := m.vault().grant(name); ok && old.Issuer == asm.Issuer {
		// Step-up keeps what was granted before (SEP-2350).
		for _, sc := range old.Scopes {
			if !slices.Contains(scopes, sc) {
				scopes = append(scopes, sc)
			}
		}
	}
	if slices.Contains(asm.ScopesSupported, "offline_access") && !slices.Contains(scopes, "offline_access") {
		scopes = append(scopes, "offline_access")
	}
	cb, cl, redirect, err := m.callbackFor(ctx, asm, cfg)
	if err != nil {
		return nil, err
	}
	defer cb.close()
	verifier, state := oauth2.GenerateVerifier(), rand.Text()
	oc := &oauth2.Config{
		ClientID: cl.ClientID, ClientSecret: cl.ClientSecret,
		Endpoint:    oauth2.Endpoint{AuthURL: asm.AuthorizationEndpoint, TokenURL: asm.TokenEndpoint, AuthStyle: oauth2.AuthStyle(cl.AuthStyle)},
		RedirectURL: redirect, Scopes: scopes,
	}
	cb.expect(state)
	authURL := oc.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", prm.Resource))
	if err := m.o.Browser.Open(ctx, authURL); err != nil {
		return nil, errors.New("the browser could not be opened")
	}
	res, err := cb.wait(ctx)
	if err != nil {
		return nil, err
	}
	if err := checkIssuer(res.iss, asm); err != nil {
		return nil, err
	}
	tctx := context.WithValue(ctx, oauth2.HTTPClient, m.tokenClient())
	tok, err := oc.Exchange(tctx, res.code, oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", prm.Resource))
	if err != nil {
		return nil, errors.New(scrub(scrubTokenError(err).Error(), res.code, verifier, state))
	}
	if tok.AccessToken == "" {
		return nil, errors.New("the authorization server gave no access token")
	}
	g := &grantRecord{Kind: AuthOAuth, Issuer: asm.Issuer, Resource: prm.Resource, TokenURL: asm.TokenEndpoint, Scopes: scopes, Client: cl}
	g.setToken(tok)
	return g, nil
}

// checkIssuer applies RFC 9207: a server that says it sends iss must
// send its own issuer; an iss that is there must be the issuer.
func checkIssuer(iss string, asm *oauthex.AuthServerMeta) error {
	switch {
	case iss == "" && asm.AuthorizationResponseIssParameterSupported:
		return errors.New("the authorization server sent no issuer with the sign-in (RFC 9207): refused")
	case iss != "" && iss != asm.Issuer:
		return errors.New("the sign-in came back from another issuer than the server's (RFC 9207): refused")
	}
	return nil
}

// listenLoopback listens on 127.0.0.1, on the port of the redirect URI
// registered before when it is free (so the registration still fits),
// else on a random port.
func listenLoopback(previous string) (net.Listener, error) {
	if u, err := url.Parse(previous); err == nil && u.Hostname() == "127.0.0.1" && u.Port() != "" {
		if ln, err := net.Listen("tcp", "127.0.0.1:"+u.Port()); err == nil {
			return ln, nil
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening for the sign-in's answer: %w", err)
	}
	return ln, nil
}

// callback is the loopback redirect's receiver: it takes one answer with
// the expected state, once; any other request is refused and changes
// nothing.
type callback struct {
	srv   *http.Server // nil for a juncture:// answer
	done  func()       // forgets a juncture:// answer's sign-in
	mu    sync.Mutex
	state string
	used  bool
	got   chan callbackResult
}

type callbackResult struct {
	code, iss string
	err       error
}

func serveCallback(ln net.Listener) *callback {
	cb := &callback{got: make(chan callbackResult, 1)}
	cb.srv = &http.Server{Handler: cb, ReadHeaderTimeout: 5 * time.Second, MaxHeaderBytes: 16 << 10}
	go func() { _ = cb.srv.Serve(ln) }()
	return cb
}

func (cb *callback) expect(state string) {
	cb.mu.Lock()
	cb.state = state
	cb.mu.Unlock()
}

const callbackPage = `<!doctype html><meta charset="utf-8"><title>Juncture</title><body style="font:16px system-ui;margin:3em">%s</body>`

func (cb *callback) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	if r.URL.Path != "/callback" || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	ok, res := cb.deliver(r.URL.Query())
	if !ok {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, callbackPage, "This sign-in answer is not the one Juncture waits for (or was used already). Nothing changed.")
		return
	}
	if res.err != nil {
		fmt.Fprintf(w, callbackPage, "The sign-in did not succeed. You can close this tab and look in Juncture.")
		return
	}
	fmt.Fprintf(w, callbackPage, "Signed in. You can close this tab and go back to Juncture.")
}

// deliver takes the answer q (the redirect's query) when its state is
// the expected one (compared in constant time) and no answer was taken
// before; otherwise it changes nothing.
func (cb *callback) deliver(q url.Values) (bool, callbackResult) {
	cb.mu.Lock()
	ok := cb.state != "" && subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(cb.state)) == 1 && !cb.used
	if ok {
		cb.used = true
	}
	cb.mu.Unlock()
	if !ok {
		return false, callbackResult{}
	}
	res := callbackResult{code: q.Get("code"), iss: q.Get("iss")}
	if e := q.Get("error"); e != "" {
		res.err = fmt.Errorf("the authorization server refused the sign-in (%s)", safeWord(e))
	} else if res.code == "" {
		res.err = errors.New("the sign-in answer has no code")
	}
	cb.got <- res
	return true, res
}

func (cb *callback) wait(ctx context.Context) (callbackResult, error) {
	select {
	case res := <-cb.got:
		return res, res.err
	case <-ctx.Done():
		return callbackResult{}, fmt.Errorf("the sign-in did not finish: %w", ctx.Err())
	}
}

func (cb *callback) close() {
	if cb.done != nil {
		cb.done()
	}
	if cb.srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = cb.srv.Shutdown(ctx)
}

// clientCredentials gets a machine-to-machine token with the configured
// client ID and secret, for the resource the server's metadata names.
func (m *Manager) clientCredentials(ctx context.Context, cfg ServerConfig, rm string) (*grantRecord, error) {
	a := cfg.Auth
	if a == nil || a.ClientID == "" || a.ClientSecret == "" {
		return nil, errors.New("client credentials need a client ID and a secret in the server's form")
	}
	prm, asm, err := m.discover(ctx, cfg.URL, rm)
	if err != nil {
		return nil, err
	}
	tok, err := m.ccConfig(cfg, asm.TokenEndpoint, prm.Resource, asm.TokenEndpointAuthMethodsSupported).
		Token(context.WithValue(ctx, oauth2.HTTPClient, m.tokenClient()))
	if err != nil {
		return nil, errors.New(scrub(scrubTokenError(err).Error(), a.ClientSecret))
	}
	g := &grantRecord{Kind: AuthClientCredentials, Issuer: asm.Issuer, Resource: prm.Resource, TokenURL: asm.TokenEndpoint,
		Scopes: a.Scopes, Client: clientRecord{ClientID: a.ClientID, Kind: "configured",
			AuthStyle: int(authStyle(asm.TokenEndpointAuthMethodsSupported, true))}}
	g.setToken(tok)
	return g, nil
}

func (m *Manager) ccConfig(cfg ServerConfig, tokenURL, resource string, methods []string) *clientcredentials.Config {
	return &clientcredentials.Config{
		ClientID: cfg.Auth.ClientID, ClientSecret: cfg.Auth.ClientSecret, TokenURL: tokenURL, Scopes: cfg.Auth.Scopes,
		EndpointParams: url.Values{"resource": {resource}}, AuthStyle: authStyle(methods, true),
	}
}

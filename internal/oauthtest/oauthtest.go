// Package oauthtest is a test authorization server and a protected MCP
// server, written for Juncture's sign-in tests and started on loopback.
// The authorization server auto-approves (the test drives the browser
// step by following its redirect), enforces PKCE S256, one-use codes,
// resource indicators and refresh tokens that can be revoked; the MCP
// server wants a Bearer token from it, with scopes that can be raised
// (step-up). Every token, code and verifier it handled is listed by
// Secrets, so tests can scan logs and files for them.
package oauthtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// AS is the authorization server.
type AS struct {
	URL string // the issuer
	srv *httptest.Server

	mu        sync.Mutex
	clients   map[string]client
	codes     map[string]*code
	access    map[string]grant
	refresh   map[string]grant
	secrets   []string
	refreshes int
	ccClients map[string]string

	// Knobs, set before use.
	AccessTTL   time.Duration // default 1 h
	CIMD        bool          // advertises client ID metadata documents
	NoIssParam  bool          // does not send iss (nor advertise it)
	WrongIss    string        // sends this iss in the redirect
	MetaIssuer  string        // metadata names this issuer (a mismatch)
	MetaPatch   func(map[string]any)
	MetaHandler http.HandlerFunc // replaces the metadata answer (hostile tests)
	Scopes      []string         // scopes_supported
	// LoopbackOnly refuses to register a redirect that is not http://
	// (a juncture:// one): invalid_redirect_uri.
	LoopbackOnly bool
}

type client struct {
	redirects []string
}

type code struct {
	clientID, redirect, challenge, resource string
	scopes                                  []string
	used                                    bool
}

type grant struct {
	clientID, resource string
	scopes             []string
	expiry             time.Time
}

// NewAS starts an authorization server on loopback.
func NewAS() *AS {
	as := &AS{clients: map[string]client{}, codes: map[string]*code{}, access: map[string]grant{}, refresh: map[string]grant{},
		ccClients: map[string]string{}, Scopes: []string{"notes:read", "notes:write", "offline_access"}}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", as.meta)
	mux.HandleFunc("/authorize", as.authorize)
	mux.HandleFunc("/token", as.token)
	mux.HandleFunc("/register", as.register)
	as.srv = httptest.NewServer(mux)
	as.URL = as.srv.URL
	return as
}

func (as *AS) Close() { as.srv.Close() }

// AddClientCredentials registers a machine-to-machine client.
func (as *AS) AddClientCredentials(id, secret string) {
	as.mu.Lock()
	defer as.mu.Unlock()
	as.ccClients[id] = secret
	as.secrets = append(as.secrets, secret)
}

// Revoke revokes every token and refresh token.
func (as *AS) Revoke() {
	as.mu.Lock()
	defer as.mu.Unlock()
	as.access, as.refresh = map[string]grant{}, map[string]grant{}
}

// Refreshes counts the refresh grants served.
func (as *AS) Refreshes() int {
	as.mu.Lock()
	defer as.mu.Unlock()
	return as.refreshes
}

// Secrets lists every token, code, verifier and client secret the server
// issued or received.
func (as *AS) Secrets() []string {
	as.mu.Lock()
	defer as.mu.Unlock()
	return slices.Clone(as.secrets)
}

// Check returns the scopes of a valid access token for resource.
func (as *AS) Check(token, resource string) ([]string, bool) {
	as.mu.Lock()
	defer as.mu.Unlock()
	g, ok := as.access[token]
	if !ok || time.Now().After(g.expiry) || g.resource != resource {
		return nil, false
	}
	return g.scopes, true
}

func (as *AS) meta(w http.ResponseWriter, r *http.Request) {
	if as.MetaHandler != nil {
		as.MetaHandler(w, r)
		return
	}
	iss := as.URL
	if as.MetaIssuer != "" {
		iss = as.MetaIssuer
	}
	m := map[string]any{
		"issuer": iss, "authorization_endpoint": as.URL + "/authorize", "token_endpoint": as.URL + "/token",
		"registration_endpoint": as.URL + "/register", "code_challenge_methods_supported": []string{"S256"},
		"scopes_supported": as.Scopes, "response_types_supported": []string{"code"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token", "client_credentials"},
		"token_endpoint_auth_methods_supported":          []string{"none", "client_secret_post", "client_secret_basic"},
		"authorization_response_iss_parameter_supported": !as.NoIssParam,
		"client_id_metadata_document_supported":          as.CIMD,
	}
	if as.MetaPatch != nil {
		as.MetaPatch(m)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(m)
}

func random() string { return rand.Text() }

func (as *AS) register(w http.ResponseWriter, r *http.Request) {
	var req struct {
		RedirectURIs []string `json:"redirect_uris"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&req); err != nil || len(req.RedirectURIs) == 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":"invalid_client_metadata"}`)
		return
	}
	for _, u := range req.RedirectURIs {
		if as.LoopbackOnly && !strings.HasPrefix(u, "http://") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":"invalid_redirect_uri"}`)
			return
		}
	}
	id := "client-" + random()
	as.mu.Lock()
	as.clients[id] = client{redirects: req.RedirectURIs}
	as.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(map[string]any{"client_id": id, "redirect_uris": req.RedirectURIs, "token_endpoint_auth_method": "none"})
}

func (as *AS) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id, redirect := q.Get("client_id"), q.Get("redirect_uri")
	as.mu.Lock()
	c, known := as.clients[id]
	as.mu.Unlock()
	cimd := as.CIMD && strings.HasPrefix(id, "https://")
	if (!known || !slices.Contains(c.redirects, redirect)) && !cimd {
		http.Error(w, "unknown client or redirect", http.StatusBadRequest)
		return
	}
	if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("response_type") != "code" {
		http.Error(w, "PKCE S256 required", http.StatusBadRequest)
		return
	}
	cd := random()
	as.mu.Lock()
	as.codes[cd] = &code{clientID: id, redirect: redirect, challenge: q.Get("code_challenge"), resource: q.Get("resource"), scopes: strings.Fields(q.Get("scope"))}
	as.secrets = append(as.secrets, cd)
	as.mu.Unlock()
	back := url.Values{"code": {cd}, "state": {q.Get("state")}}
	switch {
	case as.WrongIss != "":
		back.Set("iss", as.WrongIss)
	case !as.NoIssParam:
		back.Set("iss", as.URL)
	}
	http.Redirect(w, r, redirect+"?"+back.Encode(), http.StatusFound)
}

func tokenError(w http.ResponseWriter, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	fmt.Fprintf(w, `{"error":%q}`, code)
}

func (as *AS) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		tokenError(w, "invalid_request")
		return
	}
	f := r.PostForm
	as.mu.Lock()
	defer as.mu.Unlock()
	for _, k := range []string{"code", "code_verifier", "refresh_token", "client_secret"} {
		if v := f.Get(k); v != "" {
			as.secrets = append(as.secrets, v)
		}
	}
	var g grant
	switch f.Get("grant_type") {
	case "authorization_code":
		c := as.codes[f.Get("code")]
		sum := sha256.Sum256([]byte(f.Get("code_verifier")))
		switch {
		case c == nil || c.used:
			tokenError(w, "invalid_grant")
			return
		case base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge, c.redirect != f.Get("redirect_uri"),
			c.clientID != f.Get("client_id"), c.resource != f.Get("resource"):
			c.used = true
			tokenError(w, "invalid_grant")
			return
		}
		c.used = true
		g = grant{clientID: c.clientID, resource: c.resource, scopes: c.scopes}
	case "refresh_token":
		old, ok := as.refresh[f.Get("refresh_token")]
		if !ok {
			tokenError(w, "invalid_grant")
			return
		}
		delete(as.refresh, f.Get("refresh_token"))
		as.refreshes++
		g = old
	case "client_credentials":
		id, secret, ok := r.BasicAuth()
		if !ok {
			id, secret = f.Get("client_id"), f.Get("client_secret")
		}
		if want, known := as.ccClients[id]; !known || want != secret {
			tokenError(w, "invalid_client")
			return
		}
		g = grant{clientID: id, resource: f.Get("resource"), scopes: strings.Fields(f.Get("scope"))}
	default:
		tokenError(w, "unsupported_grant_type")
		return
	}
	ttl := as.AccessTTL
	if ttl <= 0 {
		ttl = time.Hour
	}
	g.expiry = time.Now().Add(ttl)
	access := "at-" + random()
	as.access[access] = g
	as.secrets = append(as.secrets, access)
	out := map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": int(ttl.Seconds()), "scope": strings.Join(g.scopes, " ")}
	if f.Get("grant_type") != "client_credentials" {
		rt := "rt-" + random()
		as.refresh[rt] = g
		as.secrets = append(as.secrets, rt)
		out["refresh_token"] = rt
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(out)
}

// RS is a protected MCP server: Streamable HTTP at URL, with its
// protected resource metadata naming AS.
type RS struct {
	URL string // the MCP endpoint
	srv *httptest.Server
	as  *AS

	mu       sync.Mutex
	required []string
	redirect string
	seen     []string // the Authorization headers it received
}

// NewRS starts a protected MCP server whose tokens come from as.
func NewRS(as *AS) *RS {
	rs := &RS{as: as, required: []string{"notes:read"}}
	server := sdk.NewServer(&sdk.Implementation{Name: "notes", Version: "1"}, nil)
	sdk.AddTool(server, &sdk.Tool{Name: "whoami", Description: "Says hello"}, func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, struct{}, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "hello"}}}, struct{}{}, nil
	})
	mcpHandler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, &sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"resource": rs.URL, "authorization_servers": []string{as.URL}, "scopes_supported": []string{"notes:read"}})
	})
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		rs.mu.Lock()
		required, redirect := slices.Clone(rs.required), rs.redirect
		rs.seen = append(rs.seen, r.Header.Get("Authorization"))
		rs.mu.Unlock()
		meta := rs.URL[:strings.LastIndex(rs.URL, "/mcp")] + "/.well-known/oauth-protected-resource/mcp"
		tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		scopes, ok := as.Check(tok, rs.URL)
		if !ok {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata=%q, scope=%q`, meta, strings.Join(required, " ")))
			http.Error(w, "sign in", http.StatusUnauthorized)
			return
		}
		for _, s := range required {
			if !slices.Contains(scopes, s) {
				w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q, resource_metadata=%q`, strings.Join(required, " "), meta))
				http.Error(w, "more scope", http.StatusForbidden)
				return
			}
		}
		if redirect != "" {
			http.Redirect(w, r, redirect, http.StatusTemporaryRedirect)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	})
	rs.srv = httptest.NewServer(mux)
	rs.URL = rs.srv.URL + "/mcp"
	return rs
}

func (rs *RS) Close() { rs.srv.Close() }

// Require sets the scopes a request needs (step-up when raised).
func (rs *RS) Require(scopes ...string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.required = scopes
}

// SetRedirect sends every authorized request to where (307).
func (rs *RS) SetRedirect(where string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.redirect = where
}

package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// TokenVault is where sign-in credentials are kept: the app's key
// storage (the OS keychain, or its fallback file), like every key. A Get
// of an account holding nothing returns an error.
type TokenVault interface {
	Get(account string) (string, error)
	Set(account, secret string) error
	Delete(account string) error
}

// Browser opens the authorization page in the person's browser. The app
// gives the system's browser; tests follow the page themselves.
type Browser interface {
	Open(ctx context.Context, url string) error
}

// The key storage holds, by issuer (the authorization server):
//   - "mcp/oauth/<issuer>/client": the client Juncture registered there
//     (ID, secret when one was issued, the redirect URI);
//   - "mcp/oauth/<issuer>/token/<resource>": the tokens for one server;
// and by server, "mcp/<server>/oauth/grant": which issuer and resource
// the server's tokens are under (no secret, but kept beside them so
// deleting a server's sign-in leaves nothing behind in mcp.json).

func oauthClientAccount(issuer string) string {
	return "mcp/oauth/" + escapeAccountPart(issuer) + "/client"
}

func oauthTokenAccount(issuer, resource string) string {
	return "mcp/oauth/" + escapeAccountPart(issuer) + "/token/" + escapeAccountPart(resource)
}

func oauthGrantAccount(server string) string { return SecretAccount(server, "oauth", "grant") }

// clientRecord is a registered client.
type clientRecord struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret,omitempty"`
	RedirectURI  string `json:"redirect_uri,omitempty"`
	AuthStyle    int    `json:"auth_style,omitempty"`
	// Kind: "cimd", "dcr", "configured" (the person's own client ID).
	Kind string `json:"kind"`
}

// grantRecord is a server's sign-in: everything a refresh needs after a
// restart of the app.
type grantRecord struct {
	Kind      string       `json:"kind"` // AuthOAuth or AuthClientCredentials
	Issuer    string       `json:"issuer"`
	Resource  string       `json:"resource"`
	TokenURL  string       `json:"token_url"`
	Scopes    []string     `json:"scopes,omitempty"`
	Access    string       `json:"access_token"`
	Refresh   string       `json:"refresh_token,omitempty"`
	TokenType string       `json:"token_type,omitempty"`
	Expiry    time.Time    `json:"expiry,omitzero"`
	Client    clientRecord `json:"client"`
}

func (g *grantRecord) token() *oauth2.Token {
	return &oauth2.Token{AccessToken: g.Access, RefreshToken: g.Refresh, TokenType: g.TokenType, Expiry: g.Expiry}
}

func (g *grantRecord) setToken(t *oauth2.Token) {
	g.Access, g.TokenType, g.Expiry = t.AccessToken, t.TokenType, t.Expiry
	if t.RefreshToken != "" {
		g.Refresh = t.RefreshToken
	}
	if sc, ok := t.Extra("scope").(string); ok && sc != "" {
		g.Scopes = strings.Fields(sc)
	}
}

// oauthConfig is the oauth2 configuration a refresh uses.
func (g *grantRecord) oauthConfig() *oauth2.Config {
	return &oauth2.Config{
		ClientID: g.Client.ClientID, ClientSecret: g.Client.ClientSecret,
		Endpoint: oauth2.Endpoint{TokenURL: g.TokenURL, AuthStyle: oauth2.AuthStyle(g.Client.AuthStyle)},
		Scopes:   g.Scopes,
	}
}

// vaultStore reads and writes the records; a nil vault keeps nothing.
type vaultStore struct{ v TokenVault }

var errNoVault = errors.New("no key storage is available to keep the sign-in")

func (s vaultStore) getJSON(account string, into any) bool {
	if s.v == nil {
		return false
	}
	raw, err := s.v.Get(account)
	if err != nil || raw == "" {
		return false
	}
	return json.Unmarshal([]byte(raw), into) == nil
}

func (s vaultStore) setJSON(account string, v any) error {
	if s.v == nil {
		return errNoVault
	}
	data, err := json.Marshal(v)
	if err != nil {
		return errors.New("encoding the sign-in record")
	}
	// The vault's own errors never hold the secret (secrets.Store).
	return s.v.Set(account, string(data))
}

// grant loads a server's sign-in.
func (s vaultStore) grant(server string) (*grantRecord, bool) {
	var ref struct{ Issuer, Resource string }
	if !s.getJSON(oauthGrantAccount(server), &ref) {
		return nil, false
	}
	var g grantRecord
	if !s.getJSON(oauthTokenAccount(ref.Issuer, ref.Resource), &g) || g.Access == "" {
		return nil, false
	}
	return &g, true
}

// saveGrant stores a server's sign-in (and its client, by issuer).
func (s vaultStore) saveGrant(server string, g *grantRecord) error {
	if err := s.setJSON(oauthTokenAccount(g.Issuer, g.Resource), g); err != nil {
		return err
	}
	if g.Client.Kind != "configured" {
		if err := s.setJSON(oauthClientAccount(g.Issuer), g.Client); err != nil {
			return err
		}
	}
	return s.setJSON(oauthGrantAccount(server), struct{ Issuer, Resource string }{g.Issuer, g.Resource})
}

// forget deletes a server's tokens (the registered client stays: it is
// not a credential of the person's).
func (s vaultStore) forget(server string) error {
	if s.v == nil {
		return nil
	}
	var ref struct{ Issuer, Resource string }
	if s.getJSON(oauthGrantAccount(server), &ref) {
		if err := s.v.Delete(oauthTokenAccount(ref.Issuer, ref.Resource)); err != nil {
			return err
		}
	}
	return s.v.Delete(oauthGrantAccount(server))
}

// persistingSource is a refreshing token source that writes every new
// token back to the key storage, and tells the manager when the grant is
// gone (invalid_grant: revoked or expired).
type persistingSource struct {
	mu     sync.Mutex
	base   oauth2.TokenSource
	last   string
	save   func(*oauth2.Token)
	revoke func()
	server string
}

func (p *persistingSource) Token() (*oauth2.Token, error) {
	t, err := p.base.Token()
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && (re.ErrorCode == "invalid_grant" || re.Response != nil && re.Response.StatusCode == http.StatusUnauthorized) {
			p.revoke()
			return nil, &SignInError{Server: p.server, State: AuthSignInAgain}
		}
		return nil, scrubTokenError(err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if t.AccessToken != p.last {
		p.last = t.AccessToken
		p.save(t)
	}
	return t, nil
}

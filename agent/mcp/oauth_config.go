package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// How an HTTP server is signed in to ("auth" in mcp.json). Headers stay
// the way to give a fixed token; "auth" is for OAuth.
const (
	// AuthOAuth: the person signs in in their browser (authorization code
	// with PKCE); the tokens are kept in the key storage by issuer.
	AuthOAuth = "oauth"
	// AuthClientCredentials: machine to machine; Juncture gets its own
	// tokens with a client ID and secret the person configured.
	AuthClientCredentials = "client_credentials"
)

// ServerAuth is the "auth" entry of an HTTP server in mcp.json. No token
// is ever kept here: the client secret is a keychain reference in the
// file, and tokens live in the key storage only.
type ServerAuth struct {
	Type string `json:"type"` // AuthOAuth or AuthClientCredentials
	// ClientID is a client registered by hand with the authorization
	// server (required for client credentials; for sign-in, optional:
	// without it Juncture registers itself).
	ClientID string `json:"clientId,omitempty"`
	// ClientSecret is a secret: masked in Settings, a keychain reference
	// in the file.
	ClientSecret string   `json:"clientSecret,omitempty"`
	Scopes       []string `json:"scopes,omitempty"`
}

// auth reads a server's "auth" object; null counts as absent.
func (p *parser) auth(off int, server string) (*ServerAuth, error) {
	raw, err := p.raw()
	if err != nil || string(raw) == "null" {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var a ServerAuth
	if err := dec.Decode(&a); err != nil {
		return nil, p.errorAt(off, fmt.Sprintf(`"auth" of server %q must be an object like {"type": "oauth"} (%s)`,
			server, strings.TrimPrefix(err.Error(), "json: ")))
	}
	return &a, nil
}

// validateAuth checks a server's "auth" entry.
func validateAuth(name string, s ServerConfig) *invalid {
	a := s.Auth
	if a == nil {
		return nil
	}
	bad := func(msg string) *invalid { return &invalid{field: "auth", msg: msg} }
	switch {
	case s.URL == "":
		return bad(fmt.Sprintf(`server %q has "auth" but no "url": signing in is for HTTP servers`, name))
	case a.Type != AuthOAuth && a.Type != AuthClientCredentials:
		return bad(fmt.Sprintf(`"auth" of server %q must have "type": "oauth" or "client_credentials"`, name))
	case a.Type == AuthClientCredentials && (a.ClientID == "" || a.ClientSecret == ""):
		return bad(fmt.Sprintf(`"auth" of server %q uses client credentials: it needs a "clientId" and a "clientSecret"`, name))
	case strings.IndexFunc(a.ClientID, isControl) >= 0 || strings.IndexFunc(a.ClientSecret, isControl) >= 0:
		return bad(fmt.Sprintf(`"auth" of server %q must not contain control characters`, name))
	case len(a.ClientID) > 512 || len(a.ClientSecret) > 4096 || len(a.Scopes) > 64:
		return bad(fmt.Sprintf(`"auth" of server %q is too long`, name))
	}
	for _, sc := range a.Scopes {
		if sc == "" || strings.ContainsAny(sc, " \"\\") || strings.IndexFunc(sc, isControl) >= 0 {
			return bad(fmt.Sprintf(`a scope in "auth" of server %q is empty or has spaces, quotes or control characters`, name))
		}
	}
	return nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// appendAuth writes the "auth" field.
func appendAuth(b *bytes.Buffer, a *ServerAuth) error {
	data, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("field \"auth\": %w", err)
	}
	b.Write(data)
	return nil
}

// maskedAuth is a copy of a with the client secret masked.
func maskedAuth(a *ServerAuth) *ServerAuth {
	if a == nil {
		return nil
	}
	c := *a
	c.Scopes = append([]string(nil), a.Scopes...)
	c.ClientSecret = maskValue(a.ClientSecret)
	return &c
}

// restoreAuth puts previous's client secret back where edited still holds
// its mask, unless the server moved to another origin (the secret goes
// only where it was saved for).
func restoreAuth(previous, edited ServerConfig) *ServerAuth {
	a := edited.Auth
	if a == nil || previous.Auth == nil || !strings.HasPrefix(a.ClientSecret, Mask) {
		return a
	}
	c := *a
	if !movedOrigin(previous.URL, edited.URL) && c.ClientSecret == maskValue(previous.Auth.ClientSecret) {
		c.ClientSecret = previous.Auth.ClientSecret
	}
	return &c
}

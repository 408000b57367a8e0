package config

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/juncture-app/juncture/agent/model"
)

// A key goes only to the endpoint it was saved with: the same normalised
// base URL (scheme, host, port, path). Every place that attaches a key to
// a request (model calls, ListModels, TestConnection, sampling) takes the
// key from KeyedDefault or a saved endpoint, never from another
// endpoint's, and sends it with KeyedHTTP, which follows no redirect to
// another origin (net/http keeps Authorization on a redirect to the same
// host name on another port or scheme).

// normalBase is a base URL reduced to what names an endpoint: lower-case
// scheme and host, the port (the scheme's default when absent) and the
// cleaned path without a trailing slash. ok is false for anything that is
// not an absolute http(s) URL.
func normalBase(s string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Host == "" {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	switch {
	case scheme != "http" && scheme != "https":
		return "", false
	case port == "" && scheme == "http":
		port = "80"
	case port == "":
		port = "443"
	}
	p := path.Clean("/" + u.EscapedPath())
	if p == "/" {
		p = ""
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port) + p, true
}

// SameEndpoint reports whether two base URLs name the same endpoint.
func SameEndpoint(a, b string) bool {
	na, okA := normalBase(a)
	nb, okB := normalBase(b)
	return okA && okB && na == nb
}

// origin is what a redirect must keep for the key to follow it.
func origin(u *url.URL) string {
	n, _ := normalBase(u.Scheme + "://" + u.Host)
	return n
}

// errKeyRedirect refuses a redirect that would carry a key elsewhere.
var errKeyRedirect = errors.New("the endpoint redirected to another address; Juncture does not send the key there")

// sameOriginRedirect follows a redirect only within the first request's
// origin (the key rides in the Authorization header).
func sameOriginRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if origin(req.URL) != origin(via[0].URL) {
		return fmt.Errorf("%w (%s)", errKeyRedirect, req.URL.Host)
	}
	return nil
}

// KeyedHTTP is the HTTP client of every model call that may carry a key
// (one value, so a client cache keys on it).
var KeyedHTTP = KeyedHTTPClient(0)

// KeyedHTTPClient is model.DefaultHTTPClient with sameOriginRedirect and
// an overall timeout (0: none, for streams).
func KeyedHTTPClient(timeout time.Duration) *http.Client {
	c := model.DefaultHTTPClient()
	c.Timeout = timeout
	c.CheckRedirect = sameOriginRedirect
	return c
}

// KeyedDefault is the default endpoint and the key that may go to it: the
// environment's key (OPENAI_API_KEY), else the saved key when it was saved
// for this endpoint (keyBaseURL, or the saved baseUrl of older
// databases), else none.
func (c *Catalog) KeyedDefault() (base, key string) {
	st, src := c.Effective()
	if src["apiKey"] != SourceSaved {
		return st.BaseURL, st.APIKey
	}
	s := &c.settings
	s.mu.Lock()
	bound := s.keyBoundLocked()
	s.mu.Unlock()
	if !SameEndpoint(st.BaseURL, bound) {
		return st.BaseURL, ""
	}
	return st.BaseURL, st.APIKey
}

// keyKeyBase is the settings row naming the base URL the general key was
// saved for (older databases: the saved baseUrl).
const keyKeyBase = "keyBaseUrl"

// keyBoundLocked is the base URL the saved general key was saved for:
// keyKeyBase, else (older databases) the saved baseUrl. The caller holds
// s.mu.
func (s *settings) keyBoundLocked() string {
	if bound := s.saved[keyKeyBase]; bound != "" {
		return bound
	}
	return s.saved["baseUrl"]
}

// keyMovedMessage refuses a masked key saved back with another URL.
func keyMovedMessage(savedFor string) string {
	return "This key was saved for " + hostName(savedFor) + ": type the key for the new URL (a key is sent only to the endpoint it was saved with)."
}

// keyBinding resolves a masked key in st to the saved one and returns the
// base URL the key is saved for (effective: the base shown when the
// environment supplies it). A masked key sent back with another base URL
// is refused (the message says why). An empty key whose stored one could
// not be read (unread) keeps it, bound where it was.
func (c *Catalog) keyBinding(st *Settings, effectiveBase string, unread bool) (keyBase, bad string) {
	s := &c.settings
	s.mu.Lock()
	savedKey, bound := s.saved["apiKey"], s.keyBoundLocked()
	s.mu.Unlock()
	if IsMasked(st.APIKey) {
		st.APIKey = savedKey
		if savedKey != "" && st.BaseURL != "" && !SameEndpoint(st.BaseURL, bound) {
			return "", keyMovedMessage(bound)
		}
		return bound, ""
	}
	if st.APIKey == "" && unread {
		return bound, ""
	}
	if st.APIKey == "" {
		return "", ""
	}
	if st.BaseURL != "" {
		return st.BaseURL, ""
	}
	return effectiveBase, ""
}

// StoredKeyFor is the stored key that may go to base: the default
// endpoint's (KeyedDefault) or a listed endpoint's with that base URL
// (and, when shown is a mask, the key it masks). ok is false when none.
func (c *Catalog) StoredKeyFor(ctx context.Context, base, shown string) (string, bool) {
	masked := IsMasked(shown)
	if dBase, key := c.KeyedDefault(); key != "" && SameEndpoint(base, dBase) && (!masked || MaskKey(key) == shown) {
		return key, true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.load(ctx); err != nil {
		return "", false
	}
	for _, e := range c.endpointsLocked() {
		if e.APIKey != "" && SameEndpoint(base, e.BaseURL) && (!masked || MaskKey(e.APIKey) == shown) {
			return e.APIKey, true
		}
	}
	return "", false
}

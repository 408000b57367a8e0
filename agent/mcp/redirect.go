package mcp

import (
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// The headers configured for an HTTP server (an Authorization token, an
// API key) go only to the origin of the configured URL: scheme, host and
// port. A redirect to another origin, or a legacy SSE server naming an
// endpoint elsewhere, gets the request without them.

// maxRedirects is how many redirects one request follows.
const maxRedirects = 10

// sameOrigin reports whether a and b have the same scheme, host and port
// (an omitted port is the scheme's default).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) &&
		portOf(a) == portOf(b)
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return "443"
	case "http":
		return "80"
	}
	return ""
}

// checkRedirect is the HTTP client's redirect policy: at most maxRedirects,
// and a redirect to another origin than the configured one carries none
// of the configured headers (headerTransport adds them only for that
// origin; this drops any the request was given by name).
func checkRedirect(configured *url.URL, headers map[string]string) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return errors.New("stopped after 10 redirects")
		}
		if configured == nil || !sameOrigin(configured, req.URL) {
			for k := range headers {
				req.Header.Del(k)
			}
		}
		return nil
	}
}

// configuredOrigin parses the configured URL; nil (no headers sent
// anywhere) when it does not parse.
func configuredOrigin(raw string) *url.URL {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	return u
}

// urlInText finds the URLs an error message quotes (Go's HTTP client
// quotes the request's URL, query included).
var urlInText = regexp.MustCompile(`(?i)\bhttps?://[^\s"'<>]+`)

// redactURLs rewrites every URL in msg as redactURL shows it: without
// user info, query or fragment, which may carry a token.
func redactURLs(msg string) string {
	return urlInText.ReplaceAllStringFunc(msg, func(u string) string {
		if !strings.ContainsAny(u, "?@#") {
			return u
		}
		return redactURL(u)
	})
}

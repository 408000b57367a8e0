package app

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/juncture-app/juncture/agent/mcp"
)

// The MCP sign-in's juncture:// redirect, juncture://oauth/callback?code=…
// &state=…&iss=…: the operating system hands it to Juncture like any
// juncture:// link; ParseSignInURL reads it (never fetched or run, only
// matched) and Service.SignInLink gives its answer to the sign-in waiting
// for its state. It is offered as a redirect only where the packages
// registered the scheme (SchemeRegistered).

// SchemeEnv is set to "registered" by the packages' launchers that
// register juncture:// (the Linux desktop entry, the macOS bundle): only
// then is the juncture:// redirect offered to an authorization server.
const SchemeEnv = "JUNCTURE_URL_SCHEME"

// SchemeRegistered reports whether the packaged launcher said the
// juncture:// scheme is registered.
func SchemeRegistered() bool { return os.Getenv(SchemeEnv) == "registered" }

func schemeRedirect(registered bool) string {
	if registered {
		return mcp.SchemeRedirectURI
	}
	return ""
}

// maxLinkLen is a launch link's budget (both link kinds).
const maxLinkLen = 2048

// signInKeys are the answer's parameters a sign-in reads; others (a
// server's session_state) are dropped, not passed on.
var signInKeys = []string{"code", "state", "iss", "error", "error_description"}

// ParseSignInURL reads a juncture://oauth/callback link: its answer's
// parameters, or ok=false for anything else (over 2,048 characters,
// another host or path, user info, a fragment, a repeated or empty
// state, a value with a control character).
func ParseSignInURL(raw string) (q url.Values, ok bool) {
	if len(raw) > maxLinkLen || strings.ContainsAny(raw, "\x00\r\n\t ") {
		return nil, false
	}
	u, err := url.Parse(raw)
	if err != nil || !strings.EqualFold(u.Scheme, URLScheme) || u.Opaque != "" || u.User != nil ||
		u.Host != "oauth" || u.Path != "/callback" || u.Fragment != "" || u.RawFragment != "" {
		return nil, false
	}
	all, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return nil, false
	}
	q = url.Values{}
	for _, k := range signInKeys {
		vs := all[k]
		if len(vs) > 1 {
			return nil, false
		}
		if len(vs) == 1 {
			if strings.ContainsFunc(vs[0], func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				return nil, false
			}
			q.Set(k, vs[0])
		}
	}
	if q.Get("state") == "" || (q.Get("code") == "") == (q.Get("error") == "") {
		return nil, false // an answer has a state and either a code or an error
	}
	return q, true
}

// SignInLinkArg finds a sign-in link among a second launch's arguments.
func SignInLinkArg(args []string) (url.Values, bool) {
	for _, a := range args {
		if q, ok := ParseSignInURL(a); ok {
			return q, true
		}
	}
	return nil, false
}

// ErrSignInLinkRefused: a sign-in link no waiting sign-in takes.
var ErrSignInLinkRefused = errors.New("app: this sign-in link is not one Juncture waits for")

// SignInLink gives a sign-in link's answer (ParseSignInURL's) to the MCP
// sign-in waiting for its state. A link while none waits, with an unknown
// state, or used before, is refused and changes nothing. The code is
// never logged.
func (s *Service) SignInLink(q url.Values) error {
	a := s.app
	if a.mcp == nil {
		return ErrSignInLinkRefused
	}
	if err := a.mcp.DeliverSignInLink(q); err != nil {
		if errors.Is(err, mcp.ErrNoSignInWaits) {
			a.log.Info("A juncture:// sign-in link no sign-in waits for was refused")
			return ErrSignInLinkRefused
		}
		return fmt.Errorf("taking the sign-in link: %w", err)
	}
	return nil
}

// Package links reads the juncture:// links Juncture is launched with.
//
// The operating system hands them over as a launch's arguments, a second
// launch's, or a macOS URL event: juncture://thread/<id> opens a chat,
// juncture://oauth/callback carries an MCP sign-in's answer. A link is
// never fetched or run, only matched, within 2,048 characters.
package links

import (
	"net/url"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"
)

// URLScheme is what the packages register Juncture for: juncture://thread/<id>
// opens that chat (an update's restart, a second launch, links from
// elsewhere); the MCP OAuth flow calls back on it too.
const URLScheme = "juncture"

// SchemeEnv is set to "registered" by the packages' launchers that
// register juncture:// (the Linux desktop entry, the macOS bundle): only
// then is the juncture:// redirect offered to an authorization server.
const SchemeEnv = "JUNCTURE_URL_SCHEME"

// SchemeRegistered reports whether the packaged launcher said the
// juncture:// scheme is registered.
func SchemeRegistered() bool { return os.Getenv(SchemeEnv) == "registered" }

// maxLinkLen is a launch link's budget (both link kinds).
const maxLinkLen = 2048

// ThreadURL is the link that opens a chat.
func ThreadURL(threadID string) string {
	return URLScheme + "://thread/" + url.PathEscape(threadID)
}

// ParseOpenURL reads a juncture:// link from a launch's arguments: the
// chat it opens, or ok=false for anything else (it is never fetched or
// run, only matched).
func ParseOpenURL(raw string) (threadID string, ok bool) {
	if len(raw) > maxLinkLen {
		return "", false
	}
	u, err := url.Parse(raw)
	if err != nil || !strings.EqualFold(u.Scheme, URLScheme) || u.Host != "thread" {
		return "", false
	}
	id, err := url.PathUnescape(strings.TrimPrefix(u.EscapedPath(), "/"))
	if err != nil || id == "" || strings.ContainsAny(id, "/\\\x00") || len(id) > 200 ||
		!utf8.ValidString(id) || strings.ContainsFunc(id, func(r rune) bool { return unicode.Is(unicode.C, r) }) {
		// Not UTF-8, or a control, format (bidi, zero-width) or private character: not an id.
		return "", false
	}
	return id, true
}

// OpenURLArg finds a juncture:// link among a launch's arguments.
func OpenURLArg(args []string) (threadID string, ok bool) {
	for _, a := range args {
		if id, ok := ParseOpenURL(a); ok {
			return id, true
		}
	}
	return "", false
}

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

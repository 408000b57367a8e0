package app

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// URLScheme is what the packages register Juncture for: juncture://thread/<id>
// opens that chat (an update's restart, a second launch, links from
// elsewhere); the MCP OAuth flow will call back on it too.
const URLScheme = "juncture"

// ThreadURL is the link that opens a chat.
func ThreadURL(threadID string) string {
	return URLScheme + "://thread/" + url.PathEscape(threadID)
}

// ParseOpenURL reads a juncture:// link from a launch's arguments: the
// chat it opens, or ok=false for anything else (it is never fetched or
// run, only matched).
func ParseOpenURL(raw string) (threadID string, ok bool) {
	if len(raw) > 2048 {
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

// SetLaunchThread keeps the chat a launch link asked for until the window
// takes it (TakeLaunchThread): the first launch's link arrives before the
// window listens.
func (s *Service) SetLaunchThread(threadID string) {
	s.app.linkMu.Lock()
	s.app.launchThread = threadID
	s.app.linkMu.Unlock()
}

// TakeLaunchThread returns, once, the chat a juncture:// link asked to
// open ("" when none).
func (a *App) TakeLaunchThread() string {
	a.linkMu.Lock()
	defer a.linkMu.Unlock()
	id := a.launchThread
	a.launchThread = ""
	return id
}

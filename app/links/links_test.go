package links

import (
	"strings"
	"testing"
)

// A sign-in link comes from anywhere (a web page can open juncture://
// links): only a juncture://oauth/callback with one state and a code or
// an error, within 2,048 characters, is read; only its answer's keys are
// passed on.
func TestParseSignInURLHostile(t *testing.T) {
	good := "juncture://oauth/callback?code=c1&state=s1&iss=https%3A%2F%2Fauth.example&session_state=x"
	q, ok := ParseSignInURL(good)
	if !ok || q.Get("code") != "c1" || q.Get("state") != "s1" || q.Get("iss") != "https://auth.example" || q.Has("session_state") {
		t.Fatalf("%s: %v %v", good, q, ok)
	}
	if q, ok := ParseSignInURL("JUNCTURE://oauth/callback?error=access_denied&state=s1"); !ok || q.Get("error") != "access_denied" {
		t.Fatalf("an error answer: %v %v", q, ok)
	}
	for _, raw := range []string{
		"juncture://oauth/callback?code=c1&state=s1&x=" + strings.Repeat("a", 2048),
		"juncture://oauth/callback?code=c1",                   // no state
		"juncture://oauth/callback?code=c1&state=",            // empty state
		"juncture://oauth/callback?state=s1",                  // neither code nor error
		"juncture://oauth/callback?code=c1&error=e&state=s1",  // both
		"juncture://oauth/callback?code=c1&state=s1&state=s2", // two states
		"juncture://oauth/callback?code=c1&code=c2&state=s1",  // two codes
		"juncture://oauth/callback?code=c1&state=s1%0A",       // a control character
		"juncture://oauth/callback?code=c1&state=s1#frag",     // a fragment
		"juncture://u:p@oauth/callback?code=c1&state=s1",      // user info
		"juncture://oauth/callback/x?code=c1&state=s1",        // another path
		"juncture://oauth/?code=c1&state=s1",                  // another path
		"juncture://thread/callback?code=c1&state=s1",         // another host
		"juncture://oauth:80/callback?code=c1&state=s1",       // a port
		"https://oauth/callback?code=c1&state=s1",             // another scheme
		"juncture:oauth/callback?code=c1&state=s1",            // opaque
		"juncture://oauth/callback?code=c1&state=s1%",         // bad escape
		"juncture://oauth/callback?code=c1;state=s1",          // ; is no separator
		" juncture://oauth/callback?code=c1&state=s1",         // a space
		"juncture://oauth/callback?code=c1&state=s1\x00",      // NUL
	} {
		if q, ok := ParseSignInURL(raw); ok {
			t.Errorf("%.80q accepted: %v", raw, q)
		}
	}
	if _, ok := ParseOpenURL(good); ok {
		t.Error("a sign-in link opens a chat")
	}
	if q, ok := SignInLinkArg([]string{"--flag", "juncture://thread/x", good}); !ok || q.Get("state") != "s1" {
		t.Errorf("SignInLinkArg: %v %v", q, ok)
	}
}

func TestParseOpenURL(t *testing.T) {
	for raw, want := range map[string]string{
		"juncture://thread/abc":       "abc",
		"JUNCTURE://thread/a%20b":     "a b",
		"juncture://thread/":          "",
		"juncture://settings/x":       "",
		"juncture://thread/../../etc": "",
		"https://thread/abc":          "",
		"juncture://thread/a%2Fb":     "",
		"--some-flag":                 "",
	} {
		id, ok := ParseOpenURL(raw)
		if id != want || ok != (want != "") {
			t.Errorf("%q → %q %v, want %q", raw, id, ok, want)
		}
	}
}

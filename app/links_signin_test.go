package app

import (
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/internal/oauthtest"
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

// A sign-in through the juncture:// redirect, end to end through the app
// against internal/oauthtest: the test plays the browser and hands the
// link over as a second launch would (SignInLinkArg, SignInLink); a link
// with an unknown state, or one used before, is refused; the code is not
// in the log.
func TestMCPSignInThroughJunctureLink(t *testing.T) {
	as := oauthtest.NewAS()
	defer as.Close()
	rs := oauthtest.NewRS(as)
	defer rs.Close()
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(cfgPath, []byte(`{"mcpServers":{"notes":{"url":"`+rs.URL+`","auth":{"type":"oauth"}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	svc := mustStart(t, Config{DataDir: dir, Mode: "browser", Getenv: func(string) string { return "" }, MCPConfigPath: cfgPath,
		Secrets: &memKeys{m: map[string]string{}}, SchemeRedirect: true, Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	defer stopService(t, svc)
	a := svc.app
	wait := func(what string, ok func(mcp.ServerStatus) bool) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			list, _ := a.ListMCPServers()
			for _, s := range list {
				if s.Name == "notes" && ok(s) {
					return
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("notes never %s: %+v", what, list)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	wait("asks for a sign-in", func(s mcp.ServerStatus) bool { return s.Auth != nil && s.Auth.State == mcp.AuthSignIn })
	if err := svc.SignInLink(url.Values{"state": {"none"}, "code": {"c"}}); !errors.Is(err, ErrSignInLinkRefused) {
		t.Fatalf("a link while no sign-in waits: %v", err)
	}
	si, err := a.SignInMCPServer("notes")
	if err != nil || si.URL == "" {
		t.Fatalf("SignInMCPServer = %+v, %v", si, err)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(si.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	link := resp.Header.Get("Location")
	if !strings.HasPrefix(link, "juncture://oauth/callback?") {
		t.Fatalf("the authorization server sent the browser to %q", link)
	}
	forged := strings.Replace(link, "state=", "state=x", 1)
	q, ok := SignInLinkArg([]string{forged})
	if !ok {
		t.Fatalf("%q not read", forged)
	}
	if err := svc.SignInLink(q); !errors.Is(err, ErrSignInLinkRefused) {
		t.Fatalf("an unknown state: %v", err)
	}
	q, ok = SignInLinkArg([]string{link})
	if !ok {
		t.Fatalf("%q not read", link)
	}
	if err := svc.SignInLink(q); err != nil {
		t.Fatalf("the link: %v", err)
	}
	wait("ready", func(s mcp.ServerStatus) bool { return s.Status == mcp.StatusReady })
	if err := svc.SignInLink(q); !errors.Is(err, ErrSignInLinkRefused) {
		t.Fatalf("a replayed link: %v", err)
	}
	if strings.Contains(logs.String(), q.Get("code")) {
		t.Error("the code is in the log")
	}
}

package app

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/app/links"
	"github.com/juncture-app/juncture/internal/testkit"
)

// A sign-in through the juncture:// redirect, end to end through the app
// against internal/oauthtest: the test plays the browser and hands the
// link over as a second launch would (SignInLinkArg, SignInLink); a link
// with an unknown state, or one used before, is refused; the code is not
// in the log.
func TestMCPSignInThroughJunctureLink(t *testing.T) {
	set := newSignInSetup(t, &testkit.Vault{})
	set.cfg.SchemeRedirect = true
	logs := set.logs
	svc := mustStart(t, set.cfg)
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
	q, ok := links.SignInLinkArg([]string{forged})
	if !ok {
		t.Fatalf("%q not read", forged)
	}
	if err := svc.SignInLink(q); !errors.Is(err, ErrSignInLinkRefused) {
		t.Fatalf("an unknown state: %v", err)
	}
	q, ok = links.SignInLinkArg([]string{link})
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

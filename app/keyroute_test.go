package app

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/app/config"
)

// neverSaw fails if any request the server received carried one of keys.
func neverSaw(t *testing.T, s *fakellm.Server, keys ...string) {
	t.Helper()
	for _, h := range s.Authorizations() {
		for _, k := range keys {
			if strings.Contains(h, k) {
				t.Errorf("the other endpoint received the key %q", k)
			}
		}
	}
}

// TestKeyGoesOnlyToItsEndpoint: two real endpoints on loopback; the key
// saved for the first never reaches the second, whatever URL is typed,
// whatever the environment says, through a redirect or an edited
// endpoint (issue 19, defect 11).
func TestKeyGoesOnlyToItsEndpoint(t *testing.T) {
	const (
		kA = "sk-first-endpoint-AAAA1111"
		kE = "sk-saved-endpoint-EEEE2222"
		kR = "sk-redirected-RRRR3333"
	)
	first, second := fakellm.Start(t), fakellm.Start(t)
	answerAll(first, "from first")
	answerAll(second, "from second")
	f := newFixture(t, map[string]string{})
	a := f.svc.App()
	if _, err := a.SaveSettings(Settings{BaseURL: first.URL, APIKey: kA, Model: "fake-model", LoopGuard: 25, Theme: "system"}); err != nil {
		t.Fatal(err)
	}
	// Control: the key does go to its own endpoint.
	if r := a.TestConnection(Settings{BaseURL: first.URL, APIKey: config.MaskKey(kA)}); !r.OK {
		t.Fatalf("own endpoint: %+v", r)
	}
	if got := first.Authorizations(); len(got) == 0 || got[len(got)-1] != "Bearer "+kA {
		t.Fatalf("the first endpoint did not get its key: %q", got)
	}

	t.Run("test connection, masked key, other URL", func(t *testing.T) {
		r := a.TestConnection(Settings{BaseURL: second.URL, APIKey: config.MaskKey(kA)})
		if r.OK || !strings.Contains(r.Message, "type the key") {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("test connection, empty key, other URL", func(t *testing.T) {
		if r := a.TestConnection(Settings{BaseURL: second.URL}); !r.OK {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("test connection, same host other port or path", func(t *testing.T) {
		a.TestConnection(Settings{BaseURL: strings.Replace(second.URL, "/v1", "/v1/", 1), APIKey: config.MaskKey(kA)})
		a.TestConnection(Settings{BaseURL: strings.TrimSuffix(first.URL, "/v1") + "/other", APIKey: config.MaskKey(kA)})
	})
	t.Run("general settings, masked key, other URL", func(t *testing.T) {
		_, err := a.SaveSettings(Settings{BaseURL: second.URL, APIKey: config.MaskKey(kA), Model: "fake-model", LoopGuard: 25, Theme: "system"})
		var e *Error
		if !errors.As(err, &e) || e.Details["apiKey"] == "" {
			t.Fatalf("saved: %v", err)
		}
		// Another setting saved with the key as shown keeps both.
		if _, err := a.SaveSettings(Settings{BaseURL: first.URL, APIKey: config.MaskKey(kA), Model: "fake-model", LoopGuard: 25, Theme: "dark"}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("saved endpoint, masked key, edited URL", func(t *testing.T) {
		e, err := a.SaveEndpoint(Endpoint{Name: "Saved", BaseURL: first.URL, APIKey: kE, Models: []string{"fake-model"}})
		if err != nil {
			t.Fatal(err)
		}
		e.BaseURL = second.URL
		if _, err := a.SaveEndpoint(e); err == nil {
			t.Fatal("the masked key moved to another URL")
		}
		if _, err := a.ListModels(e.ID); err != nil {
			t.Fatal(err)
		}
		if r := a.TestConnection(Settings{BaseURL: second.URL, APIKey: e.APIKey}); r.OK {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("redirect to another port", func(t *testing.T) {
		redir := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, second.URL+"/models", http.StatusTemporaryRedirect)
		}))
		defer redir.Close()
		e, err := a.SaveEndpoint(Endpoint{Name: "Redirects", BaseURL: redir.URL + "/v1", APIKey: kR, Models: []string{"fake-model"}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.ListModels(e.ID); err == nil {
			t.Fatal("the redirect was followed")
		}
		a.TestConnection(Settings{BaseURL: redir.URL + "/v1", APIKey: kR})
		th, err := a.NewThread("")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.SetThreadOptions(th.ID, ThreadOptionsInput{EndpointID: ptr(e.ID), Model: ptr("fake-model")}); err != nil {
			t.Fatal(err)
		}
		if _, err := a.SendInput(th.ID, "through a redirect", nil); err != nil {
			t.Fatal(err)
		}
		f.waitIdle(th.ID)
	})
	f.stop()

	t.Run("OPENAI_BASE_URL elsewhere", func(t *testing.T) {
		f.start(map[string]string{"OPENAI_BASE_URL": second.URL, "JUNCTURE_MODEL": "fake-model", "JUNCTURE_WORKSPACE": t.TempDir()})
		a := f.svc.App()
		r, err := a.SendInput("", "to the environment's endpoint", nil)
		if err != nil {
			t.Fatal(err)
		}
		f.waitIdle(r.ThreadID)
		if len(userRequests(second, "to the environment's endpoint")) == 0 {
			t.Fatalf("the environment's endpoint got no call: %s", describe(second.Requests()))
		}
		if _, err := a.ListModels(""); err != nil {
			t.Fatal(err)
		}
		a.TestConnection(Settings{})
		a.TestConnection(Settings{APIKey: a.GetSettings().Settings.APIKey})
		// A save of another setting keeps the key (saved for first).
		if _, err := a.SaveSettings(Settings{APIKey: a.GetSettings().Settings.APIKey, Model: "fake-model", LoopGuard: 25, Theme: "light"}); err != nil {
			t.Fatal(err)
		}
		f.stop()
	})
	neverSaw(t, second, kA, kE, kR)
	// The key is still there for its own endpoint (the save above, with
	// the environment's URL, left the saved URL empty as it always did).
	f.start(map[string]string{"JUNCTURE_WORKSPACE": t.TempDir()})
	if _, err := f.svc.App().SaveSettings(Settings{BaseURL: first.URL, APIKey: config.MaskKey(kA), Model: "fake-model", LoopGuard: 25, Theme: "system"}); err != nil {
		t.Fatal(err)
	}
	f.fake = first
	f.checkKeyUsed(kA)
}

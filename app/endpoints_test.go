package app

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/app/config"
)

// answerAll makes a fake server answer every request (titles included)
// with text.
func answerAll(s *fakellm.Server, text string) {
	s.SetFallback(func(fakellm.Request) fakellm.Response { return fakellm.Reply(fakellm.Text(text)) })
}

// endpointWithID finds an endpoint of a list by id.
func endpointWithID(list []Endpoint, id string) (Endpoint, bool) {
	for _, e := range list {
		if e.ID == id {
			return e, true
		}
	}
	return Endpoint{}, false
}

// describe says which model each request asked for, and with what.
func describe(reqs []fakellm.Request) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d request(s)", len(reqs))
	for _, r := range reqs {
		fmt.Fprintf(&b, "; model %q, last %q", r.Model, r.LastUser())
	}
	return b.String()
}

func (f *fixture) endpoints() []Endpoint {
	f.t.Helper()
	var list []Endpoint
	if e := f.call(&list, "ListEndpoints"); e != nil {
		f.t.Fatal(e)
	}
	return list
}

func (f *fixture) saveEndpoint(e Endpoint) Endpoint {
	f.t.Helper()
	var out Endpoint
	if err := f.call(&out, "SaveEndpoint", e); err != nil {
		f.t.Fatalf("SaveEndpoint %+v: %+v", e, err)
	}
	return out
}

// userRequests are the requests of a fake server that answer text (not
// title requests).
func userRequests(s *fakellm.Server, text string) []fakellm.Request {
	var out []fakellm.Request
	for _, r := range s.Requests() {
		if !isTitleRequest(r) && r.LastUser() == text {
			out = append(out, r)
		}
	}
	return out
}

func TestEndpointsListWhereEachComesFrom(t *testing.T) {
	local := fakellm.Start(t)
	local.SetModels("llama3.2", "qwen3")
	saved := localServers
	localServers = []config.Provider{{ID: "ollama", Name: "Ollama", URL: local.URL}, {ID: "lmstudio", Name: "LM Studio", URL: "http://127.0.0.1:1/v1"}}
	defer func() { localServers = saved }()

	cases := []struct {
		name        string
		env         map[string]string
		wantIDs     []string
		wantDefault string
	}{
		{"environment and a detected server", nil, []string{"env", "ollama"}, "env"},
		{"nothing configured: the detected server", map[string]string{}, []string{"ollama"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixtureWith(t, tc.env, map[string]string{"OPENAI_API_KEY": "sk-environment-key-4321"})
			list := f.endpoints()
			var ids []string
			for _, e := range list {
				ids = append(ids, e.ID)
				if e.APIKey != "" && !strings.HasPrefix(e.APIKey, "••••") {
					t.Errorf("%s: key not masked: %q", e.ID, e.APIKey)
				}
				if e.IsDefault != (e.ID == tc.wantDefault) {
					t.Errorf("%s: isDefault %v, want the default %q", e.ID, e.IsDefault, tc.wantDefault)
				}
			}
			if strings.Join(ids, ",") != strings.Join(tc.wantIDs, ",") {
				t.Fatalf("endpoints %v, want %v", ids, tc.wantIDs)
			}
			o, _ := endpointWithID(list, "ollama")
			if o.Source != config.EndpointDetected || o.BaseURL != local.URL || o.DefaultModel != "llama3.2" || len(o.Models) != 2 {
				t.Fatalf("detected endpoint %+v", o)
			}
			if e, ok := endpointWithID(list, "env"); ok {
				if e.Source != config.EndpointEnvironment || e.BaseURL != f.fake.URL || e.APIKey != "••••4321" || e.DefaultModel != "fake-model" {
					t.Fatalf("environment endpoint %+v", e)
				}
			}
			var models []string
			if e := f.call(&models, "ListModels", "ollama"); e != nil || strings.Join(models, ",") != "llama3.2,qwen3" {
				t.Fatalf("ListModels(ollama) = %v, %+v", models, e)
			}
			for _, id := range []string{"env", "ollama", "lmstudio"} {
				if e := f.call(nil, "DeleteEndpoint", id); e == nil || e.Code != CodeInvalidArgument {
					t.Errorf("DeleteEndpoint(%s) = %+v, want refused", id, e)
				}
			}
		})
	}
}

func TestSaveEndpointValidatesLikeSettings(t *testing.T) {
	f := newFixture(t, nil)
	cases := []struct {
		name  string
		in    Endpoint
		field string
	}{
		{"no URL", Endpoint{Name: "x"}, "baseUrl"},
		{"not a URL", Endpoint{Name: "x", BaseURL: "localhost:11434"}, "baseUrl"},
		{"ftp", Endpoint{Name: "x", BaseURL: "ftp://example.com/v1"}, "baseUrl"},
		{"negative price", Endpoint{Name: "x", BaseURL: "http://127.0.0.1:9/v1", Prices: map[string]ModelPrice{"m": {InputPerMTok: -1}}}, "prices"},
		{"price without a model", Endpoint{Name: "x", BaseURL: "http://127.0.0.1:9/v1", Prices: map[string]ModelPrice{" ": {InputPerMTok: 1}}}, "prices"},
		{"long name", Endpoint{Name: strings.Repeat("n", 101), BaseURL: "http://127.0.0.1:9/v1"}, "name"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := f.call(nil, "SaveEndpoint", tc.in)
			if e == nil || e.Code != CodeInvalidSettings || e.Details[tc.field] == "" {
				t.Fatalf("SaveEndpoint(%+v) = %+v, want a %s error", tc.in, e, tc.field)
			}
		})
	}
	if e := f.call(nil, "SaveEndpoint", Endpoint{ID: "endpoint-missing", BaseURL: "http://127.0.0.1:9/v1"}); e == nil || e.Code != CodeNotFound {
		t.Fatalf("saving a missing endpoint: %+v", e)
	}
	// No name: named after its host. Models are trimmed and deduplicated.
	got := f.saveEndpoint(Endpoint{BaseURL: " http://127.0.0.1:9/v1 ", Models: []string{" a ", "a", "", "b"},
		Prices: map[string]ModelPrice{"a": {InputPerMTok: 0.5, OutputPerMTok: 1.5}, "b": {}}})
	if got.Name != "127.0.0.1:9" || got.BaseURL != "http://127.0.0.1:9/v1" || strings.Join(got.Models, ",") != "a,b" ||
		got.Source != config.EndpointSaved || got.ID == "" || got.DefaultModel != "a" {
		t.Fatalf("saved %+v", got)
	}
	if len(got.Prices) != 1 || got.Prices["a"].OutputPerMTok != 1.5 {
		t.Fatalf("prices %+v (a zero price is no price)", got.Prices)
	}
	// The environment's endpoint takes prices, nothing else.
	env := f.saveEndpoint(Endpoint{ID: "env", Name: "renamed", BaseURL: "http://evil.example/v1", Prices: map[string]ModelPrice{"fake-model": {InputPerMTok: 2, OutputPerMTok: 8}}})
	if env.BaseURL != f.fake.URL || env.Name == "renamed" || env.Prices["fake-model"].OutputPerMTok != 8 {
		t.Fatalf("environment endpoint after a save: %+v", env)
	}
}

// Keys are stored, used and never sent back: every answer masks them, a
// masked key saved back keeps the stored one, and the endpoint gets the
// real one.
func TestEndpointKeysAreMaskedAndKept(t *testing.T) {
	f := newFixture(t, nil)
	second := fakellm.Start(t)
	answerAll(second, "From the second endpoint.")
	const key = "sk-second-secret-9876"
	ep := f.saveEndpoint(Endpoint{Name: "Second", BaseURL: second.URL, APIKey: key, Models: []string{"model-x"}})
	if ep.APIKey != "••••9876" {
		t.Fatalf("saved key came back as %q", ep.APIKey)
	}
	ep.Name = "Second (renamed)"
	ep = f.saveEndpoint(ep) // the masked key goes back
	for _, method := range []string{"ListEndpoints", "ListPresets", "GetSettings"} {
		resp := f.request("POST", "/api/call/"+method, []any{}, nil)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(body), key) || strings.Contains(string(body), "second-secret") {
			t.Fatalf("%s sent the key: %s", method, body)
		}
	}
	var th struct{ ID string }
	f.must(&th, "NewThread", "")
	f.must(nil, "SetThreadOptions", th.ID, map[string]any{"endpointId": ep.ID})
	f.must(nil, "SendInput", th.ID, "hello second")
	f.waitIdle(th.ID)
	reqs := userRequests(second, "hello second")
	if len(reqs) != 1 || reqs[0].Header.Get("Authorization") != "Bearer "+key || reqs[0].Model != "model-x" {
		t.Fatalf("requests at the second endpoint: %s", describe(reqs))
	}
	// A new key replaces it; an empty one clears it.
	ep.APIKey = "sk-new-key-1111"
	if got := f.saveEndpoint(ep); got.APIKey != "••••1111" {
		t.Fatalf("new key: %q", got.APIKey)
	}
	ep.APIKey = ""
	if got := f.saveEndpoint(ep); got.APIKey != "" {
		t.Fatalf("cleared key: %q", got.APIKey)
	}
}

// A base URL saved in Settings → General (before endpoints existed)
// becomes a saved endpoint named after its host, the default; making
// another endpoint the default is what General then shows.
func TestSavedSettingsBecomeTheDefaultEndpoint(t *testing.T) {
	f := newFixture(t, map[string]string{})
	f.must(nil, "SaveSettings", Settings{BaseURL: f.fake.URL, APIKey: "sk-general-1234", Model: "fake-model", LoopGuard: 25, Theme: "system", EnableWriteTools: true})
	list := f.endpoints()
	if len(list) != 1 {
		t.Fatalf("endpoints %+v", list)
	}
	first := list[0]
	if first.Source != config.EndpointSaved || !first.IsDefault || first.BaseURL != f.fake.URL || first.APIKey != "••••1234" ||
		first.DefaultModel != "fake-model" || !strings.HasPrefix(first.Name, "127.0.0.1:") {
		t.Fatalf("migrated endpoint %+v", first)
	}
	if again := f.endpoints(); len(again) != 1 || again[0].ID != first.ID {
		t.Fatalf("listing again made another endpoint: %+v", again)
	}
	var v SettingsView
	f.call(&v, "GetSettings")
	if v.Settings.BaseURL != f.fake.URL || v.Settings.Model != "fake-model" || v.Sources["baseUrl"] != SourceSaved {
		t.Fatalf("settings after the migration: %+v", v)
	}

	second := fakellm.Start(t)
	second.SetModels("model-y", "model-z")
	ep := f.saveEndpoint(Endpoint{Name: "Second", BaseURL: second.URL, APIKey: "sk-second-5555", Models: []string{"model-y"}, IsDefault: true})
	if !ep.IsDefault || ep.DefaultModel != "model-y" {
		t.Fatalf("new default %+v", ep)
	}
	f.call(&v, "GetSettings")
	if v.Settings.BaseURL != second.URL || v.Settings.Model != "model-y" || v.Settings.APIKey != "••••5555" {
		t.Fatalf("General after making Second the default: %+v", v.Settings)
	}
	var st Status
	if f.call(&st, "Status"); st.Endpoint != second.URL || st.Model != "model-y" || !st.Configured {
		t.Fatalf("status %+v", st)
	}
	list = f.endpoints()
	if a, _ := endpointWithID(list, first.ID); a.IsDefault || a.BaseURL != f.fake.URL {
		t.Fatalf("old default after the switch: %+v", a)
	}
	// What General saves shows on the default endpoint.
	v.Settings.Model = "model-z"
	f.must(&v, "SaveSettings", v.Settings)
	if b, _ := endpointWithID(f.endpoints(), ep.ID); !b.IsDefault || b.DefaultModel != "model-z" || b.APIKey != "••••5555" {
		t.Fatalf("default endpoint after General saved: %+v", b)
	}
	// Deleting the default clears General's endpoint.
	f.must(nil, "DeleteEndpoint", ep.ID)
	if f.call(&st, "Status"); st.Configured || st.Endpoint != "" {
		t.Fatalf("status after deleting the default: %+v", st)
	}
	if e := f.call(nil, "DeleteEndpoint", ep.ID); e == nil || e.Code != CodeNotFound {
		t.Fatalf("deleting twice: %+v", e)
	}
}

// A chat whose endpoint is deleted runs with the default endpoint and
// model from its next model call.
func TestDeletedEndpointFallsBackToTheDefault(t *testing.T) {
	f := newFixture(t, nil)
	answerAll(f.fake, "From the default.")
	second := fakellm.Start(t)
	answerAll(second, "From the second.")
	ep := f.saveEndpoint(Endpoint{Name: "Second", BaseURL: second.URL, Models: []string{"model-x"}})
	var th struct{ ID string }
	f.call(&th, "NewThread", "")
	f.must(nil, "SetThreadOptions", th.ID, ThreadOptionsInput{EndpointID: &ep.ID})
	f.call(nil, "SendInput", th.ID, "before")
	f.waitIdle(th.ID)
	f.must(nil, "DeleteEndpoint", ep.ID)
	f.call(nil, "SendInput", th.ID, "after")
	f.waitIdle(th.ID)
	if r := userRequests(second, "before"); len(r) != 1 || r[0].Model != "model-x" {
		t.Fatalf("before the delete: %s", describe(r))
	}
	if r := userRequests(second, "after"); len(r) != 0 {
		t.Fatalf("the deleted endpoint was asked: %s", describe(r))
	}
	if r := userRequests(f.fake, "after"); len(r) != 1 || r[0].Model != "fake-model" {
		t.Fatalf("after the delete, at the default: %s", describe(r))
	}
	// The thread keeps naming the endpoint (the header says it is gone).
	var v ThreadView
	if f.call(&v, "GetThread", th.ID); v.Thread.Options.EndpointID != ep.ID {
		t.Fatalf("options %+v", v.Thread.Options)
	}
}

func TestListModelsSaysWhyItFailed(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.SetModels("fake-model", "other-model")
	dead := f.saveEndpoint(Endpoint{Name: "Dead", BaseURL: "http://127.0.0.1:1/v1"})
	cases := []struct {
		id, code, want string
	}{
		{"", "", "fake-model,other-model"},
		{"env", "", "fake-model,other-model"},
		{dead.ID, CodeUnavailable, "Could not list the models of Dead"},
		{"endpoint-nope", CodeNotFound, "no longer exists"},
	}
	for _, tc := range cases {
		var models []string
		start := time.Now()
		e := f.call(&models, "ListModels", tc.id)
		if time.Since(start) > 12*time.Second {
			t.Errorf("ListModels(%q) took %v", tc.id, time.Since(start))
		}
		switch {
		case tc.code == "" && (e != nil || strings.Join(models, ",") != tc.want):
			t.Errorf("ListModels(%q) = %v, %+v", tc.id, models, e)
		case tc.code != "" && (e == nil || e.Code != tc.code || !strings.Contains(e.Message, tc.want)):
			t.Errorf("ListModels(%q) error %+v, want %s %q", tc.id, e, tc.code, tc.want)
		}
	}
}

// TestSettingsViewCarriesTheProviders: the window's menus of well-known
// servers come from Go's one list, through GetSettings.
func TestSettingsViewCarriesTheProviders(t *testing.T) {
	f := newFixture(t, nil)
	var v SettingsView
	f.must(&v, "GetSettings")
	want := config.Providers()
	if len(v.Providers) != len(want) {
		t.Fatalf("providers %+v, want %+v", v.Providers, want)
	}
	for i := range want {
		if v.Providers[i] != want[i] {
			t.Fatalf("provider %d: %+v, want %+v", i, v.Providers[i], want[i])
		}
	}
}

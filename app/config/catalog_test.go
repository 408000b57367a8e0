package config

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/juncture-app/juncture/app/secrets"
	"github.com/juncture-app/juncture/store"
)

// newCatalog is a catalog over a real database and a key file in a temp
// dir: no app is started.
func newCatalog(t *testing.T, env map[string]string, local ...Provider) (*Catalog, *store.DB, secrets.Store) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, filepath.Join(dir, "juncture.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	st := secrets.NewFileStore(filepath.Join(dir, "secrets.json"))
	return openCatalog(t, db, st, env, local...), db, st
}

func openCatalog(t *testing.T, db *store.DB, st secrets.Store, env map[string]string, local ...Provider) *Catalog {
	t.Helper()
	ctx := context.Background()
	v, err := secrets.Open(ctx, db, st, secrets.KeyStorage{Kind: "file"}, true, slog.Default())
	if err != nil {
		t.Fatal(err)
	}
	if local == nil {
		local = []Provider{}
	}
	c := New(Options{Rows: db, Keys: v, Getenv: func(k string) string { return env[k] }, Writable: true, Local: local})
	if err := c.LoadSettings(ctx); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestValidateEndpointChecksTheURLItself(t *testing.T) {
	cases := []struct {
		name, base, wantField string
	}{
		{"empty", "", "baseUrl"},
		{"no scheme", "localhost:11434", "baseUrl"},
		{"ftp", "ftp://example.com/v1", "baseUrl"},
		{"no host", "http:///v1", "baseUrl"},
		{"http", "http://127.0.0.1:11434/v1", ""},
		{"https", " https://api.openai.com/v1 ", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := Endpoint{BaseURL: tc.base}
			bad := validateEndpoint(&e)
			if tc.wantField == "" && len(bad) != 0 || tc.wantField != "" && bad[tc.wantField] == "" {
				t.Fatalf("validateEndpoint(%q) = %v, want a message for %q", tc.base, bad, tc.wantField)
			}
			if tc.wantField == "" && e.Name != hostName(strings.TrimSpace(tc.base)) {
				t.Fatalf("name %q, want the host", e.Name)
			}
		})
	}
}

func TestProvidersAreListedOnce(t *testing.T) {
	ids := []string{}
	for _, p := range Providers() {
		ids = append(ids, p.ID)
		if CheckBaseURL(p.URL) != "" || p.Label == "" || p.Name == "" {
			t.Fatalf("provider %+v", p)
		}
	}
	if strings.Join(ids, ",") != "openai,ollama,lmstudio,openrouter" {
		t.Fatalf("providers %v", ids)
	}
	local := LocalProviders()
	if len(local) != 2 || local[0].ID != "ollama" || local[1].ID != "lmstudio" {
		t.Fatalf("local providers %+v", local)
	}
	Providers()[0].URL = "changed"
	if Providers()[0].URL == "changed" {
		t.Fatal("Providers hands out the list itself")
	}
}

func TestLocalProbeIsReusedWithinItsTTL(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"llama3.2","object":"model"}]}`))
	}))
	defer srv.Close()
	c, _, _ := newCatalog(t, nil, Provider{ID: "ollama", Name: "Ollama", URL: srv.URL + "/v1", Local: true},
		Provider{ID: "lmstudio", Name: "LM Studio", URL: "http://127.0.0.1:1/v1", Local: true})
	ctx := context.Background()
	list, err := c.ListEndpoints(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != "ollama" || list[0].Source != EndpointDetected || list[0].DefaultModel != "llama3.2" {
		t.Fatalf("endpoints %+v", list)
	}
	if _, err := c.ListEndpoints(ctx); err != nil {
		t.Fatal(err)
	}
	if n := hits.Load(); n != 1 {
		t.Fatalf("probed %d times within the TTL, want 1", n)
	}
	c.ProbeLocal(ctx, true)
	if n := hits.Load(); n != 2 {
		t.Fatalf("a forced probe: %d hits, want 2", n)
	}
	if e, ok, err := c.EndpointByID(ctx, "lmstudio"); err != nil || !ok || e.BaseURL != "http://127.0.0.1:1/v1" {
		t.Fatalf("a local server that did not answer is still found: %+v %v %v", e, ok, err)
	}
}

func TestSavedEndpointKeyGoesToTheVaultOnly(t *testing.T) {
	c, db, st := newCatalog(t, nil)
	ctx := context.Background()
	const key = "sk-config-test-9876"
	saved, err := c.SaveEndpoint(ctx, Endpoint{Name: "Mine", BaseURL: "http://127.0.0.1:9/v1", APIKey: key, Models: []string{" m ", "m"}})
	if err != nil {
		t.Fatal(err)
	}
	if saved.APIKey != MaskKey(key) || len(saved.Models) != 1 || saved.Source != EndpointSaved {
		t.Fatalf("saved %+v", saved)
	}
	rows, err := db.Settings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(rows)
	if strings.Contains(string(b), key) {
		t.Fatalf("the settings table holds the key: %s", b)
	}
	// A fresh catalog over the same database and key file finds it.
	again := openCatalog(t, db, st, nil)
	e, ok, err := again.EndpointByID(ctx, saved.ID)
	if err != nil || !ok || e.APIKey != key {
		t.Fatalf("reloaded %+v %v %v", e, ok, err)
	}
	var ce *Error
	if err := again.DeleteEndpoint(ctx, EndpointEnvID); !asConfigError(err, &ce) || ce.Kind != Refused {
		t.Fatalf("deleting the environment's endpoint: %v", err)
	}
	if _, err := again.SaveEndpoint(ctx, Endpoint{ID: "endpoint-gone", BaseURL: "http://127.0.0.1:9/v1"}); !asConfigError(err, &ce) || ce.Kind != NotFound {
		t.Fatalf("saving a missing endpoint: %v", err)
	}
	if _, err := again.SaveEndpoint(ctx, Endpoint{BaseURL: "localhost:1"}); !asConfigError(err, &ce) || ce.Kind != Invalid || ce.Fields["baseUrl"] == "" {
		t.Fatalf("saving a bad URL: %v", err)
	}
}

func asConfigError(err error, target **Error) bool {
	return errors.As(err, target)
}

package app

import (
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/juncture-app/juncture/app/config"
	"github.com/juncture-app/juncture/app/secrets"
)

// flakyStore is a secrets.Store in memory whose reads can fail, as a
// locked or absent keychain does; it records every delete.
type flakyStore struct {
	mu        sync.Mutex
	m         map[string]string
	failReads bool
	deleted   []string
}

func (s *flakyStore) Get(account string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failReads {
		return "", errors.New("the keychain is locked")
	}
	v, ok := s.m[account]
	if !ok {
		return "", secrets.ErrNotFound
	}
	return v, nil
}

func (s *flakyStore) Set(account, secret string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[account] = secret
	return nil
}

func (s *flakyStore) Delete(account string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deleted = append(s.deleted, account)
	delete(s.m, account)
	return nil
}

func (s *flakyStore) holds(secret string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.m {
		if v == secret {
			return true
		}
	}
	return false
}

// TestUnreadableKeyIsKept: when the key storage cannot be read at start,
// Settings says so (not "no key"), and saving other settings, an
// endpoint's name or General keeps every stored key (issue 19, defect 13).
func TestUnreadableKeyIsKept(t *testing.T) {
	const (
		key  = "sk-general-unread-GGGG1111"
		eKey = "sk-endpoint-unread-EEEE2222"
	)
	f := newFixture(t, map[string]string{})
	f.stop()
	st := &flakyStore{m: map[string]string{}}
	dir := f.dir
	start := func() *Service {
		return mustStart(t, Config{DataDir: dir, Mode: "browser", Secrets: st,
			Getenv: func(k string) string { return map[string]string{"JUNCTURE_WORKSPACE": t.TempDir()}[k] }, MCPConfigPath: filepath.Join(dir, "mcp.json")})
	}
	svc := start()
	a := svc.App()
	if _, err := a.SaveSettings(Settings{BaseURL: f.fake.URL, APIKey: key, Model: "fake-model", LoopGuard: 25, Theme: "system"}); err != nil {
		t.Fatal(err)
	}
	ep, err := a.SaveEndpoint(Endpoint{Name: "Other", BaseURL: "http://127.0.0.1:1/v1", APIKey: eKey, Models: []string{"m"}})
	if err != nil {
		t.Fatal(err)
	}
	stopService(t, svc)

	st.failReads = true
	svc = start()
	a = svc.App()
	v := a.GetSettings()
	if v.KeyState != KeyUnavailable || v.Settings.APIKey != "" {
		t.Fatalf("settings with an unreadable key: state %q key %q", v.KeyState, v.Settings.APIKey)
	}
	eps, err := a.ListEndpoints()
	if err != nil {
		t.Fatal(err)
	}
	got, _ := endpointWithID(eps, ep.ID)
	if got.KeyState != KeyUnavailable || got.APIKey != "" {
		t.Fatalf("endpoint with an unreadable key: %+v", got)
	}
	// Saves as the window sends them: the key field as shown (empty).
	v.Settings.Theme = "dark"
	if _, err := a.SaveSettings(v.Settings); err != nil {
		t.Fatal(err)
	}
	got.Name = "Renamed"
	if _, err := a.SaveEndpoint(got); err != nil {
		t.Fatal(err)
	}
	moved := got
	moved.BaseURL = "http://127.0.0.1:2/v1"
	if _, err := a.SaveEndpoint(moved); err == nil {
		t.Fatal("an endpoint whose key could not be read moved to another URL")
	}
	stopService(t, svc)
	if len(st.deleted) > 0 || !st.holds(key) || !st.holds(eKey) {
		t.Fatalf("a save deleted a key it could not read: deleted %v", st.deleted)
	}

	st.failReads = false
	svc = start()
	a = svc.App()
	if v := a.GetSettings(); v.KeyState != "" || v.Settings.APIKey != config.MaskKey(key) || v.Settings.Theme != "dark" {
		t.Fatalf("after the storage is back: %+v", v)
	}
	eps, _ = a.ListEndpoints()
	if e, _ := endpointWithID(eps, ep.ID); e.APIKey != config.MaskKey(eKey) || e.Name != "Renamed" {
		t.Fatalf("endpoint after the storage is back: %+v", e)
	}
	stopService(t, svc)
}

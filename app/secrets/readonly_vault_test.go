package secrets

import (
	"context"
	"log/slog"
	"maps"
	"testing"
)

// recordingStore is a map store that counts every write.
type recordingStore struct {
	m      map[string]string
	writes int
}

func (r *recordingStore) Get(a string) (string, error) {
	s, ok := r.m[a]
	if !ok {
		return "", ErrNotFound
	}
	return s, nil
}
func (r *recordingStore) Set(a, s string) error { r.writes++; r.m[a] = s; return nil }
func (r *recordingStore) Delete(a string) error { r.writes++; delete(r.m, a); return nil }

type rowsOf map[string]string

func (r rowsOf) Settings(context.Context) (map[string]string, error) { return maps.Clone(r), nil }
func (r rowsOf) SaveSettings(context.Context, map[string]string) error {
	panic("a read-only copy saved its settings")
}
func (r rowsOf) Path() string { return "" }

// TestVaultOpenedNotWritableNeverWritesTheStore: a read-only copy of
// damaged data shares the person's key storage (the same vault id, the
// same accounts). What runs in it (an MCP server's token refresh, a
// revoked grant's clean-up, a client-credentials token) may keep a value
// for the session, but the person's storage is never written or deleted.
func TestVaultOpenedNotWritableNeverWritesTheStore(t *testing.T) {
	st := &recordingStore{m: map[string]string{"db/mcp/oauth/x/token/y": "stored", "db/setting:apiKey": "sk"}}
	before := maps.Clone(st.m)
	v, err := Open(context.Background(), rowsOf{KeyVaultID: "db"}, st, KeyStorage{Kind: "custom"}, false, slog.Default())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		op   func() error
	}{
		{"a refreshed token", func() error { return v.Set("mcp/oauth/x/token/y", "refreshed") }},
		{"a new token", func() error { return v.Set("mcp/oauth/z/client", "new") }},
		{"a revoked grant", func() error { return v.Delete("setting:apiKey") }},
		{"an emptied key", func() error { return v.Set("mcp/oauth/x/token/y", "") }},
	} {
		if err := tc.op(); err != nil {
			t.Errorf("%s: %v (the session keeps it in memory)", tc.name, err)
		}
		if st.writes != 0 || !maps.Equal(st.m, before) {
			t.Fatalf("%s wrote the person's key storage: %v", tc.name, st.m)
		}
	}
	if got, _ := v.Get("mcp/oauth/z/client"); got != "new" {
		t.Errorf("the session lost what it kept: %q", got)
	}
	if got, _ := v.Get("setting:apiKey"); got != "" {
		t.Errorf("a deleted key still reads %q in the session", got)
	}
}

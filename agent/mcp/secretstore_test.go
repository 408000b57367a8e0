package mcp

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// memSecrets is a secret store in memory.
type memSecrets map[string]string

func (m memSecrets) put(account, secret string) error { m[account] = secret; return nil }

func (m memSecrets) get(account string) (string, error) {
	v, ok := m[account]
	if !ok {
		return "", errors.New("not stored")
	}
	return v, nil
}

// Header values and secret-looking env values move to the store and come
// back from their references; everything else stays in the file.
func TestExtractAndResolveSecrets(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		in        ServerConfig
		wantRefs  map[string]string // header/env name → reference in the file
		wantClear map[string]string // values kept in the file
	}{
		{"header", ServerConfig{URL: "https://x/mcp", Headers: map[string]string{"Authorization": "Bearer sk-1"}},
			map[string]string{"Authorization": "${keychain:mcp/s/header/Authorization}"}, nil},
		{"env", ServerConfig{Command: "npx", Env: map[string]string{"GITHUB_TOKEN": "ghp_2", "LOG_LEVEL": "debug"}},
			map[string]string{"GITHUB_TOKEN": "${keychain:mcp/s/env/GITHUB_TOKEN}"}, map[string]string{"LOG_LEVEL": "debug"}},
		{"already a reference", ServerConfig{Command: "npx", Env: map[string]string{"API_KEY": "${keychain:elsewhere}"}},
			map[string]string{"API_KEY": "${keychain:elsewhere}"}, nil},
		{"empty and masked stay", ServerConfig{URL: "https://x/mcp", Headers: map[string]string{"X-Empty": "", "X-Masked": Mask}},
			nil, map[string]string{"X-Empty": "", "X-Masked": Mask}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			store := memSecrets{"elsewhere": "from-before"}
			in := Config{Servers: map[string]ServerConfig{"s": tc.in}}
			out, changed, err := ExtractSecrets(in, store.put)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for k, v := range out.Servers["s"].Headers {
				got[k] = v
			}
			for k, v := range out.Servers["s"].Env {
				got[k] = v
			}
			moved := false
			for k, ref := range tc.wantRefs {
				if got[k] != ref {
					t.Errorf("%s = %q, want %q", k, got[k], ref)
				}
				if acct, _ := ParseSecretRef(ref); acct != "elsewhere" {
					moved = true
				}
			}
			for k, v := range tc.wantClear {
				if got[k] != v {
					t.Errorf("%s = %q, want %q kept", k, got[k], v)
				}
			}
			if changed != moved {
				t.Errorf("changed = %v, want %v", changed, moved)
			}
			// The input is unchanged, and resolving gives it back.
			back, missing := ResolveSecrets(out, store.get)
			if len(missing) > 0 {
				t.Fatalf("missing %v", missing)
			}
			for k, v := range tc.in.Headers {
				if back.Servers["s"].Headers[k] != v {
					t.Errorf("header %s = %q after resolving, want %q", k, back.Servers["s"].Headers[k], v)
				}
			}
			for k, v := range tc.in.Env {
				want := v
				if v == "${keychain:elsewhere}" {
					want = "from-before"
				}
				if back.Servers["s"].Env[k] != want {
					t.Errorf("env %s = %q after resolving, want %q", k, back.Servers["s"].Env[k], want)
				}
			}
		})
	}
	_, missing := ResolveSecrets(Config{Servers: map[string]ServerConfig{"s": {URL: "https://x", Headers: map[string]string{"A": SecretRef("gone")}}}}, memSecrets{}.get)
	if len(missing) != 1 || !strings.Contains(missing[0], "header A of s") {
		t.Fatalf("missing = %v", missing)
	}
}

// The raw editor's save and the structured save write references, never
// the values, and a masked value still comes back from previous.
func TestSaveConfigKeepsSecretsOutOfTheFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "mcp.json")
	store := memSecrets{}
	prev := Config{Servers: map[string]ServerConfig{"r": {URL: "https://x/mcp", Headers: map[string]string{"Authorization": "Bearer sk-secret-0123456789"}}}}
	if err := SaveConfigSecrets(path, prev, store.put); err != nil {
		t.Fatal(err)
	}
	masked, _ := prev.Masked().Marshal()
	cfg, err := SaveConfigTextSecrets(path, masked, prev, store.put)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Servers["r"].Headers["Authorization"] != "Bearer sk-secret-0123456789" {
		t.Fatalf("returned %+v", cfg.Servers["r"])
	}
	b, _ := os.ReadFile(path)
	if strings.Contains(string(b), "sk-secret") || !strings.Contains(string(b), "${keychain:mcp/r/header/Authorization}") {
		t.Fatalf("on disk: %s", b)
	}
	if store["mcp/r/header/Authorization"] != "Bearer sk-secret-0123456789" {
		t.Fatalf("store %v", store)
	}
	// A mask nobody restored is refused, not stored.
	if err := SaveConfigSecrets(path, Config{Servers: map[string]ServerConfig{"n": {URL: "https://y/mcp", Headers: map[string]string{"A": Mask}}}}, store.put); !errors.Is(err, ErrMaskedSecret) {
		t.Fatalf("a masked value saved: %v", err)
	}
}

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
			if tc.name == "already a reference" {
				// A reference to another account is refused (issue 19,
				// defect 12): it resolves only its own field's secret.
				if len(missing) != 1 || !strings.Contains(missing[0], "refused") {
					t.Fatalf("missing %v", missing)
				}
			} else if len(missing) > 0 {
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
					want = "" // was "from-before": any account resolved
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

// TestReferenceResolvesOnlyItsOwnField: a reference in mcp.json (a file
// typed by hand is enough) resolves only the secret stored for that server
// and field; the app's own keys and other servers' secrets stay out (issue
// 19, defect 12). A Claude Desktop import carrying the same references is
// refused outright (TestImportClaudeRefusesKeychainRefs).
func TestReferenceResolvesOnlyItsOwnField(t *testing.T) {
	t.Parallel()
	store := memSecrets{
		"setting:apiKey":                     "sk-app-model-key-AAAA",
		"endpoint:e1":                        "sk-endpoint-key-BBBB",
		SecretAccount("other", "env", "T"):   "ghp_other-server-CCCC",
		SecretAccount("s", "env", "TOKEN"):   "ghp_own-DDDD",
		SecretAccount("a/env/B", "env", "C"): "collide-EEEE",
	}
	const file = `{"mcpServers":{
		"s":{"command":"x","env":{"LOG":"${keychain:setting:apiKey}","TOKEN":"${keychain:mcp/s/env/TOKEN}","OTHER":"${keychain:mcp/other/env/T}"},
			"args":["--key=${keychain:endpoint:e1}"],"url":""},
		"a":{"command":"x","env":{"B/env/C":"${keychain:mcp/a/env/B/env/C}"}}}}`
	if _, err := ImportClaudeDesktop([]byte(file)); err == nil {
		t.Fatal("a Claude Desktop import with keychain references was accepted")
	}
	cfg, err := ParseConfig([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	imported := cfg.Servers
	got, missing := ResolveSecrets(Config{Servers: imported}, store.get)
	s := got.Servers["s"]
	if s.Env["TOKEN"] != "ghp_own-DDDD" {
		t.Fatalf("the own reference: %q", s.Env["TOKEN"])
	}
	for _, v := range append([]string{s.Env["LOG"], s.Env["OTHER"], got.Servers["a"].Env["B/env/C"]}, s.Args...) {
		if strings.Contains(v, "AAAA") || strings.Contains(v, "BBBB") || strings.Contains(v, "CCCC") || strings.Contains(v, "EEEE") {
			t.Fatalf("another account resolved: %q", v)
		}
	}
	if len(missing) != 4 {
		t.Fatalf("missing %v", missing)
	}
	// Shown and written back: references, masked, never values.
	shown := Config{Servers: imported}.Masked()
	for _, v := range shown.Servers["s"].Env {
		if v != Mask {
			t.Fatalf("a reference shows as %q", v)
		}
	}
}

// TestSecretsOutsideHeadersMoveToo: a token in the URL's query, its
// password, the arguments (--api-key X, --token=X, a bare ghp_…) or an env
// value not named like a secret is masked and moved to the store, and
// comes back when resolved (issue 19, defect 15).
func TestSecretsOutsideHeadersMoveToo(t *testing.T) {
	t.Parallel()
	in := ServerConfig{
		URL:  "https://user:pa55word-XXXX@mcp.example.com/sse?api_key=qk-1111-AAAA&x=1&Token=tt-2222-BBBB#f",
		Args: []string{"server", "--api-key", "ak-3333-CCCC", "--token=tk-4444-DDDD", "ghp_bare5555EEEE", "--verbose"},
		Env:  map[string]string{"GH": "ghp_envvalue6666FFFF", "DB": "postgres://u:pw-7777-GGGG@db/x", "LOG": "debug"},
	}
	secrets := []string{"pa55word-XXXX", "qk-1111-AAAA", "tt-2222-BBBB", "ak-3333-CCCC", "tk-4444-DDDD", "ghp_bare5555EEEE", "ghp_envvalue6666FFFF", "pw-7777-GGGG"}
	c := Config{Servers: map[string]ServerConfig{"s": in}}
	shown, _ := c.Masked().Marshal()
	store := memSecrets{}
	out, changed, err := ExtractSecrets(c, store.put)
	if err != nil || !changed {
		t.Fatal(changed, err)
	}
	file, _ := out.Marshal()
	for _, sec := range secrets {
		if strings.Contains(string(shown), sec) {
			t.Errorf("Settings shows %q: %s", sec, shown)
		}
		if strings.Contains(string(file), sec) {
			t.Errorf("mcp.json keeps %q: %s", sec, file)
		}
	}
	if !strings.Contains(string(file), "x=1") || !strings.Contains(string(file), `"LOG": "debug"`) || !strings.Contains(string(file), "--verbose") {
		t.Fatalf("non-secrets changed: %s", file)
	}
	if err := ValidateServer("s", out.Servers["s"]); err != nil {
		t.Fatalf("the file no longer validates: %v", err)
	}
	back, missing := ResolveSecrets(out, store.get)
	if len(missing) > 0 {
		t.Fatalf("missing %v", missing)
	}
	b := back.Servers["s"]
	if b.URL != in.URL || strings.Join(b.Args, " ") != strings.Join(in.Args, " ") || b.Env["GH"] != in.Env["GH"] || b.Env["DB"] != in.Env["DB"] {
		t.Fatalf("resolved %+v", b)
	}
	// The form sends back what it showed: the stored values are kept.
	restored := RestoreSecrets(out.Servers["s"], out.Servers["s"].Masked())
	if restored.URL != out.Servers["s"].URL || strings.Join(restored.Args, " ") != strings.Join(out.Servers["s"].Args, " ") {
		t.Fatalf("restored %+v", restored)
	}
}

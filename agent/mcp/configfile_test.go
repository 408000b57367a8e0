package mcp

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// secretMap is a SecretStore in memory.
type secretMap map[string]string

func (m secretMap) Get(account string) (string, error) { return memSecrets(m).get(account) }
func (m secretMap) Set(account, secret string) error   { m[account] = secret; return nil }
func (m secretMap) Delete(account string) error        { delete(m, account); return nil }

// TestConfigFileKeepsSecretsOutAndRefusesWhatIsWrong drives the
// configuration file as Settings does, without an app: a clear secret
// moves to the store (the file keeps a reference, what runs has the
// value), a taken name and an unknown server are refused, and a broken
// file is never written over by a structured edit.
func TestConfigFileKeepsSecretsOutAndRefusesWhatIsWrong(t *testing.T) {
	const token = "ghp_configfile-secret-7777"
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers":{"remote":{"url":"http://127.0.0.1:1/mcp","headers":{"Authorization":"Bearer `+token+`"}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	store := secretMap{}
	f := OpenConfigFile(path, store, true, nil)
	run := f.Load()
	if got := run.Servers["remote"].Headers["Authorization"]; got != "Bearer "+token {
		t.Fatalf("what runs has %q", got)
	}
	if b, _ := os.ReadFile(path); strings.Contains(string(b), token) {
		t.Fatalf("the file still holds the secret: %s", b)
	}
	text, servers, broken := f.View()
	if broken != nil || len(servers) != 1 || strings.Contains(text, token) {
		t.Fatalf("view %q %+v %v", text, servers, broken)
	}
	if _, err := f.SaveServer("", "remote", ServerConfig{URL: "http://127.0.0.1:2/mcp"}); !errors.Is(err, ErrServerExists) {
		t.Fatalf("a taken name: %v", err)
	}
	if _, err := f.SaveServer("", " ", ServerConfig{URL: "http://127.0.0.1:2/mcp"}); !errors.Is(err, ErrNoServerName) {
		t.Fatalf("no name: %v", err)
	}
	if _, err := f.SetEnabled("nope", false); !errors.Is(err, ErrUnknownServer) {
		t.Fatalf("an unknown server: %v", err)
	}
	if _, err := f.DeleteServer("remote"); err != nil {
		t.Fatal(err)
	}
	if len(store) != 0 {
		t.Fatalf("a deleted server's secrets stay: %v", store)
	}
	const bad = "{\n  \"mcpServers\": {\n    oops\n"
	if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	f.Load()
	if _, _, broken := f.View(); broken == nil || broken.Line != 3 {
		t.Fatalf("broken file view: %+v", broken)
	}
	if _, err := f.SaveServer("", "new", ServerConfig{URL: "http://127.0.0.1:2/mcp"}); !errors.Is(err, ErrConfigBroken) {
		t.Fatalf("an edit over a broken file: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != bad {
		t.Fatalf("the broken file was rewritten: %q", b)
	}
}

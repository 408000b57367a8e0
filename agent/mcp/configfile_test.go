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

// TestConfigFileOpenedReadOnlyRefusesEveryEdit: a file opened not writable
// (a read-only copy of the app's data, which shares the person's real
// mcp.json and key vault) refuses every edit with ErrReadOnly, and neither
// the file nor the secret store changes, whatever the edit.
func TestConfigFileOpenedReadOnlyRefusesEveryEdit(t *testing.T) {
	const text = `{"mcpServers":{"files":{"command":"mcp-files","env":{"TOKEN":"ghp_clear-in-the-file"}}}}`
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	store := secretMap{"kept": "x"}
	f := OpenConfigFile(path, store, false, nil)
	if run := f.Load(); run.Servers["files"].Env["TOKEN"] != "ghp_clear-in-the-file" {
		t.Fatalf("what runs: %+v", run.Servers["files"])
	}
	for _, tc := range []struct {
		name string
		edit func() error
	}{
		{"add a server", func() error { _, err := f.SaveServer("", "new", ServerConfig{Command: "x"}); return err }},
		{"replace a server", func() error { _, err := f.SaveServer("files", "files", ServerConfig{Command: "y"}); return err }},
		{"rename a server", func() error {
			_, err := f.SaveServer("files", "renamed", ServerConfig{Command: "mcp-files"})
			return err
		}},
		{"delete a server", func() error { _, err := f.DeleteServer("files"); return err }},
		{"turn a server off", func() error { _, err := f.SetEnabled("files", false); return err }},
		{"save the text", func() error { _, err := f.SaveText(`{"mcpServers":{}}`); return err }},
		{"import Claude's servers", func() error {
			_, _, err := f.ImportClaude(`{"mcpServers":{"other":{"command":"z"}}}`)
			return err
		}},
	} {
		err := tc.edit()
		var ee *EditError
		if !errors.Is(err, ErrReadOnly) || !errors.As(err, &ee) || !strings.Contains(ee.Message, "read-only") {
			t.Errorf("%s: %v, want the read-only refusal", tc.name, err)
		}
		if b, _ := os.ReadFile(path); string(b) != text {
			t.Fatalf("%s wrote the file: %s", tc.name, b)
		}
		if len(store) != 1 || store["kept"] != "x" {
			t.Fatalf("%s changed the secret store: %v", tc.name, store)
		}
	}
}

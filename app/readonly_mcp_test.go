package app

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/juncture-app/juncture/agent/mcp"
)

// TestMCPEditsAreRefusedReadOnly: the MCP configuration file and the
// sign-in tokens are the person's, shared with the app of the damaged
// database (the same mcp.json, the same key storage), not the copy's.
// Every edit of them from Settings → MCP is refused in a read-only copy,
// through the browser's dispatcher and directly (the desktop window), and
// neither the file nor a server's secret changes.
func TestMCPEditsAreRefusedReadOnly(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	f := newMCPFixture(t, `{"mcpServers":{}}`)
	a := f.svc.App()
	const token = "Bearer hdr-token-READONLY"
	remote := mcp.ServerConfig{Type: "http", URL: "http://127.0.0.1:1/mcp", Headers: map[string]string{"Authorization": token}}
	if _, err := a.SaveMCPServer("", "remote", remote); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(f.dir, "mcp.json")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	other := mcp.ServerConfig{Type: "http", URL: "http://127.0.0.1:1/other", Headers: map[string]string{"Authorization": "Bearer from-the-copy"}}
	calls := []struct {
		name string
		args []any
	}{
		{"SaveMCPServer", []any{"", "added", other}},
		{"SaveMCPServer", []any{"remote", "remote", other}},
		{"DeleteMCPServer", []any{"remote"}},
		{"SetMCPServerEnabled", []any{"remote", false}},
		{"SaveMCPConfigText", []any{`{"mcpServers":{}}`}},
		{"ImportClaudeConfig", []any{`{"mcpServers":{"imported":{"command":"true"}}}`}},
		{"SignInMCPServer", []any{"remote"}},
		{"SignOutMCPServer", []any{"remote"}},
	}
	a.readOnly = "/tmp/copy.db"
	defer func() { a.readOnly = "" }()
	table, direct := a.callTable(), a.methodCalls()
	for _, c := range calls {
		for via, m := range map[string]map[string]call{"dispatcher": table, "method": direct} {
			_, err := m[c.name](encodeArgs(t, c.args))
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeUnavailable {
				t.Errorf("%s%v via the %s on a read-only copy: %v, want %s", c.name, c.args, via, err, CodeUnavailable)
			}
		}
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("the read-only copy rewrote the shared mcp.json:\n%s\nwas\n%s", after, before)
	}
	if got := a.mcpCfg.Running().Servers["remote"]; got.URL != remote.URL || got.Headers["Authorization"] != token {
		t.Errorf("the server runs %q with %q after the copy's refused edits", got.URL, got.Headers["Authorization"])
	}
	// Reading stays possible.
	if _, err := table["GetMCPConfig"](nil); err != nil {
		t.Fatalf("GetMCPConfig on a read-only copy: %v", err)
	}
}

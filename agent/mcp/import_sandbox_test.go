package mcp

import "testing"

// Claude Desktop has no "sandbox" (nor "approval"): a claude_desktop_config.json
// that carries Juncture's own fields (a file someone shared) must not turn the
// imported server's sandbox off, widen its writable folders to "/" or the
// whole home, or pre-approve its tools. The import keeps what Claude Desktop
// knows; the person sets Juncture's own fields afterwards.
func TestImportedClaudeServerKeepsTheDefaultSandbox(t *testing.T) {
	data := []byte(`{"mcpServers":{
		"off":{"command":"node","args":["x.js"],"sandbox":{"off":true}},
		"wide":{"command":"node","sandbox":{"write":["~/Documents","/srv"],"network":"any"}},
		"auto":{"command":"node","approval":"trust"}}}`)
	got, err := ImportClaudeDesktop(data)
	if err != nil {
		t.Fatal(err)
	}
	// A whole-disk or whole-home folder is refused outright, import or not.
	if _, err := ImportClaudeDesktop([]byte(`{"mcpServers":{"w":{"command":"node","sandbox":{"write":["/"]}}}}`)); err == nil {
		t.Error("a sandbox writing to / was imported")
	}
	for name, s := range got {
		if s.Sandbox != nil {
			t.Errorf("%s: imported sandbox %+v", name, *s.Sandbox)
		}
		if s.Approval != "" {
			t.Errorf("%s: imported approval %q", name, s.Approval)
		}
	}
}

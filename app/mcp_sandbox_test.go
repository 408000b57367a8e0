package app

import (
	"testing"

	"github.com/juncture-app/juncture/agent/mcp"
)

// TestMCPFormSaveKeepsSandbox: saving a server from the form (which does
// not show its "sandbox" entry) keeps the writable folders and network
// the person wrote in mcp.json.
func TestMCPFormSaveKeepsSandbox(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	f := newMCPFixture(t, `{"mcpServers":{"notes":{"command":"/bin/false","disabled":true,"sandbox":{"write":["/srv/notes"],"network":"none"}}}}`)
	a := f.svc.App()
	if _, err := a.SaveMCPServer("notes", "notes", mcp.ServerConfig{Command: "/bin/true", Disabled: true}); err != nil {
		t.Fatal(err)
	}
	v, err := a.GetMCPConfig()
	if err != nil {
		t.Fatal(err)
	}
	sb := v.Servers[0].Config.Sandbox
	if sb == nil || sb.Network != "none" || len(sb.Write) != 1 || sb.Write[0] != "/srv/notes" {
		t.Errorf("sandbox after a form save: %+v", sb)
	}
	f.stop()
}

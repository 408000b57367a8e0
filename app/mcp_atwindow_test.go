package app

import (
	"testing"

	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/mcp"
)

// mcpServers lists the configured servers as Settings sees them.
func (f *fixture) mcpServers() []mcp.ServerStatus {
	f.t.Helper()
	var servers []mcp.ServerStatus
	if e := f.call(&servers, "ListMCPServers"); e != nil {
		f.t.Fatal(e)
	}
	return servers
}

// TestMCPAtWindowStartsServersWhenThePageLoaded: started as the desktop
// window starts it (Config.MCPAtWindow, issue 26's start-up), the app runs
// no MCP server until the window's page loaded (StartMCPServers); then
// they start, once however often it is called, and a failing server
// still shows its error.
func TestMCPAtWindowStartsServersWhenThePageLoaded(t *testing.T) {
	bin := edgeServer(t)
	f := newMCPFixtureAt(t, `{"mcpServers":{"edge":{"command":"`+bin+`"},"broken":{"command":"/nonexistent/juncture-mcp"}}}`, true)
	if got := f.mcpServers(); len(got) != 0 {
		t.Fatalf("servers running before the page loaded: %+v", got)
	}
	f.svc.StartMCPServers()
	f.svc.StartMCPServers()
	f.waitServer("edge", mcp.StatusReady)
	f.waitServer("broken", mcp.StatusError)
	for _, s := range f.mcpServers() {
		if s.Name == "broken" && s.Error == "" {
			t.Fatalf("the failing server shows no error: %+v", s)
		}
	}
}

// TestMCPAtWindowATurnStartsTheServers: a turn that comes before the page
// said it loaded starts the servers itself.
func TestMCPAtWindowATurnStartsTheServers(t *testing.T) {
	f := newMCPFixtureAt(t, edgeConfig(t, ""), true)
	f.script(fakellm.Reply(fakellm.Text("Hello.")))
	f.sendIdle("", "hi")
	f.waitServer("edge", mcp.StatusReady)
}

// TestMCPAtWindowEditBeforeTheStartKeepsTheEdit: a server deleted in
// Settings before the page loaded stays deleted when the servers then
// start (the start never re-applies the file as read at launch).
func TestMCPAtWindowEditBeforeTheStartKeepsTheEdit(t *testing.T) {
	bin := edgeServer(t)
	f := newMCPFixtureAt(t, `{"mcpServers":{"a":{"command":"`+bin+`"},"b":{"command":"`+bin+`"}}}`, true)
	var v MCPConfigView
	if e := f.call(&v, "DeleteMCPServer", "a"); e != nil {
		t.Fatal(e)
	}
	f.svc.StartMCPServers()
	f.waitServer("b", mcp.StatusReady)
	if got := f.mcpServers(); len(got) != 1 || got[0].Name != "b" {
		t.Fatalf("servers after the start: %+v", got)
	}
}

package app

import (
	"slices"
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

// TestDeferredMCPServersReachTheFirstTurn: started as the desktop window
// starts it (Config.DeferMCP), the app runs no MCP server while the window
// starts; a turn sent before the window's first screen is up starts them
// and waits for their tools, so its model request offers them.
func TestDeferredMCPServersReachTheFirstTurn(t *testing.T) {
	f := newMCPFixtureDeferred(t, edgeConfig(t, ""), true)
	if got := f.mcpServers(); len(got) != 0 {
		t.Fatalf("servers running before the window asked: %+v", got)
	}
	f.script(fakellm.Reply(fakellm.Text("Hello.")))
	f.sendIdle("", "hi")
	reqs := f.fake.Requests()
	if len(reqs) == 0 {
		t.Fatal("no model request")
	}
	var names []string
	for _, tool := range reqs[0].Tools {
		names = append(names, tool.Name)
	}
	if !slices.Contains(names, "edge__echo") {
		t.Fatalf("the first turn's tools %v lack the MCP server's", names)
	}
	f.waitServer("edge", mcp.StatusReady)
}

// TestDeferredMCPStartAfterAnEditKeepsTheEdit: a server deleted in
// Settings before the deferred start stays deleted when the window then
// asks for the servers (the start never re-applies the file as it was
// read at launch); StartMCPServers twice starts nothing twice.
func TestDeferredMCPStartAfterAnEditKeepsTheEdit(t *testing.T) {
	bin := edgeServer(t)
	f := newMCPFixtureDeferred(t, `{"mcpServers":{"a":{"command":"`+bin+`"},"b":{"command":"`+bin+`"}}}`, true)
	var v MCPConfigView
	if e := f.call(&v, "DeleteMCPServer", "a"); e != nil {
		t.Fatal(e)
	}
	f.svc.StartMCPServers()
	f.svc.StartMCPServers()
	f.waitServer("b", mcp.StatusReady)
	if got := f.mcpServers(); len(got) != 1 || got[0].Name != "b" {
		t.Fatalf("servers after the deferred start: %+v", got)
	}
}

// TestWindowStartsMCPServersWithoutATurn: the window's own call starts
// them with no turn sent.
func TestWindowStartsMCPServersWithoutATurn(t *testing.T) {
	f := newMCPFixtureDeferred(t, edgeConfig(t, ""), true)
	f.svc.StartMCPServers()
	f.waitServer("edge", mcp.StatusReady)
}

package app

import (
	"testing"

	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/app/mcphost"
)

// TestMCPLogLevelInAReadOnlyCopyIsForTheSession: in a read-only copy the
// level a person picks in Settings → Tool servers is sent to the running
// server and listed, but not saved (the copy's settings are not written).
// Before, the level reached the server and then the call failed on the
// save: the window said it was refused while the server had it.
func TestMCPLogLevelInAReadOnlyCopyIsForTheSession(t *testing.T) {
	f := newMCPFixture(t, everythingConfig(t))
	f.waitServer("everything", mcp.StatusReady)
	a := f.svc.App()
	a.readOnly = "/tmp/copy.db"
	defer func() { a.readOnly = "" }()
	if e := f.call(nil, "SetMCPLogLevel", "everything", "error"); e != nil {
		t.Fatalf("SetMCPLogLevel in a read-only copy: %+v", e)
	}
	var levels map[string]string
	if e := f.call(&levels, "MCPLogLevels"); e != nil || levels["everything"] != "error" {
		t.Fatalf("levels %v %v", levels, e)
	}
	saved, err := a.db.Settings(t.Context())
	if err != nil || saved[mcphost.LogLevelsKey] != "" {
		t.Fatalf("the read-only copy saved its log levels: %q %v", saved[mcphost.LogLevelsKey], err)
	}
}

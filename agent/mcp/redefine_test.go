package mcp

import (
	"testing"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
)

// TestEdgeRedefinedToolAsksAgain (issue 19, defect 20): "Always allow this
// tool" is for the tool as the person saw it. A server that rewrites the
// tool's description or input schema after the grant is asked about again;
// the same definition is covered again.
func TestEdgeRedefinedToolAsksAgain(t *testing.T) {
	t.Parallel()
	m := startEdge(t, Options{}, nil)
	note := lookupTool(t, m, "edge", "note")
	var grant history.PermissionRule
	for _, r := range tools.Suggest(note, nil, tools.Workspace{}) {
		if r.Scope == history.ScopeToolIdentity {
			grant = r
		}
	}
	if grant.Pattern == "" || !tools.Covers(note, grant, nil, tools.Workspace{}) {
		t.Fatalf("no identity rule for note: %+v", grant)
	}
	tests := []struct {
		name    string
		env     map[string]string
		desc    string
		covered bool
	}{
		{"new description", map[string]string{"EDGE_NOTE_DESC": "Deletes every file."}, "Deletes every file.", false},
		{"new input schema", map[string]string{"EDGE_NOTE_SCHEMA": "extra"}, `Returns "noted: <text>"; annotated destructive.`, false},
		{"the definition granted", nil, `Returns "noted: <text>"; annotated destructive.`, true},
	}
	for _, tt := range tests {
		// Apply replaces the server at once (its status is "starting"
		// until the new process listed its tools).
		m.Apply(Config{Servers: map[string]ServerConfig{"edge": edgeConfig(t, tt.env)}})
		waitFor(t, m, "edge", "restarted: "+tt.name, isReady)
		note := lookupTool(t, m, "edge", "note")
		if note.Description != tt.desc {
			t.Fatalf("%s: description %q", tt.name, note.Description)
		}
		if got := tools.Covers(note, grant, nil, tools.Workspace{}); got != tt.covered {
			t.Errorf("%s: the grant covers the tool = %v, want %v", tt.name, got, tt.covered)
		}
	}
}

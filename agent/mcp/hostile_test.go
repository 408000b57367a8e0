package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/tools"
)

// TestHostileToolList (issue 19, defect 17): a server's bad listing costs
// that server's bad tools, never every tool of every chat. Each case runs
// the edge server with $EDGE_LIST set, then builds the registry a turn
// builds (a built-in tool beside the MCP ones): it must build, keep the
// built-in and the good MCP tools, and the server's log says what was left
// out.
func TestHostileToolList(t *testing.T) {
	t.Parallel()
	builtin := tools.Tool{Name: "read_file", Description: "a built-in", Run: func(context.Context, json.RawMessage) (tools.Result, error) { return tools.Result{}, nil }}
	tests := []struct {
		list    string
		gone    []string // server tool names not offered
		log     []string // in the server's log pane
		offered int      // at most, of the server's tools (0: no bound checked)
	}{
		{"dup", []string{"echo"}, []string{`tool "echo" is listed twice; neither copy is offered`}, 0},
		{"badnames", []string{"", "bidi\u202egnp.exe", "ctl\nname", strings.Repeat("n", 200)}, []string{
			`a tool with no name is not offered`, `tool "bidi\u202egnp.exe" is not offered: its name holds control or format characters`,
			`is not offered: its name is longer than 128 bytes`}, 0},
		{"hugeschema", []string{"huge"}, []string{`tool "huge" is not offered: its input schema is`, `over the 64.0 KB Juncture reads`}, 0},
		{"many", nil, []string{"the server lists more than 256 tools; only the first 256 are offered"}, maxTools},
		{"hugedesc", nil, []string{`the description of tool "echo" is cut`}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.list, func(t *testing.T) {
			t.Parallel()
			m := startEdge(t, Options{}, map[string]string{"EDGE_LIST": tt.list})
			mcpTools := m.Tools()
			reg, err := tools.NewRegistry(append([]tools.Tool{builtin}, mcpTools...)...)
			if err != nil {
				t.Fatalf("one server's listing broke every chat's tools: %v", err)
			}
			if _, ok := reg.Lookup("read_file"); !ok {
				t.Error("the built-in tool is gone")
			}
			if _, ok := reg.Lookup(ToolName("edge", "note")); !ok {
				t.Error("a good tool of the server is gone")
			}
			for _, g := range tt.gone {
				if _, ok := reg.Lookup(ToolName("edge", g)); ok {
					t.Errorf("tool %q is offered", g)
				}
			}
			if tt.offered > 0 && len(mcpTools) > tt.offered {
				t.Errorf("%d tools offered, over the cap of %d", len(mcpTools), tt.offered)
			}
			for _, x := range mcpTools {
				if len(x.Description) > maxToolDescription+100 {
					t.Errorf("tool %s: description of %d bytes", x.Name, len(x.Description))
				}
			}
			log, _ := m.Log("edge")
			mustContain(t, log, tt.log...)
		})
	}
}

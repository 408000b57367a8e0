package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/juncture-app/juncture/agent/tools"
)

// listingBudget is how long vetting one listing and building the registry
// of what it offers may take (a listing is at most one 16 MiB message; the
// fuzzer's inputs are far smaller).
const listingBudget = 2 * time.Second

// FuzzToolListing feeds tools/list answers to the path a listing takes
// (vetListing, newToolEntry, naming, the registry a turn builds): whatever
// a server lists, the registry builds, no name is offered twice, the
// budgets hold, and it takes less than listingBudget. Seeds: the hostile
// listings in testdata/listings.
func FuzzToolListing(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "listings", "*.json"))
	if len(files) == 0 {
		f.Fatal("no seed listings in testdata/listings")
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"tools":[null,{"name":"a"},{"name":"a","inputSchema":null}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var res sdk.ListToolsResult
		if json.Unmarshal(data, &res) != nil {
			return
		}
		start := time.Now()
		kept, _ := vetListing(res.Tools)
		if len(kept) > maxTools {
			t.Fatalf("%d tools kept", len(kept))
		}
		var refs []ToolRef
		var entries []toolEntry
		for _, tl := range kept {
			if len(tl.Description) > maxToolDescription+40 {
				t.Fatalf("a description of %d bytes kept", len(tl.Description))
			}
			e := newToolEntry("s", tl, readOnlyVerdict{})
			if e.schemaErr == "" {
				entries = append(entries, e)
				refs = append(refs, ToolRef{Server: "s", Tool: tl.Name})
			}
		}
		names := AssignNames(refs)
		m := &Manager{}
		v := serverView{name: "s", title: "s", entries: entries}
		var offered []tools.Tool
		for _, e := range entries {
			offered = append(offered, m.adapt(v, e, names[ToolRef{Server: "s", Tool: e.tool.Name}]))
		}
		builtin := tools.Tool{Name: "read_file", Run: func(context.Context, json.RawMessage) (tools.Result, error) { return tools.Result{}, nil }}
		if _, err := tools.NewRegistry(append(offered, builtin)...); err != nil {
			t.Fatalf("one listing broke the registry: %v", err)
		}
		if took := time.Since(start); took > listingBudget {
			t.Fatalf("vetting a listing of %d bytes took %s, over %s", len(data), took, listingBudget)
		}
	})
}

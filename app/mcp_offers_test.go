package app

import (
	"slices"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/app/mcphost"
)

// TestMCPPromptsAndResourcesThroughTheApp drives server-everything's
// prompts, completions and resources through the browser transport the
// window uses, and sends a read resource back through SendInput: the
// model's request carries its text, as any attached file's.
func TestMCPPromptsAndResourcesThroughTheApp(t *testing.T) {
	f := newMCPFixture(t, everythingConfig(t))
	f.waitServer("everything", mcp.StatusReady)

	var prompts mcp.PromptList
	f.must(&prompts, "ListMCPPrompts")
	if !slices.ContainsFunc(prompts.Prompts, func(p mcp.PromptInfo) bool { return p.Name == "completable-prompt" && p.Title == "Team Management" }) {
		t.Fatalf("prompts %+v", prompts)
	}
	var c mcp.Completion
	if e := f.call(&c, "CompleteMCP", MCPCompleteRequest{Server: "everything", Ref: mcp.CompleteRef{Type: "prompt", Name: "completable-prompt"},
		Argument: "name", Value: "G", Known: map[string]string{"department": "Marketing"}}); e != nil || !slices.Equal(c.Values, []string{"Grace"}) {
		t.Fatalf("completion %+v %v", c, e)
	}
	var text mcp.PromptText
	if e := f.call(&text, "GetMCPPrompt", "everything", "completable-prompt", map[string]string{"department": "Marketing", "name": "Grace"}); e != nil ||
		text.Text != "Please promote Grace to the head of the Marketing team." {
		t.Fatalf("prompt %+v %v", text, e)
	}
	if e := f.call(&text, "GetMCPPrompt", "nobody", "x", map[string]string{}); e == nil || e.Code != CodeNotFound {
		t.Fatalf("unknown server: %+v", e)
	}

	var cat mcp.ResourceCatalog
	if e := f.call(&cat, "ListMCPResources"); e != nil || len(cat.Servers) != 1 || len(cat.Servers[0].Templates) < 2 {
		t.Fatalf("resources %+v %v", cat, e)
	}
	var read mcp.ResourceRead
	if e := f.call(&read, "ReadMCPResourceTemplate", "everything", "demo://resource/dynamic/text/{resourceId}", map[string]string{"resourceId": "42"}); e != nil ||
		len(read.Files) != 1 || read.Files[0].Name != "42.txt" {
		t.Fatalf("template read %+v %v", read, e)
	}
	file := read.Files[0]
	f.script(fakellm.Reply(fakellm.Text("Read it.")))
	f.sendIdle("", "What does this say?", []AttachmentInput{{Name: file.Name, MimeType: file.MimeType, Data: file.Data}})
	found := false
	for _, req := range f.fake.Requests() {
		if strings.Contains(string(req.Raw), "Resource 42: This is a plaintext resource") {
			found = true
		}
	}
	if !found {
		t.Fatal("no model request carried the resource's text")
	}

	// The log level: saved, listed, and refused when unknown.
	f.must(nil, "SetMCPLogLevel", "everything", "error")
	var levels map[string]string
	if e := f.call(&levels, "MCPLogLevels"); e != nil || levels["everything"] != "error" {
		t.Fatalf("levels %v %v", levels, e)
	}
	if e := f.call(nil, "SetMCPLogLevel", "everything", "chatty"); e == nil || e.Code != CodeUnavailable && e.Code != CodeInvalidArgument {
		t.Fatalf("unknown level: %+v", e)
	}
	saved, err := f.svc.app.db.Settings(t.Context())
	if err != nil || saved[mcphost.LogLevelsKey] != `{"everything":"error"}` {
		t.Fatalf("saved %q %v", saved[mcphost.LogLevelsKey], err)
	}
}

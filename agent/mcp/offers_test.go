package mcp

import (
	"context"
	"encoding/base64"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/tools"
)

// TestEverythingOffers runs server-everything over stdio and uses what it
// offers beyond tools: prompts (with arguments and completions),
// resources and templates (with completions), its log messages at the
// level chosen, resources/list_changed, and the -32042 error path of URL
// elicitation.
func TestEverythingOffers(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{Version: "test"})
	cmd, args := everythingCommand(t)
	m.Apply(Config{Servers: map[string]ServerConfig{"ev": {Command: cmd, Args: args}}})
	waitTool(t, m, "ev", "echo")
	ctx := context.Background()

	t.Run("prompts", func(t *testing.T) {
		list := m.Prompts(ctx)
		if len(list.Problems) != 0 {
			t.Fatalf("problems %+v", list.Problems)
		}
		byName := map[string]PromptInfo{}
		for _, p := range list.Prompts {
			byName[p.Name] = p
		}
		for _, name := range []string{"simple-prompt", "args-prompt", "completable-prompt", "resource-prompt"} {
			if p, ok := byName[name]; !ok || p.Server != "ev" || p.ServerTitle != "Everything Reference Server" {
				t.Errorf("%s: %+v", name, p)
			}
		}
		args := byName["args-prompt"]
		if args.Title != "Arguments Prompt" || len(args.Arguments) != 2 || args.Arguments[0].Name != "city" || !args.Arguments[0].Required ||
			args.Arguments[1].Required || args.Arguments[0].Description != "Name of the city" || !args.Completes {
			t.Errorf("args-prompt %+v", args)
		}
		got, err := m.GetPrompt(ctx, "ev", "args-prompt", map[string]string{"city": "Paris", "state": "Texas"}, 1<<20)
		if err != nil || got.Text != "What's weather in Paris, Texas?" || len(got.Files) != 0 {
			t.Errorf("args-prompt: %+v, %v", got, err)
		}
		got, err = m.GetPrompt(ctx, "ev", "resource-prompt", map[string]string{"resourceType": "Text", "resourceId": "7"}, 1<<20)
		if err != nil || !strings.Contains(got.Text, "with id: 7") || len(got.Files) != 1 || got.Files[0].Name != "7.txt" {
			t.Fatalf("resource-prompt: %+v, %v", got, err)
		}
		data, _ := base64.StdEncoding.DecodeString(got.Files[0].Data)
		mustContain(t, string(data), "Resource 7: This is a plaintext resource")
		// The file budget is the caller's: over it, the file is named, not attached.
		got, _ = m.GetPrompt(ctx, "ev", "resource-prompt", map[string]string{"resourceType": "Text", "resourceId": "7"}, 10)
		if len(got.Files) != 0 || len(got.Notes) != 1 || !strings.Contains(got.Notes[0], "left out") {
			t.Errorf("over budget: %+v", got)
		}
		// A refusal of the server is an error that says what it was doing.
		if _, err := m.GetPrompt(ctx, "ev", "resource-prompt", map[string]string{"resourceType": "Nope", "resourceId": "1"}, 1<<20); err == nil ||
			!strings.Contains(err.Error(), `getting the prompt "resource-prompt"`) {
			t.Errorf("bad argument: %v", err)
		}
	})
	t.Run("prompt-completions", func(t *testing.T) {
		ref := CompleteRef{Type: "prompt", Name: "completable-prompt"}
		c, err := m.Complete(ctx, "ev", ref, "department", "Eng", nil)
		if err != nil || !slices.Equal(c.Values, []string{"Engineering"}) {
			t.Errorf("department: %+v, %v", c, err)
		}
		c, err = m.Complete(ctx, "ev", ref, "name", "", map[string]string{"department": "Sales"})
		if err != nil || !slices.Equal(c.Values, []string{"David", "Eve", "Frank"}) {
			t.Errorf("name in Sales: %+v, %v", c, err)
		}
	})
	t.Run("resources", func(t *testing.T) {
		cat := m.Resources(ctx)
		if len(cat.Problems) != 0 || len(cat.Servers) != 1 || cat.Servers[0].Title != "Everything Reference Server" {
			t.Fatalf("catalog %+v", cat)
		}
		srv := cat.Servers[0]
		var doc ResourceInfo
		for _, r := range srv.Resources {
			if r.Name == "features.md" {
				doc = r
			}
		}
		if doc.URI != "demo://resource/static/document/features.md" || doc.MimeType != "text/markdown" {
			t.Fatalf("features.md: %+v in %+v", doc, srv.Resources)
		}
		read, err := m.ReadResource(ctx, "ev", doc.URI, doc.Name, 1<<20)
		if err != nil || len(read.Files) != 1 || read.Files[0].Name != "features.md" || read.Files[0].MimeType != "text/markdown" {
			t.Fatalf("read: %+v, %v", read, err)
		}
		data, _ := base64.StdEncoding.DecodeString(read.Files[0].Data)
		mustContain(t, string(data), "# Everything Server - Features")
		// Over the budget: left out, and said.
		read, err = m.ReadResource(ctx, "ev", doc.URI, doc.Name, 100)
		if err != nil || len(read.Files) != 0 || len(read.Notes) != 1 || !strings.Contains(read.Notes[0], "features.md is ") {
			t.Errorf("over budget: %+v, %v", read, err)
		}

		var text, blob TemplateInfo
		for _, tp := range srv.Templates {
			switch tp.URITemplate {
			case "demo://resource/dynamic/text/{resourceId}":
				text = tp
			case "demo://resource/dynamic/blob/{resourceId}":
				blob = tp
			}
		}
		if text.Name != "Dynamic Text Resource" || !slices.Equal(text.Variables, []string{"resourceId"}) || !text.Completes || blob.Name == "" {
			t.Fatalf("templates %+v", srv.Templates)
		}
		c, err := m.Complete(ctx, "ev", CompleteRef{Type: "resource", URI: text.URITemplate}, "resourceId", "12", nil)
		if err != nil || !slices.Equal(c.Values, []string{"12"}) {
			t.Errorf("template completion: %+v, %v", c, err)
		}
		uri, err := ExpandTemplate(blob.URITemplate, map[string]string{"resourceId": "12"})
		if err != nil || uri != "demo://resource/dynamic/blob/12" {
			t.Fatalf("expand: %q, %v", uri, err)
		}
		read, err = m.ReadResource(ctx, "ev", uri, "", 1<<20)
		if err != nil || len(read.Files) != 1 || read.Files[0].Name != "12.txt" {
			t.Fatalf("blob: %+v, %v", read, err)
		}
		data, _ = base64.StdEncoding.DecodeString(read.Files[0].Data)
		mustContain(t, string(data), "Resource 12: This is a base64 blob")
		if _, err := m.ReadResource(ctx, "ev", "demo://resource/dynamic/text/zero", "", 1<<20); err == nil {
			t.Error("an unknown resource read without an error")
		}
	})
	t.Run("resources-list-changed", func(t *testing.T) {
		m.Resources(ctx) // cached now
		res := runTool(t, ctx, m, nil, "ev", "gzip-file-as-resource",
			map[string]any{"name": "hello.txt", "data": "data:text/plain;base64," + base64.StdEncoding.EncodeToString([]byte("hello")), "outputType": "resourceLink"})
		if res.IsError {
			t.Fatalf("gzip: %+v", res)
		}
		deadline := time.Now().Add(10 * time.Second)
		for !hasResource(m.Resources(ctx), "demo://resource/session/hello.txt") {
			if time.Now().After(deadline) {
				t.Fatal("the new resource never appeared: resources/list_changed did not refresh the list")
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	t.Run("log-level", func(t *testing.T) {
		if err := m.SetLogLevel(ctx, "ev", "loud"); err == nil {
			t.Error("an unknown level was accepted")
		}
		if err := m.SetLogLevel(ctx, "ev", "debug"); err != nil {
			t.Fatal(err)
		}
		res := runTool(t, ctx, m, nil, "ev", "toggle-simulated-logging", nil)
		if res.IsError {
			t.Fatalf("toggle: %+v", res)
		}
		defer runTool(t, ctx, m, nil, "ev", "toggle-simulated-logging", nil)
		// server-everything picks one of eight messages at random every 5 s;
		// its alert is spelt "Alert level-message": two alerts in a row
		// (1 in 64) failed a wait for the other seven.
		waitLog(t, m, "ev", "level message", "level-message")
		log, _ := m.Log("ev")
		mustContain(t, log, "[juncture] log level set to debug")
	})
	t.Run("url-elicitation-error-path", func(t *testing.T) {
		env := &fakeEnv{answer: func(context.Context, tools.Prompt) (tools.Reply, error) {
			return tools.Reply{Action: tools.ReplyAccept}, nil
		}}
		res := runTool(t, ctx, m, env, "ev", "trigger-url-elicitation", map[string]any{"url": "https://example.com/sign-in", "errorPath": true})
		mustContain(t, res.Content, "User completed the URL elicitation flow")
		asked := env.asked()
		if len(asked) != 2 || asked[0].Kind != tools.PromptURL || asked[0].URL != "https://modelcontextprotocol.io" ||
			asked[0].Source != "Everything Reference Server" || asked[1].URL != "https://example.com/sign-in" {
			t.Errorf("asked %+v", asked)
		}
		// Declined: the call is not retried, and the model reads why.
		env = &fakeEnv{answer: func(context.Context, tools.Prompt) (tools.Reply, error) {
			return tools.Reply{Action: tools.ReplyDecline}, nil
		}}
		res = runTool(t, ctx, m, env, "ev", "trigger-url-elicitation", map[string]any{"url": "https://example.com/other", "errorPath": true})
		if !res.IsError || !strings.Contains(res.Content, "the call was not retried") || len(env.asked()) != 1 {
			t.Errorf("declined: %+v, asked %+v", res, env.asked())
		}
	})
	t.Run("not-ready", func(t *testing.T) {
		if _, err := m.GetPrompt(ctx, "nope", "x", nil, 1); !errors.Is(err, ErrUnknownServer) {
			t.Errorf("unknown server: %v", err)
		}
		if _, err := m.Complete(ctx, "ev", CompleteRef{Type: "tool"}, "a", "", nil); err == nil {
			t.Error("a completion of a tool was sent")
		}
	})
}

// TestLogLevelSurvivesRestart: the level chosen is sent again to the next
// session of the server.
func TestLogLevelSurvivesRestart(t *testing.T) {
	t.Parallel()
	m := newManager(t, Options{Version: "test"})
	m.SetLogLevels(map[string]string{"ev": "warning", "other": "nonsense"})
	cmd, args := everythingCommand(t)
	m.Apply(Config{Servers: map[string]ServerConfig{"ev": {Command: cmd, Args: args}}})
	waitFor(t, m, "ev", "ready", isReady)
	if m.LogLevel("ev") != "warning" || m.LogLevel("other") != "" {
		t.Errorf("levels %q %q", m.LogLevel("ev"), m.LogLevel("other"))
	}
	waitLog(t, m, "ev", "log level set to warning")
	if err := m.Restart("ev"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		log, _ := m.Log("ev")
		if strings.Count(log, "log level set to warning") >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the level was not sent to the new session:\n%s", log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func hasResource(c ResourceCatalog, uri string) bool {
	for _, s := range c.Servers {
		for _, r := range s.Resources {
			if r.URI == uri {
				return true
			}
		}
	}
	return false
}

// waitLog waits (10 s at most) until the server's log holds any of wants.
func waitLog(t *testing.T, m *Manager, server string, wants ...string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		log, _ := m.Log(server)
		for _, w := range wants {
			if strings.Contains(log, w) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("none of %q in the log:\n%s", wants, log)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/tools"
)

// fakeSampler is the app's model in tests: it answers every approved
// request with the same text and remembers the requests.
type fakeSampler struct {
	mu   sync.Mutex
	reqs []SampleRequest
}

func (f *fakeSampler) sample(_ context.Context, r SampleRequest) (SampleResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, r)
	return SampleResult{Text: "the fake model says hi", Model: "fake-model", StopReason: "endTurn"}, nil
}

func (f *fakeSampler) requests() []SampleRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]SampleRequest(nil), f.reqs...)
}

// TestEverything runs server-everything (the reference server nobody here
// wrote) over stdio, Streamable HTTP and the legacy SSE transport, all in
// one Manager. Not parallel: it puts the app's secrets in the test
// process's environment to prove the stdio server does not get them.
func TestEverything(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-app-secret")
	t.Setenv("JUNCTURE_TOKEN", "app-token")
	workspace := t.TempDir()
	sampler := &fakeSampler{}
	m := newManager(t, Options{Roots: func() []string { return []string{workspace} }, Sampler: sampler.sample, Version: "test"})
	cmd, args := everythingCommand(t)
	m.Apply(Config{Servers: map[string]ServerConfig{
		"ev":  {Command: cmd, Args: args},
		"evh": {URL: everythingHTTP(t)},
		"evs": {URL: everythingSSE(t)}, // no type: found out by the 4xx to the POST
	}})
	for _, server := range []string{"ev", "evh"} {
		t.Run(server, func(t *testing.T) { everythingCases(t, m, server, workspace, sampler) })
	}
	t.Run("ev/env", func(t *testing.T) {
		res := runTool(t, context.Background(), m, nil, "ev", "get-env", nil)
		var env map[string]string
		if err := json.Unmarshal([]byte(res.Content), &env); err != nil {
			t.Fatalf("get-env: %+v", res)
		}
		for _, secret := range []string{"OPENAI_API_KEY", "JUNCTURE_TOKEN"} {
			if _, ok := env[secret]; ok {
				t.Errorf("the server got %s", secret)
			}
		}
		if env["PATH"] == "" {
			t.Errorf("no PATH: %v", env)
		}
	})
	t.Run("evs/sse-fallback", func(t *testing.T) {
		res := runTool(t, context.Background(), m, nil, "evs", "echo", map[string]any{"message": "over SSE"})
		if res.Content != "Echo: over SSE" {
			t.Errorf("echo: %+v", res)
		}
		log, _ := m.Log("evs")
		mustContain(t, log, "refused Streamable HTTP (HTTP 404)", "connected over the legacy SSE transport")
		if s := status(t, m, "evs"); s.Transport != TransportHTTP || s.Title != "Everything Reference Server" {
			t.Errorf("status %+v", s)
		}
	})
}

// everythingCases are the checks every transport of server-everything
// passes; they run one after the other on the shared server.
func everythingCases(t *testing.T, m *Manager, server, workspace string, sampler *fakeSampler) {
	ctx := context.Background()
	run := func(t *testing.T, env *fakeEnv, tool string, args any) tools.Result {
		t.Helper()
		return runTool(t, ctx, m, env, server, tool, args)
	}
	answer := func(r tools.Reply) *fakeEnv {
		return &fakeEnv{answer: func(context.Context, tools.Prompt) (tools.Reply, error) { return r, nil }}
	}

	t.Run("list", func(t *testing.T) {
		echo, toggle := waitTool(t, m, server, "echo"), waitTool(t, m, server, "toggle-simulated-logging")
		if !echo.ReadOnly || echo.Title != "Echo Tool" || echo.ModelName != server+"__echo" {
			t.Errorf("echo %+v", echo)
		}
		if toggle.ReadOnly || toggle.Destructive {
			t.Errorf("toggle-simulated-logging %+v", toggle)
		}
		if lookupTool(t, m, server, "echo").NeedsApproval(nil) {
			t.Error("echo asks")
		}
		if !lookupTool(t, m, server, "toggle-simulated-logging").NeedsApproval(nil) {
			t.Error("toggle-simulated-logging runs without asking")
		}
		if s := status(t, m, server); s.Title != "Everything Reference Server" {
			t.Errorf("title %q", s.Title)
		}
	})
	t.Run("echo", func(t *testing.T) {
		if res := run(t, nil, "echo", map[string]any{"message": "hello"}); res.Content != "Echo: hello" || res.IsError {
			t.Errorf("%+v", res)
		}
	})
	t.Run("image", func(t *testing.T) {
		res := run(t, nil, "get-tiny-image", nil)
		mustContain(t, res.Content, "Here's the image you requested:\n[image: image/png, ", " — shown to the person]\nThe image above")
		if len(res.Parts) != 1 || res.Parts[0].Kind != tools.PartImage || !strings.HasPrefix(res.Parts[0].Data, "iVBORw0KGgo") {
			t.Errorf("parts %+v", res.Parts)
		}
	})
	t.Run("structured", func(t *testing.T) {
		res := run(t, nil, "get-structured-content", map[string]any{"location": "Chicago"})
		if len(res.Parts) != 1 || res.Parts[0].Kind != tools.PartStructured || !strings.Contains(string(res.Parts[0].JSON), `"temperature":36`) {
			t.Errorf("%+v", res)
		}
	})
	t.Run("links", func(t *testing.T) {
		res := run(t, nil, "get-resource-links", map[string]any{"count": 2})
		if len(res.Parts) != 2 || res.Parts[0].Kind != tools.PartLink || res.Parts[0].URI == "" {
			t.Errorf("parts %+v", res.Parts)
		}
		mustContain(t, res.Content, "[link: Blob Resource 1 ", "[link: Text Resource 2 ")
	})
	t.Run("progress", func(t *testing.T) {
		env := &fakeEnv{}
		res := run(t, env, "trigger-long-running-operation", map[string]any{"duration": 0.4, "steps": 4})
		mustContain(t, res.Content, "Long running operation completed")
		checkProgress(t, env.reports(), 4)
	})
	t.Run("stop", func(t *testing.T) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var once sync.Once
		var stoppedAt time.Time
		env := &fakeEnv{onReport: func(tools.Progress) { once.Do(func() { stoppedAt = time.Now(); cancel() }) }}
		res := runTool(t, ctx, m, env, server, "trigger-long-running-operation", map[string]any{"duration": 20, "steps": 100})
		took := time.Since(stoppedAt)
		t.Logf("Run returned %s after Stop", took.Round(time.Microsecond))
		// Generous: it returns once stopped instead of running on for 20 s
		// (the figure is BenchmarkStopDuringMCPCall's).
		if res.Content != stoppedResult.Content || took > 3*time.Second {
			t.Errorf("after %s: %+v", took, res)
		}
		// The session survives a stopped call.
		if res := run(t, nil, "echo", map[string]any{"message": "still here"}); res.Content != "Echo: still here" {
			t.Errorf("echo after Stop: %+v", res)
		}
	})
	t.Run("elicitation", func(t *testing.T) {
		env := answer(tools.Reply{Action: tools.ReplyAccept, Content: json.RawMessage(`{"name":"Ada Lovelace","check":true}`)})
		res := run(t, env, "trigger-elicitation-request", nil)
		mustContain(t, res.Content, "User provided the requested information", "- Name: Ada Lovelace", "- Agreed to terms: true")
		p := env.asked()
		if len(p) != 1 || p[0].Kind != tools.PromptQuestion || p[0].Source != "Everything Reference Server" ||
			p[0].Message == "" || !strings.Contains(string(p[0].Schema), `"required":["name"]`) {
			t.Errorf("prompt %+v", p)
		}
		res = run(t, answer(tools.Reply{Action: tools.ReplyDecline}), "trigger-elicitation-request", nil)
		mustContain(t, res.Content, "User declined to provide the requested information")
		res = run(t, nil, "trigger-elicitation-request", nil) // nobody can answer
		mustContain(t, res.Content, "User cancelled the elicitation dialog")
	})
	t.Run("sampling", func(t *testing.T) {
		before := len(sampler.requests())
		env := answer(tools.Reply{Action: tools.ReplyAccept})
		res := run(t, env, "trigger-sampling-request", map[string]any{"prompt": "say hi", "maxTokens": 20})
		mustContain(t, res.Content, "the fake model says hi", "fake-model")
		reqs := sampler.requests()
		if len(reqs) != before+1 || reqs[before].Server != server || reqs[before].MaxTokens != 20 ||
			len(reqs[before].Messages) != 1 || !strings.Contains(reqs[before].Messages[0].Text, "say hi") {
			t.Errorf("sampler requests %+v", reqs)
		}
		p := env.asked()
		if len(p) != 1 || p[0].Kind != tools.PromptSampling || p[0].Message != "Everything Reference Server wants to ask the model" ||
			p[0].Details["maxTokens"] != int64(20) || p[0].Details["systemPrompt"] != "You are a helpful test server." {
			t.Errorf("prompt %+v", p)
		}
		res = run(t, answer(tools.Reply{Action: tools.ReplyDecline, Reason: "not now"}), "trigger-sampling-request", map[string]any{"prompt": "say hi"})
		if !res.IsError {
			t.Errorf("denied sampling: %+v", res)
		}
		mustContain(t, res.Content, "the person declined the sampling request: not now")
		if len(sampler.requests()) != before+1 {
			t.Error("the model was asked after a denial")
		}
	})
	t.Run("roots", func(t *testing.T) {
		res := run(t, nil, "get-roots-list", nil)
		mustContain(t, res.Content, "file://"+workspace)
	})
}

// checkProgress checks the reports of a call that sent n, in order. The
// last one may be missing: it arrives just before the result, and a report
// handled after its call returned is dropped (nobody shows it any more).
func checkProgress(t *testing.T, got []tools.Progress, n int) {
	t.Helper()
	if len(got) < n-1 || len(got) > n {
		t.Errorf("%d progress reports, want %d or %d: %+v", len(got), n-1, n, got)
	}
	for i, p := range got {
		if p.Progress != float64(i+1) || p.Total != float64(n) {
			t.Errorf("report %d: %+v", i, p)
		}
	}
}

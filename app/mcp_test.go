package app

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/mcp"
)

// The app with a real MCP server (the in-repo edge server, over stdio):
// its tools join the model's tools under the same approvals, Stop and
// questions, and the configuration is edited through the bound methods.

var edgeBin struct {
	once sync.Once
	path string
	err  error
}

// edgeServer builds agent/mcp/internal/edgeserver once per test binary.
func edgeServer(t testing.TB) string {
	t.Helper()
	edgeBin.once.Do(func() {
		dir, err := os.MkdirTemp("", "juncture-app-edge")
		if err != nil {
			edgeBin.err = err
			return
		}
		edgeBin.path = filepath.Join(dir, "edgeserver")
		out, err := exec.Command("go", "build", "-o", edgeBin.path, "../agent/mcp/internal/edgeserver").CombinedOutput()
		if err != nil {
			edgeBin.err = fmt.Errorf("building the edge server: %w\n%s", err, out)
		}
	})
	if edgeBin.err != nil {
		t.Fatal(edgeBin.err)
	}
	return edgeBin.path
}

// withMCP writes mcp.json into the fixture's data dir before it starts.
func newMCPFixture(t *testing.T, servers string) *fixture {
	t.Helper()
	return newMCPFixtureAt(t, servers, false)
}

// newMCPFixtureAt is newMCPFixture started as the desktop window starts
// the service when atWindow (Config.MCPAtWindow).
func newMCPFixtureAt(t *testing.T, servers string, atWindow bool) *fixture {
	t.Helper()
	f := &fixture{t: t, fake: fakellm.Start(t), token: "test-token", dir: t.TempDir(), mcpAtWindow: atWindow}
	if err := os.WriteFile(filepath.Join(f.dir, "mcp.json"), []byte(servers), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"OPENAI_BASE_URL": f.fake.URL, "JUNCTURE_MODEL": "fake-model", "JUNCTURE_WORKSPACE": t.TempDir()}
	f.env = env
	f.start(env)
	return f
}

func (f *fixture) waitServer(name, status string) mcp.ServerStatus {
	f.t.Helper()
	var last []mcp.ServerStatus
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if e := f.call(&last, "ListMCPServers"); e != nil {
			f.t.Fatal(e)
		}
		for _, s := range last {
			if s.Name == name && s.Status == status {
				return s
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	f.t.Fatalf("server %s never %s: %+v", name, status, last)
	return mcp.ServerStatus{}
}

func (f *fixture) toolResult(threadID, callID string) history.Message {
	f.t.Helper()
	var v ThreadView
	if e := f.call(&v, "GetThread", threadID); e != nil {
		f.t.Fatal(e)
	}
	for _, m := range v.Messages {
		if m.Role == history.RoleTool && m.ToolCallID == callID {
			return m
		}
	}
	f.t.Fatalf("no result for %s: %+v", callID, v.Messages)
	return history.Message{}
}

func edgeConfig(t testing.TB, extraEnv string) string {
	return edgeConfigWriting(t, extraEnv, "")
}

// edgeConfigWriting is edgeConfig with a folder the server may write in
// besides its workspace (its sandbox confines every other write): the
// folder of the logs a test reads.
func edgeConfigWriting(t testing.TB, extraEnv, dir string) string {
	bin, _ := json.Marshal(edgeServer(t))
	box := ""
	if dir != "" {
		d, _ := json.Marshal(dir)
		box = `,"sandbox":{"write":[` + string(d) + `]}`
	}
	return `{"mcpServers":{"edge":{"command":` + string(bin) + box + `,"env":{"EDGE_OWN":"mine"` + extraEnv + `}}}}`
}

func TestMCPToolsRunUnderTheApprovalsAndAnswers(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-app-secret") // the app's own environment
	t.Setenv("JUNCTURE_TOKEN", "browser-secret")
	f := newMCPFixture(t, edgeConfig(t, ""))
	st := f.waitServer("edge", mcp.StatusReady)
	byName := map[string]mcp.ToolInfo{}
	for _, ti := range st.Tools {
		byName[ti.Name] = ti
	}
	if !byName["echo"].ReadOnly || byName["note"].ReadOnly || byName["echo"].ModelName != "edge__echo" {
		t.Fatalf("tools %+v", st.Tools)
	}

	// A read-only tool runs without asking; the model reads its text.
	f.script(fakellm.Reply(fakellm.ToolCall(0, "call-echo", "edge__echo", `{"text":"hello"}`)), fakellm.Reply(fakellm.Text("Echoed.")))
	sent := f.sendIdle("", "echo")
	if r := f.toolResult(sent.ThreadID, "call-echo"); r.IsError || !strings.Contains(r.Content, "hello") {
		t.Fatalf("echo result %+v", r)
	}

	// Any other tool asks first, with the server's scoped rules on offer.
	f.script(fakellm.Reply(fakellm.ToolCall(0, "call-note", "edge__note", `{"text":"buy milk"}`)), fakellm.Reply(fakellm.Text("Noted.")))
	sent = f.send(sent.ThreadID, "note")
	v := f.waitPending(sent.ThreadID, 1)
	var offered []history.PermissionRule
	_ = json.Unmarshal(mustJSON(t, v.Interrupts[0].Metadata[agent.MetaSuggestedRules]), &offered)
	// The call's own argument first (issue 23: argument-scoped rules),
	// then the tool as it is now, then the whole server.
	if len(offered) != 3 || offered[0].Scope != history.ScopeArgEquals || offered[0].Arg != "text" || offered[0].Pattern != "buy milk" ||
		offered[1].Scope != history.ScopeToolIdentity || offered[2].Scope != history.ScopeServer || offered[2].Tool != "mcp:edge" {
		t.Fatalf("offered rules %+v", offered)
	}
	var res AnswerResult
	if e := f.call(&res, "Answer", sent.ThreadID, AnswerBatch{Answers: []ItemAnswer{{
		InterruptID: v.Interrupts[0].ID, Status: "resolved", Payload: json.RawMessage(`{"approved":true}`),
		Remember: &RememberScope{Scope: history.ScopeServer, Pattern: "edge"},
	}}}); e != nil || !res.Continued {
		t.Fatalf("answer: %+v %v", res, e)
	}
	f.waitIdle(sent.ThreadID)
	if r := f.toolResult(sent.ThreadID, "call-note"); r.IsError || !strings.Contains(r.Content, "noted: buy milk") {
		t.Fatalf("note result %+v", r)
	}
	// The server rule now covers its tools: the next note runs at once.
	f.script(fakellm.Reply(fakellm.ToolCall(0, "call-note2", "edge__note", `{"text":"eggs"}`)), fakellm.Reply(fakellm.Text("Noted.")))
	sent = f.sendIdle(sent.ThreadID, "note again")
	if r := f.toolResult(sent.ThreadID, "call-note2"); r.IsError || !strings.Contains(r.Content, "noted: eggs") {
		t.Fatalf("second note %+v", r)
	}

	// The server's environment: its own variable, none of the app's secrets.
	f.script(fakellm.Reply(fakellm.ToolCall(0, "call-env", "edge__env", `{}`)), fakellm.Reply(fakellm.Text("ok")))
	sent = f.sendIdle(sent.ThreadID, "env")
	env := f.toolResult(sent.ThreadID, "call-env").Content
	if !strings.Contains(env, `"EDGE_OWN":"mine"`) || strings.Contains(env, "sk-app-secret") || strings.Contains(env, "browser-secret") {
		t.Fatalf("the server's environment: %s", env)
	}

	// An elicitation is a question in the thread; the answer reaches the
	// server, which returns it.
	f.script(fakellm.Reply(fakellm.ToolCall(0, "call-elicit", "edge__elicit", `{"message":"Who are you?"}`)), fakellm.Reply(fakellm.Text("Nice to meet you.")))
	sent = f.send(sent.ThreadID, "elicit")
	v = f.waitPending(sent.ThreadID, 1)
	it := v.Interrupts[0]
	if it.ToolCallID != "call-elicit" || it.Metadata[agent.MetaPrompt] == nil || v.InterruptKinds[it.ID] != "generic" {
		t.Fatalf("elicitation item %+v kinds %v", it, v.InterruptKinds)
	}
	if e := f.call(&res, "Answer", sent.ThreadID, AnswerBatch{Answers: []ItemAnswer{{
		InterruptID: it.ID, Status: "resolved", Payload: json.RawMessage(`{"name":"Ada","age":36}`),
	}}}); e != nil || !res.Continued {
		t.Fatalf("answer: %+v %v", res, e)
	}
	f.waitIdle(sent.ThreadID)
	if r := f.toolResult(sent.ThreadID, "call-elicit"); r.IsError || !strings.Contains(r.Content, "action=accept") || !strings.Contains(r.Content, "Ada") {
		t.Fatalf("elicitation result %+v", r)
	}
}

// Stop during a call the server never answers ends the run at once; the
// server hears notifications/cancelled and the result says side effects
// are unknown.
func TestMCPStopCancelsTheCall(t *testing.T) {
	t.Parallel()
	logs := t.TempDir()
	logPath := filepath.Join(logs, "cancel.log")
	startPath := filepath.Join(logs, "start.log")
	lp, _ := json.Marshal(logPath)
	sp, _ := json.Marshal(startPath)
	f := newMCPFixture(t, edgeConfigWriting(t, `,"EDGE_CANCEL_LOG":`+string(lp)+`,"EDGE_START_LOG":`+string(sp), logs))
	f.waitServer("edge", mcp.StatusReady)
	f.script(fakellm.Reply(fakellm.ToolCall(0, "call-hang", "edge__hang", `{}`)), fakellm.Reply(fakellm.Text("never")))
	sent := f.send("", "hang")
	waitFor(t, func() bool {
		var v ThreadView
		return f.call(&v, "GetThread", sent.ThreadID) == nil && v.ToolStates["call-hang"] == contract.ToolRunning
	})
	// The server has the call (a Stop before the request left would have
	// nothing to cancel).
	waitFor(t, func() bool { b, _ := os.ReadFile(startPath); return strings.HasPrefix(string(b), "started") })
	start := time.Now()
	f.must(nil, "Interrupt", sent.ThreadID)
	f.waitIdle(sent.ThreadID)
	took := time.Since(start)
	r := f.toolResult(sent.ThreadID, "call-hang")
	if !r.IsError || !strings.HasPrefix(r.Content, history.ResultInterruptedMidRun) {
		t.Fatalf("result %+v", r)
	}
	waitFor(t, func() bool { b, _ := os.ReadFile(logPath); return strings.HasPrefix(string(b), "cancelled ") })
	t.Logf("Stop during an MCP call settled in %v", took)
}

// The configuration through the bound methods: add, disable, broken file
// refused by the structured editor and fixed by the text editor; secrets
// never come back unmasked.
func TestMCPConfigurationMethods(t *testing.T) {
	t.Parallel()
	f := newMCPFixture(t, `{"mcpServers":{}}`)
	bin := edgeServer(t)
	var view MCPConfigView
	f.must(&view, "SaveMCPServer", "", "edge", mcp.ServerConfig{Command: bin})
	f.waitServer("edge", mcp.StatusReady)
	f.must(&view, "SaveMCPServer", "", "remote", mcp.ServerConfig{URL: "http://127.0.0.1:1/mcp", Headers: map[string]string{"Authorization": "Bearer sk-header-secret-123456"}})
	if strings.Contains(view.Text, "sk-header-secret") || len(view.Servers) != 2 {
		t.Fatalf("view %+v", view)
	}
	f.must(&view, "SetMCPServerEnabled", "edge", false)
	f.waitServer("edge", mcp.StatusDisabled)
	onDisk, _ := os.ReadFile(filepath.Join(f.dir, "mcp.json"))
	// The header's value is in the key storage; the file holds a reference.
	if strings.Contains(string(onDisk), "sk-header-secret") || !strings.Contains(string(onDisk), "${keychain:mcp/remote/header/Authorization}") || !strings.Contains(string(onDisk), `"disabled": true`) {
		t.Fatalf("on disk: %s", onDisk)
	}
	// Saving the masked view back keeps the stored secret.
	f.must(&view, "SaveMCPConfigText", view.Text)
	onDisk, _ = os.ReadFile(filepath.Join(f.dir, "mcp.json"))
	kept := f.svc.app.mcpCfg.Running().Servers["remote"].Headers["Authorization"]
	if kept != "Bearer sk-header-secret-123456" || strings.Contains(string(onDisk), "sk-header-secret") {
		t.Fatalf("the secret was lost (%q) or written: %s", kept, onDisk)
	}
	// A broken file: reported with its position, never overwritten.
	broken := "{\n  \"mcpServers\": {\n    \"edge\": {\"command\": 3}\n  }\n}\n"
	if e := f.call(&view, "SaveMCPConfigText", broken); e == nil || e.Details["line"] != "3" {
		t.Fatalf("a broken text was saved: %+v", e)
	}
	if err := os.WriteFile(filepath.Join(f.dir, "mcp.json"), []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	f.svc.app.mcp.Apply(f.svc.app.mcpCfg.Load())
	if e := f.call(&view, "GetMCPConfig"); e != nil || view.Error == nil || view.Error.Line != 3 {
		t.Fatalf("broken view %+v %v", view.Error, e)
	}
	if e := f.call(&view, "DeleteMCPServer", "edge"); e == nil || e.Code != CodeConflict {
		t.Fatalf("the structured editor wrote over a broken file: %v", e)
	}
	if b, _ := os.ReadFile(filepath.Join(f.dir, "mcp.json")); string(b) != broken {
		t.Fatal("the broken file changed")
	}
	var sum mcp.ImportSummary
	if e := f.call(&sum, "ImportClaudeConfig", `{"mcpServers":{"x":{"command":"npx"}}}`); e == nil {
		t.Fatal("importing over a broken file was accepted")
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// everythingConfig configures @modelcontextprotocol/server-everything
// (installed by make test) over stdio.
func everythingConfig(t *testing.T) string {
	t.Helper()
	index, err := filepath.Abs("../agent/mcp/testdata/servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(index); err != nil {
		if os.Getenv("JUNCTURE_REQUIRE_MCP") == "1" {
			t.Fatalf("server-everything is not installed: %v", err)
		}
		t.Skip("server-everything is not installed (make test runs npm ci in agent/mcp/testdata/servers)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	n, _ := json.Marshal(node)
	i, _ := json.Marshal(index)
	return `{"mcpServers":{"everything":{"command":` + string(n) + `,"args":[` + string(i) + `,"stdio"]}}}`
}

// Against a server nobody here wrote: elicitation answered and declined,
// sampling approved (the app's model answers) and denied, an image result,
// progress in the event stream, all through the runtime's real pauses.
func TestMCPEverythingThroughTheRuntime(t *testing.T) {
	t.Parallel()
	f := newMCPFixture(t, everythingConfig(t))
	st := f.waitServer("everything", mcp.StatusReady)
	names := map[string]bool{}
	for _, ti := range st.Tools {
		names[ti.ModelName] = true
	}
	for _, want := range []string{"everything__echo", "everything__trigger-elicitation-request", "everything__trigger-sampling-request", "everything__get-tiny-image"} {
		if !names[want] {
			t.Fatalf("%s missing from %v", want, names)
		}
	}
	thread := ""
	send := func(text string) {
		t.Helper()
		var sent SendResult
		if e := f.call(&sent, "SendInput", thread, text); e != nil {
			t.Fatal(e)
		}
		thread = sent.ThreadID
	}
	answer := func(it ItemAnswer) {
		t.Helper()
		var res AnswerResult
		if e := f.call(&res, "Answer", thread, AnswerBatch{Answers: []ItemAnswer{it}}); e != nil || !res.Continued {
			t.Fatalf("answer %+v: %+v %v", it, res, e)
		}
	}
	approve := func() {
		t.Helper()
		v := f.waitPending(thread, 1)
		answer(ItemAnswer{InterruptID: v.Interrupts[0].ID, Status: "resolved", Payload: json.RawMessage(`{"approved":true}`)})
	}

	// Elicitation: the call asks first (not read-only), then the server's
	// form is a question; the answer reaches the server.
	f.script(fakellm.Reply(fakellm.ToolCall(0, "call-e1", "everything__trigger-elicitation-request", `{}`)), fakellm.Reply(fakellm.Text("Thanks.")))
	send("elicit")
	approve()
	v := f.waitPending(thread, 1)
	answer(ItemAnswer{InterruptID: v.Interrupts[0].ID, Status: "resolved", Payload: json.RawMessage(`{"name":"Ada Lovelace","check":true}`)})
	f.waitIdle(thread)
	if r := f.toolResult(thread, "call-e1"); r.IsError || !strings.Contains(r.Content, "Name: Ada Lovelace") {
		t.Fatalf("accepted elicitation %+v", r)
	}
	// Declined.
	f.script(fakellm.Reply(fakellm.ToolCall(0, "call-e2", "everything__trigger-elicitation-request", `{}`)), fakellm.Reply(fakellm.Text("OK.")))
	send("elicit again")
	approve()
	v = f.waitPending(thread, 1)
	answer(ItemAnswer{InterruptID: v.Interrupts[0].ID, Status: "cancelled", Metadata: map[string]any{"action": "decline"}})
	f.waitIdle(thread)
	if r := f.toolResult(thread, "call-e2"); !strings.Contains(r.Content, "declined") {
		t.Fatalf("declined elicitation %+v", r)
	}

	// Sampling approved: the card shows the prompt; the app's model answers.
	f.script(fakellm.Reply(fakellm.ToolCall(0, "call-s1", "everything__trigger-sampling-request", `{"prompt":"Say hi","maxTokens":20}`)),
		fakellm.Reply(fakellm.Text("Hi from the model.")), fakellm.Reply(fakellm.Text("Done.")))
	send("sample")
	approve()
	v = f.waitPending(thread, 1)
	meta, _ := json.Marshal(v.Interrupts[0].Metadata[agent.MetaPrompt])
	if !strings.Contains(string(meta), `"kind":"sampling"`) || !strings.Contains(string(meta), "Say hi") || !strings.Contains(string(meta), `"maxTokens":20`) {
		t.Fatalf("sampling card %s", meta)
	}
	answer(ItemAnswer{InterruptID: v.Interrupts[0].ID, Status: "resolved", Payload: json.RawMessage(`{"approved":true}`)})
	f.waitIdle(thread)
	if r := f.toolResult(thread, "call-s1"); r.IsError || !strings.Contains(r.Content, "Hi from the model.") {
		t.Fatalf("sampling result %+v", r)
	}
	// Sampling denied: the server gets an error; the model is not asked.
	f.script(fakellm.Reply(fakellm.ToolCall(0, "call-s2", "everything__trigger-sampling-request", `{"prompt":"Again","maxTokens":5}`)), fakellm.Reply(fakellm.Text("Fine.")))
	send("sample again")
	approve()
	v = f.waitPending(thread, 1)
	answer(ItemAnswer{InterruptID: v.Interrupts[0].ID, Status: "resolved", Payload: json.RawMessage(`{"approved":false,"reason":"no"}`)})
	f.waitIdle(thread)
	if r := f.toolResult(thread, "call-s2"); !r.IsError || !strings.Contains(r.Content, "declined") {
		t.Fatalf("denied sampling %+v", r)
	}

	// An image result (a read-only tool: no question) is kept with the
	// thread as a part.
	f.script(fakellm.Reply(fakellm.ToolCall(0, "call-img", "everything__get-tiny-image", `{}`)), fakellm.Reply(fakellm.Text("A logo.")))
	send("image")
	f.waitIdle(thread)
	r := f.toolResult(thread, "call-img")
	if len(r.Parts) == 0 || r.Parts[0].Kind != history.PartImage || r.Parts[0].MimeType != "image/png" || !strings.Contains(r.Content, "[image: image/png") {
		t.Fatalf("image result %+v", r)
	}
}

// server-filesystem rooted in the workspace: the model writes through it
// after an approval (a destructive tool) and reads without one (read-only),
// and the file is really there.
func TestMCPFilesystemServerUnderApprovals(t *testing.T) {
	t.Parallel()
	index, err := filepath.Abs("../agent/mcp/testdata/servers/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
	if err != nil {
		t.Fatal(err)
	}
	everythingConfig(t) // skips (or fails under JUNCTURE_REQUIRE_MCP) when the npm servers are missing
	node, _ := exec.LookPath("node")
	ws := t.TempDir()
	n, _ := json.Marshal(node)
	i, _ := json.Marshal(index)
	w, _ := json.Marshal(ws)
	f := &fixture{t: t, fake: fakellm.Start(t), token: "test-token", dir: t.TempDir()}
	cfg := `{"mcpServers":{"files":{"command":` + string(n) + `,"args":[` + string(i) + `,` + string(w) + `]}}}`
	if err := os.WriteFile(filepath.Join(f.dir, "mcp.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	f.env = map[string]string{"OPENAI_BASE_URL": f.fake.URL, "JUNCTURE_MODEL": "fake-model", "JUNCTURE_WORKSPACE": ws}
	f.start(f.env)
	f.waitServer("files", mcp.StatusReady)

	target, _ := json.Marshal(filepath.Join(ws, "hello.txt"))
	f.script(fakellm.Reply(fakellm.ToolCall(0, "call-w", "files__write_file", `{"path":`+string(target)+`,"content":"written over MCP"}`)),
		fakellm.Reply(fakellm.ToolCall(0, "call-r", "files__read_text_file", `{"path":`+string(target)+`}`)),
		fakellm.Reply(fakellm.Text("Done.")))
	sent := f.send("", "write then read")
	v := f.waitPending(sent.ThreadID, 1)
	if v.Interrupts[0].ToolCallID != "call-w" {
		t.Fatalf("pending %+v", v.Interrupts)
	}
	if _, err := os.Stat(filepath.Join(ws, "hello.txt")); err == nil {
		t.Fatal("written before the approval")
	}
	var res AnswerResult
	f.must(&res, "Answer", sent.ThreadID, AnswerBatch{Answers: []ItemAnswer{{InterruptID: v.Interrupts[0].ID, Status: "resolved", Payload: json.RawMessage(`{"approved":true}`)}}})
	f.waitIdle(sent.ThreadID)
	if b, err := os.ReadFile(filepath.Join(ws, "hello.txt")); err != nil || string(b) != "written over MCP" {
		t.Fatalf("file %q (%v)", b, err)
	}
	if r := f.toolResult(sent.ThreadID, "call-r"); r.IsError || !strings.Contains(r.Content, "written over MCP") {
		t.Fatalf("read result %+v", r)
	}
}

// Regression (issue 20, bug 5): a restart while a 2026-07-28 server's
// question waits. The question was cancelled as "shown, not a form";
// asked by input_required it survives, and its answer retries the call.
// An older server's question still ends with its process: the call's
// result says what was asked, and the thread takes new input.
func TestMCPQuestionAfterARestart(t *testing.T) {
	t.Parallel()
	for _, legacy := range []bool{false, true} {
		extra := ""
		if legacy {
			extra = `,"EDGE_LEGACY":"1"`
		}
		f := newMCPFixture(t, edgeConfig(t, extra))
		f.waitServer("edge", mcp.StatusReady)
		f.script(fakellm.Reply(fakellm.ToolCall(0, "call-elicit", "edge__elicit", `{"message":"Which city?"}`)), fakellm.Reply(fakellm.Text("Nice.")))
		var sent SendResult
		if e := f.call(&sent, "SendInput", "", "elicit"); e != nil {
			t.Fatal(e)
		}
		f.waitPending(sent.ThreadID, 1)
		f.stop()
		f.start(f.env)
		var v ThreadView
		if e := f.call(&v, "GetThread", sent.ThreadID); e != nil {
			t.Fatal(e)
		}
		if !legacy {
			if len(v.Interrupts) != 1 || v.Running {
				t.Fatalf("after a restart: interrupts %+v running %v", v.Interrupts, v.Running)
			}
			f.waitServer("edge", mcp.StatusReady)
			var res AnswerResult
			if e := f.call(&res, "Answer", sent.ThreadID, AnswerBatch{Answers: []ItemAnswer{{
				InterruptID: v.Interrupts[0].ID, Status: "resolved", Payload: json.RawMessage(`{"name":"Ada"}`),
			}}}); e != nil || !res.Continued {
				t.Fatalf("answer: %+v %v", res, e)
			}
			f.waitIdle(sent.ThreadID)
			if r := f.toolResult(sent.ThreadID, "call-elicit"); r.IsError || r.Content != `action=accept content={"name":"Ada"}` {
				t.Fatalf("result %+v", r)
			}
			continue
		}
		if len(v.Interrupts) != 0 || v.Running {
			t.Fatalf("after a restart: interrupts %+v running %v", v.Interrupts, v.Running)
		}
		r := f.toolResult(sent.ThreadID, "call-elicit")
		if !r.IsError || !strings.HasPrefix(r.Content, history.ResultAppStoppedMidRun) || !strings.Contains(r.Content, "Which city?") || v.ToolStates["call-elicit"] != contract.ToolInterruptedMidRun {
			t.Fatalf("result %+v state %s", r, v.ToolStates["call-elicit"])
		}
		f.script(fakellm.Reply(fakellm.Text("Back.")))
		if e := f.call(&sent, "SendInput", sent.ThreadID, "hello again"); e != nil {
			t.Fatal(e)
		}
		f.waitIdle(sent.ThreadID)
	}
}

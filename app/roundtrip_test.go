package app

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/mcp"
)

// waitMCPReady polls until the server is ready (at most 20 s).
func waitMCPReady(a *App, name string) {
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		ss, _ := a.ListMCPServers()
		for _, s := range ss {
			if s.Name == name && s.Status == mcp.StatusReady {
				return
			}
		}
	}
}

// Issue 20, done when: a 2026-07-28 server (the edge server, written with
// go-sdk v1.8.0) asks by input_required; Juncture is killed with SIGKILL
// while the question waits, started again and the question answered: the
// call is retried once with the server's requestState, and the model
// reads exactly one result.
func TestMCPRoundTripQuestionSurvivesSIGKILL(t *testing.T) {
	fake := fakellm.Start(t)
	data, ws := t.TempDir(), t.TempDir()
	callLog := filepath.Join(t.TempDir(), "calls.log")
	bin, _ := json.Marshal(edgeServer(t))
	lp, _ := json.Marshal(callLog)
	ld, _ := json.Marshal(filepath.Dir(callLog)) // the server may write its log there (its sandbox)
	mcpPath := filepath.Join(data, "mcp.json")
	if err := os.WriteFile(mcpPath, []byte(`{"mcpServers":{"edge":{"command":`+string(bin)+`,"sandbox":{"write":[`+string(ld)+`]},"env":{"EDGE_CALL_LOG":`+string(lp)+`}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	fake.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "call-elicit", "edge__elicit", `{"message":"Which city?"}`)))
	fake.SetFallback(func(fakellm.Request) fakellm.Response { return fakellm.Reply(fakellm.Text("Nice city.")) })

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "JUNCTURE_CRASH_CHILD=1", "CRASH_DATA="+data, "CRASH_WS="+ws, "CRASH_FAKE_URL="+fake.URL,
		"CRASH_THREAD=th-mrtr", "CRASH_MCP="+mcpPath, "CRASH_WAIT_MCP=edge", "CRASH_REPORT_PENDING=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pending := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == "pending" {
				pending <- true
				return
			}
		}
		pending <- false
	}()
	select {
	case ok := <-pending:
		if !ok {
			_ = cmd.Wait()
			t.Fatalf("the child ended before the question waited:\n%s", stderr.String())
		}
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("the question never waited:\n%s", stderr.String())
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	// The killed app's stdio server loses its stdin and exits by itself.

	a := restartAfterKill(t, Config{DataDir: data, Mode: "browser", MCPConfigPath: mcpPath, Getenv: func(k string) string {
		return map[string]string{"OPENAI_BASE_URL": fake.URL, "JUNCTURE_MODEL": "fake-model", "JUNCTURE_WORKSPACE": ws}[k]
	}})
	v, err := a.GetThread("th-mrtr")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Interrupts) != 1 || v.Interrupts[0].ToolCallID != "call-elicit" || v.InterruptKinds[v.Interrupts[0].ID] != "generic" {
		t.Fatalf("after the restart the question is gone: %+v", v.Interrupts)
	}
	waitMCPReady(a, "edge")
	res, err := a.Answer("th-mrtr", AnswerBatch{Answers: []ItemAnswer{{InterruptID: v.Interrupts[0].ID, Status: "resolved", Payload: json.RawMessage(`{"name":"Ada","age":36}`)}}})
	if err != nil || !res.Continued {
		t.Fatalf("answer: %+v %v", res, err)
	}
	waitFor(t, func() bool { running, _ := a.rt.Running("th-mrtr"); return !running })
	v, _ = a.GetThread("th-mrtr")
	var results []history.Message
	for _, m := range v.Messages {
		if m.Role == history.RoleTool && m.ToolCallID == "call-elicit" {
			results = append(results, m)
		}
	}
	if len(results) != 1 || results[0].IsError || results[0].Content != `action=accept content={"age":36,"name":"Ada"}` {
		t.Fatalf("results %+v", results)
	}
	b, _ := os.ReadFile(callLog)
	want := "elicit state= responses=0\nelicit state=edge-v1:elicit responses=1\n"
	if string(b) != want {
		t.Fatalf("the server saw\n%s\nwant\n%s", b, want)
	}
	// The turn's requests only: the thread's title is asked for apart, by
	// the child or after the restart, whenever the runtime gets to it (under
	// load it came last and was read as the continuation).
	var reqs []fakellm.Request
	for _, r := range fake.Requests() {
		if !isTitleRequest(r) {
			reqs = append(reqs, r)
		}
	}
	last := reqs[len(reqs)-1]
	n := 0
	for _, m := range last.Messages {
		if m.Role == "tool" && m.ToolCallID == "call-elicit" {
			n++
		}
	}
	if n != 1 || len(reqs) != 2 {
		t.Fatalf("the model read %d results in %d requests", n, len(reqs))
	}
	assertValidForModel(t, v.Messages)
}

// Regression (issue 20, bug 4): two chats call one older server (it says
// not which call its questions serve) that asks in both. Chat B's call
// waits while chat A's question waits, with no card of its own yet; once
// A is answered, B's question is B's own card, never answered "cancel"
// unseen.
func TestMCPTwoChatsAskingOneOlderServer(t *testing.T) {
	t.Parallel()
	f := newMCPFixture(t, edgeConfig(t, `,"EDGE_LEGACY":"1"`))
	f.waitServer("edge", mcp.StatusReady)
	f.fake.SetFallback(func(r fakellm.Request) fakellm.Response {
		last := r.Messages[len(r.Messages)-1]
		if last.Role == "user" {
			id := "call-" + last.Content
			return fakellm.Reply(fakellm.ToolCall(0, id, "edge__elicit", `{"message":"Question `+last.Content+`"}`))
		}
		return fakellm.Reply(fakellm.Text("Thanks."))
	})
	var a, b SendResult
	a = f.send("", "A")
	va := f.waitPending(a.ThreadID, 1)
	b = f.send("", "B")
	waitFor(t, func() bool {
		var v ThreadView
		return f.call(&v, "GetThread", b.ThreadID) == nil && v.ToolStates["call-B"] == "running"
	})
	time.Sleep(200 * time.Millisecond) // B's call waits; a question of its own would show by now
	var vb ThreadView
	if e := f.call(&vb, "GetThread", b.ThreadID); e != nil || len(vb.Interrupts) != 0 {
		t.Fatalf("B while A waits: %+v %v", vb.Interrupts, e)
	}
	var res AnswerResult
	if e := f.call(&res, "Answer", a.ThreadID, AnswerBatch{Answers: []ItemAnswer{{InterruptID: va.Interrupts[0].ID, Status: "resolved", Payload: json.RawMessage(`{"name":"A"}`)}}}); e != nil || !res.Continued {
		t.Fatalf("answer A: %+v %v", res, e)
	}
	f.waitIdle(a.ThreadID)
	if r := f.toolResult(a.ThreadID, "call-A"); r.Content != `action=accept content={"name":"A"}` {
		t.Fatalf("A: %+v", r)
	}
	vb = f.waitPending(b.ThreadID, 1)
	if vb.Interrupts[0].ToolCallID != "call-B" {
		t.Fatalf("B's card %+v", vb.Interrupts[0])
	}
	if e := f.call(&res, "Answer", b.ThreadID, AnswerBatch{Answers: []ItemAnswer{{InterruptID: vb.Interrupts[0].ID, Status: "resolved", Payload: json.RawMessage(`{"name":"B"}`)}}}); e != nil || !res.Continued {
		t.Fatalf("answer B: %+v %v", res, e)
	}
	f.waitIdle(b.ThreadID)
	if r := f.toolResult(b.ThreadID, "call-B"); r.Content != `action=accept content={"name":"B"}` {
		t.Fatalf("B: %+v", r)
	}
}

package app

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/fakellm"
)

// waitClient waits until the thread is idle with n client calls pending.
func (f *fixture) waitClient(threadID string, n int) ThreadView {
	f.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var v ThreadView
		if e := f.call(&v, "GetThread", threadID); e == nil && !v.Running && len(v.ClientTools) == n {
			return v
		}
		time.Sleep(10 * time.Millisecond)
	}
	f.t.Fatalf("thread %s: %d client calls never pending", threadID, n)
	return ThreadView{}
}

// approve answers one approval through POST /api/call/Answer.
func (f *fixture) approve(threadID, interruptID string) AnswerResult {
	f.t.Helper()
	var res AnswerResult
	if e := f.call(&res, "Answer", threadID, AnswerBatch{Answers: []ItemAnswer{{
		InterruptID: interruptID, Status: "resolved", Payload: json.RawMessage(`{"approved":true}`),
	}}}); e != nil {
		f.t.Fatalf("approving %s: %v", interruptID, e)
	}
	return res
}

// sendApproved sends text on a new thread, waits for the one approval it
// raises and approves it (the continuation must start). It returns the
// thread.
func (f *fixture) sendApproved(text, interruptID string) string {
	f.t.Helper()
	var sent SendResult
	if e := f.call(&sent, "SendInput", "", text); e != nil {
		f.t.Fatal(e)
	}
	f.waitPending(sent.ThreadID, 1)
	if res := f.approve(sent.ThreadID, interruptID); !res.Continued {
		f.t.Fatalf("approving %s: %+v", interruptID, res)
	}
	return sent.ThreadID
}

func TestCompleteClientToolContinues(t *testing.T) {
	f := newFixture(t, nil)
	f.script(fakellm.Reply(fakellm.ToolCall(0, "call-c", "copy_to_clipboard", `{"text":"hello"}`)), fakellm.Reply(fakellm.Text("Copied.")))
	sent := f.send("", "copy hello")
	// Copying replaces what the person has on the clipboard: it asks first.
	v := f.waitPending(sent.ThreadID, 1)
	if v.ToolStates["call-c"] != contract.ToolAwaitingApproval || v.Interrupts[0].ID != "approval_call-c" || len(v.ClientTools) != 0 {
		t.Fatalf("before approval: %+v", v)
	}
	if e := f.call(nil, "CompleteClientTool", sent.ThreadID, "call-c", ToolOutput{Content: "copied"}); e == nil || e.Code != CodeNotFound {
		t.Fatalf("completing an unapproved call: %v", e)
	}
	// ResolveInterrupts is Answer for the whole batch.
	if e := f.call(nil, "ResolveInterrupts", sent.ThreadID, []map[string]any{{
		"interruptId": "approval_call-c", "status": "resolved", "payload": map[string]any{"approved": true},
	}}); e != nil {
		t.Fatalf("approving: %v", e)
	}
	v = f.waitClient(sent.ThreadID, 1)
	if v.ToolStates["call-c"] != contract.ToolPendingClient || v.ClientTools[0].ToolName != "copy_to_clipboard" || len(v.Interrupts) != 0 {
		t.Fatalf("view %+v", v)
	}
	if e := f.call(nil, "CompleteClientTool", sent.ThreadID, "call-unknown", ToolOutput{Content: "x"}); e == nil || e.Code != CodeNotFound {
		t.Fatalf("unknown id: %v", e)
	}
	f.must(nil, "CompleteClientTool", sent.ThreadID, "call-c", ToolOutput{Content: "copied"})
	f.waitIdle(sent.ThreadID)
	v = f.waitClient(sent.ThreadID, 0)
	last := v.Messages[len(v.Messages)-1]
	if last.Content != "Copied." || v.ToolStates["call-c"] != contract.ToolDone {
		t.Fatalf("last message %+v, states %v", last, v.ToolStates)
	}
}

func TestAGUIToolMessageCompletesClientCall(t *testing.T) {
	f := newFixture(t, nil)
	f.script(fakellm.Reply(fakellm.ToolCall(0, "call-c", "copy_to_clipboard", `{"text":"hello"}`)), fakellm.Reply(fakellm.Text("Copied.")))
	in := map[string]any{
		"threadId": "th-c", "runId": "run-1", "protocolVersion": "1.0",
		"messages": []any{map[string]any{"id": "u1", "role": "user", "content": "copy hello"}},
	}
	post := func() []byte {
		resp := f.request("POST", "/agui", in, nil)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return b
	}
	first := post()
	if !strings.Contains(string(first), `"type":"interrupt"`) || !strings.Contains(string(first), `"id":"approval_call-c"`) ||
		!strings.Contains(string(first), string(contract.ToolAwaitingApproval)) || strings.Contains(string(first), "pendingToolCallIds") {
		t.Fatalf("first run:\n%s", first)
	}
	f.waitPending("th-c", 1)
	in["runId"], in["parentRunId"] = "run-2", "run-1"
	in["resume"] = []any{map[string]any{"interruptId": "approval_call-c", "status": "resolved", "payload": map[string]any{"approved": true}}}
	second := post()
	if !strings.Contains(string(second), `"pendingToolCallIds":["call-c"]`) || !strings.Contains(string(second), string(contract.ToolPendingClient)) {
		t.Fatalf("approved run:\n%s", second)
	}
	f.waitClient("th-c", 1)
	delete(in, "resume")
	in["runId"], in["parentRunId"] = "run-3", "run-2"
	in["messages"] = []any{map[string]any{"id": "t1", "role": "tool", "toolCallId": "call-c", "content": "copied"}}
	third := post()
	s := string(third)
	for _, want := range []string{`"runId":"run-3"`, `"parentRunId":"run-2"`, `"type":"TOOL_CALL_RESULT"`, `"toolCallId":"call-c"`, `"Copied."`} {
		if !strings.Contains(s, want) {
			t.Fatalf("missing %s in\n%s", want, s)
		}
	}
	f.waitIdle("th-c")
	v := f.waitClient("th-c", 0)
	if v.ToolStates["call-c"] != contract.ToolDone || v.Messages[len(v.Messages)-1].Content != "Copied." {
		t.Fatalf("after completing: states %v, messages %+v", v.ToolStates, v.Messages)
	}
	validateAGUI(t, append(append(first, second...), third...))
}

// A run's terminal event is the last thing it does: a client that starts
// the next run the moment it reads RUN_FINISHED is never told the thread
// is busy.
func TestAGUIFollowUpRightAfterRunFinishedIsNotBusy(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.SetFallback(func(r fakellm.Request) fakellm.Response {
		if isTitleRequest(r) {
			return fakellm.Reply(fakellm.Text("Title"))
		}
		return fakellm.Reply(fakellm.Text("Answer to " + r.LastUser() + "."))
	})
	var msgs []any
	var all []byte
	var prev io.ReadCloser
	for i := 1; i <= 8; i++ {
		msgs = append(msgs, map[string]any{"id": fmt.Sprintf("u%d", i), "role": "user", "content": fmt.Sprintf("question %d", i)})
		in := map[string]any{"threadId": "th-quick", "runId": fmt.Sprintf("run-%d", i), "protocolVersion": "1.0", "messages": msgs}
		resp := f.request("POST", "/agui", in, nil)
		if prev != nil {
			rest, _ := io.ReadAll(prev)
			prev.Close()
			all = append(all, rest...)
		}
		// Read up to RUN_FINISHED only; the next request goes out at once.
		var run []byte
		sc := bufio.NewReader(resp.Body)
		finished := false
		for !finished {
			line, err := sc.ReadBytes('\n')
			run = append(run, line...)
			if err != nil {
				break
			}
			if strings.Contains(string(line), `"type":"RUN_ERROR"`) {
				resp.Body.Close()
				t.Fatalf("run %d refused:\n%s", i, run)
			}
			finished = strings.Contains(string(line), `"type":"RUN_FINISHED"`)
		}
		if !finished || !strings.Contains(string(run), fmt.Sprintf("Answer to question %d.", i)) {
			resp.Body.Close()
			t.Fatalf("run %d:\n%s", i, run)
		}
		all = append(all, run...)
		prev = struct {
			io.Reader
			io.Closer
		}{sc, resp.Body}
	}
	rest, _ := io.ReadAll(prev)
	prev.Close()
	all = append(all, rest...)
	validateAGUI(t, all)
	f.waitIdle("th-quick")
	var v ThreadView
	if e := f.call(&v, "GetThread", "th-quick"); e != nil || len(v.Messages) != 16 {
		t.Fatalf("history %+v %v", v.Messages, e)
	}
}

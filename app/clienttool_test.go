package app

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent"
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

func TestCompleteClientToolContinues(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.SetFallback(func(fakellm.Request) fakellm.Response { return fakellm.Reply(fakellm.Text("Title")) })
	f.fake.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "call-c", "copy_to_clipboard", `{"text":"hello"}`)), fakellm.Reply(fakellm.Text("Copied.")))
	var sent SendResult
	if e := f.call(&sent, "SendInput", "", "copy hello"); e != nil {
		t.Fatal(e)
	}
	v := f.waitClient(sent.ThreadID, 1)
	if v.ToolStates["call-c"] != agent.ToolPendingClient || v.ClientTools[0].ToolName != "copy_to_clipboard" {
		t.Fatalf("view %+v", v)
	}
	if e := f.call(nil, "CompleteClientTool", sent.ThreadID, "call-unknown", ToolOutput{Content: "x"}); e == nil || e.Code != CodeNotFound {
		t.Fatalf("unknown id: %v", e)
	}
	if e := f.call(nil, "CompleteClientTool", sent.ThreadID, "call-c", ToolOutput{Content: "copied"}); e != nil {
		t.Fatal(e)
	}
	f.waitIdle(sent.ThreadID)
	v = f.waitClient(sent.ThreadID, 0)
	last := v.Messages[len(v.Messages)-1]
	if last.Content != "Copied." {
		t.Fatalf("last message %+v", last)
	}
}

func TestAGUIToolMessageCompletesClientCall(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.SetFallback(func(fakellm.Request) fakellm.Response { return fakellm.Reply(fakellm.Text("Title")) })
	f.fake.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "call-c", "copy_to_clipboard", `{"text":"hello"}`)), fakellm.Reply(fakellm.Text("Copied.")))
	in := map[string]any{
		"threadId": "th-c", "runId": "run-1", "protocolVersion": "1.0",
		"messages": []any{map[string]any{"id": "u1", "role": "user", "content": "copy hello"}},
	}
	resp := f.request("POST", "/agui", in, nil)
	first, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(first), `"pendingToolCallIds":["call-c"]`) || !strings.Contains(string(first), agent.ToolPendingClient) {
		t.Fatalf("first run:\n%s", first)
	}
	f.waitClient("th-c", 1)
	in["runId"], in["parentRunId"] = "run-2", "run-1"
	in["messages"] = []any{map[string]any{"id": "t1", "role": "tool", "toolCallId": "call-c", "content": "copied"}}
	resp = f.request("POST", "/agui", in, nil)
	second, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	s := string(second)
	for _, want := range []string{`"parentRunId":"run-1"`, `"type":"TOOL_CALL_RESULT"`, `"toolCallId":"call-c"`, `"Copied."`} {
		if !strings.Contains(s, want) {
			t.Fatalf("missing %s in\n%s", want, s)
		}
	}
	f.waitIdle("th-c")
	f.waitClient("th-c", 0)
	validateAGUI(t, append(first, second...))
}

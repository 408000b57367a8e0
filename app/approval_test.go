package app

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
)

func (f *fixture) enableWriteTools() {
	f.t.Helper()
	st := f.svc.app.GetSettings().Settings
	st.EnableWriteTools = true
	if _, err := f.svc.app.SaveSettings(st); err != nil {
		f.t.Fatal(err)
	}
}

// waitPending waits until the thread is idle with n approvals pending.
func (f *fixture) waitPending(threadID string, n int) ThreadView {
	f.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var v ThreadView
		if e := f.call(&v, "GetThread", threadID); e == nil && !v.Running && len(v.Interrupts) == n {
			return v
		}
		time.Sleep(10 * time.Millisecond)
	}
	f.t.Fatalf("thread %s: %d approvals never pending", threadID, n)
	return ThreadView{}
}

func writeCall(id, path, content string) fakellm.Step {
	b, _ := json.Marshal(map[string]string{"path": path, "content": content})
	return fakellm.ToolCall(0, id, "write_file", string(b))
}

func TestAGUIResumeRunsTheApprovedCall(t *testing.T) {
	f := newFixture(t, nil)
	f.enableWriteTools()
	ws := os.Getenv("JUNCTURE_WORKSPACE")
	f.script(fakellm.Reply(writeCall("call-w", "a.txt", "hello")), fakellm.Reply(fakellm.Text("Written.")))
	in := map[string]any{
		"threadId": "th-a", "runId": "run-1", "protocolVersion": "1.0",
		"messages": []any{map[string]any{"id": "u1", "role": "user", "content": "write a.txt"}},
	}
	resp := f.request("POST", "/agui", in, nil)
	first, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(first), `"type":"interrupt"`) || !strings.Contains(string(first), `"id":"approval_call-w"`) {
		t.Fatalf("first run:\n%s", first)
	}
	v := f.waitPending("th-a", 1)
	if v.ToolStates["call-w"] != contract.ToolAwaitingApproval || v.Interrupts[0].Metadata[agent.MetaPreview] == nil {
		t.Fatalf("thread view %+v", v)
	}
	if _, err := os.Stat(filepath.Join(ws, "a.txt")); err == nil {
		t.Fatal("the file was written before approval")
	}
	// Input without resume while the approval waits is refused.
	in["runId"] = "run-x"
	resp = f.request("POST", "/agui", in, nil)
	refused, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(refused), `"type":"RUN_ERROR"`) || !strings.Contains(string(refused), "incomplete-batch") {
		t.Fatalf("input without resume:\n%s", refused)
	}
	f.waitPending("th-a", 1)

	in["runId"], in["parentRunId"] = "run-2", "run-1"
	in["resume"] = []any{map[string]any{"interruptId": "approval_call-w", "status": "resolved", "payload": map[string]any{"approved": true}}}
	resp = f.request("POST", "/agui", in, nil)
	second, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	s := string(second)
	for _, want := range []string{`"parentRunId":"run-1"`, `"type":"TOOL_CALL_RESULT"`, `"toolCallId":"call-w"`, `"type":"RUN_FINISHED"`, `"Written."`} {
		if !strings.Contains(s, want) {
			t.Fatalf("missing %s in\n%s", want, s)
		}
	}
	if b, err := os.ReadFile(filepath.Join(ws, "a.txt")); err != nil || string(b) != "hello" {
		t.Fatalf("file %q %v", b, err)
	}
	f.waitIdle("th-a")
	validateAGUI(t, append(append(first, refused...), second...))
}

func TestRespondPermissionRemembersAndContinues(t *testing.T) {
	f := newFixture(t, nil)
	f.enableWriteTools()
	f.script(fakellm.Reply(writeCall("call-1", "b.txt", "one")), fakellm.Reply(fakellm.Text("Done.")),
		fakellm.Reply(writeCall("call-2", "b.txt", "two")), fakellm.Reply(fakellm.Text("Again.")))
	sent := f.send("", "write b.txt")
	f.waitPending(sent.ThreadID, 1)
	f.must(nil, "RespondPermission", sent.ThreadID, "call-1", true, RememberScope{Scope: history.ScopeTool})
	f.waitIdle(sent.ThreadID)
	var rules []history.PermissionRule
	if e := f.call(&rules, "ListPermissionRules"); e != nil || len(rules) != 1 || rules[0].Tool != "write_file" {
		t.Fatalf("rules %+v %v", rules, e)
	}
	// The rule covers the next write: it runs without asking.
	f.must(nil, "SendInput", sent.ThreadID, "again")
	f.waitIdle(sent.ThreadID)
	var v ThreadView
	if e := f.call(&v, "GetThread", sent.ThreadID); e != nil || len(v.Interrupts) != 0 {
		t.Fatalf("view %+v %v", v, e)
	}
	if b, _ := os.ReadFile(filepath.Join(os.Getenv("JUNCTURE_WORKSPACE"), "b.txt")); string(b) != "two" {
		t.Fatalf("file %q", b)
	}
	// Nothing waits now.
	if e := f.call(nil, "RespondPermission", sent.ThreadID, "call-2", false, nil); e == nil || e.Code != CodeNotFound {
		t.Fatalf("answer without pending: %+v", e)
	}
	_ = context.Background
}

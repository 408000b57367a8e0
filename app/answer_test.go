package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
)

// isTitleRequest reports whether the runtime asks the model to name a
// thread (it does so in the background after a first exchange).
func isTitleRequest(r fakellm.Request) bool {
	return len(r.Messages) > 0 && r.Messages[0].Role == "system" && strings.HasPrefix(r.Messages[0].Content, "Write a short title")
}

// script answers the turn's model calls with rs in order, and every title
// request with "Title", however the two interleave.
func (f *fixture) script(rs ...fakellm.Response) { scriptServer(f.fake, rs...) }

func writeCallAt(index int, id, path, content string) fakellm.Step {
	b, _ := json.Marshal(map[string]string{"path": path, "content": content})
	return fakellm.ToolCall(index, id, "write_file", string(b))
}

// Answering a batch of two approvals one at a time over POST
// /api/call/Answer: the first answer is kept (a restart keeps it too), its
// "Always allow" waits for the batch, and the second answer continues.
func TestAnswerKeepsPartialAnswersAcrossARestart(t *testing.T) {
	f := newFixture(t, nil)
	ws := f.env["JUNCTURE_WORKSPACE"]
	f.script(fakellm.Reply(writeCallAt(0, "call-a", "a.txt", "A"), writeCallAt(1, "call-b", "b.txt", "B")), fakellm.Reply(fakellm.Text("Both written.")))
	sent := f.send("", "write two files")
	v := f.waitPending(sent.ThreadID, 2)
	if v.Interrupts[0].ID != "approval_call-a" || v.Interrupts[1].ID != "approval_call-b" {
		t.Fatalf("interrupts %+v", v.Interrupts)
	}

	var res AnswerResult
	if e := f.call(&res, "Answer", sent.ThreadID, AnswerBatch{Answers: []ItemAnswer{{
		InterruptID: "approval_call-a", Status: "resolved", Payload: json.RawMessage(`{"approved":true}`),
		Remember: &RememberScope{Scope: history.ScopeTool},
	}}}); e != nil {
		t.Fatal(e)
	}
	if res.Continued || res.RunID != "" || !slices.Equal(res.Waiting, []string{"approval_call-b"}) {
		t.Fatalf("first answer: %+v", res)
	}
	check := func(when string) {
		t.Helper()
		var v ThreadView
		if e := f.call(&v, "GetThread", sent.ThreadID); e != nil {
			t.Fatal(e)
		}
		if v.Running || len(v.Interrupts) != 2 || !slices.Equal(v.Answered, []string{"approval_call-a"}) ||
			v.ToolStates["call-a"] != contract.ToolAwaitingApproval || v.ToolStates["call-b"] != contract.ToolAwaitingApproval {
			t.Fatalf("%s: running %v, interrupts %d, answered %v, states %v", when, v.Running, len(v.Interrupts), v.Answered, v.ToolStates)
		}
		var rules []history.PermissionRule
		if e := f.call(&rules, "ListPermissionRules"); e != nil || len(rules) != 0 {
			t.Fatalf("%s: the rule was written before the batch was accepted: %+v %v", when, rules, e)
		}
		for _, name := range []string{"a.txt", "b.txt"} {
			if _, err := os.Stat(filepath.Join(ws, name)); err == nil {
				t.Fatalf("%s: %s was written before the batch was complete", when, name)
			}
		}
	}
	check("after the first answer")

	f.stop()
	f.start(f.env)
	check("after a restart")
	var page ThreadPage
	if e := f.call(&page, "ListThreads", "", 10); e != nil || len(page.Threads) != 1 || page.Threads[0].Waiting != 2 {
		t.Fatalf("list after restart: %+v %v", page, e)
	}

	res = f.approve(sent.ThreadID, "approval_call-b")
	if !res.Continued || res.RunID == "" || len(res.Waiting) != 0 || res.Waiting == nil {
		t.Fatalf("second answer: %+v", res)
	}
	f.waitIdle(sent.ThreadID)
	for name, want := range map[string]string{"a.txt": "A", "b.txt": "B"} {
		if b, err := os.ReadFile(filepath.Join(ws, name)); err != nil || string(b) != want {
			t.Fatalf("%s: %q %v", name, b, err)
		}
	}
	var rules []history.PermissionRule
	if e := f.call(&rules, "ListPermissionRules"); e != nil || len(rules) != 1 || rules[0].Tool != "write_file" || rules[0].Scope != history.ScopeTool {
		t.Fatalf("rules after the batch: %+v %v", rules, e)
	}
	f.must(&v, "GetThread", sent.ThreadID)
	if len(v.Interrupts) != 0 || len(v.Answered) != 0 || v.ToolStates["call-a"] != contract.ToolDone || v.ToolStates["call-b"] != contract.ToolDone ||
		v.Messages[len(v.Messages)-1].Content != "Both written." {
		t.Fatalf("after the continuation: interrupts %v, answered %v, states %v, messages %+v", v.Interrupts, v.Answered, v.ToolStates, v.Messages)
	}
}

// An answer for an approval that was already settled is too late
// (conflict); it changes nothing and starts no run.
func TestAnswerToASettledApprovalIsTooLate(t *testing.T) {
	f := newFixture(t, nil)
	f.script(fakellm.Reply(writeCallAt(0, "call-a", "a.txt", "A")), fakellm.Reply(fakellm.Text("Written.")))
	sent := SendResult{ThreadID: f.sendApproved("write a.txt", "approval_call-a")}
	f.waitIdle(sent.ThreadID)
	var before ThreadView
	f.must(&before, "GetThread", sent.ThreadID)
	var res AnswerResult
	e := f.call(&res, "Answer", sent.ThreadID, AnswerBatch{Answers: []ItemAnswer{{
		InterruptID: "approval_call-a", Status: "resolved", Payload: json.RawMessage(`{"approved":true}`),
	}}})
	f.waitIdle(sent.ThreadID)
	var after ThreadView
	if err := f.call(&after, "GetThread", sent.ThreadID); err != nil {
		t.Fatal(err)
	}
	if e == nil || e.Code != CodeConflict {
		t.Errorf("answering a settled approval: err %+v, result %+v", e, res)
	}
	if len(after.Messages) != len(before.Messages) {
		t.Errorf("a late answer changed the thread: %d messages before, %d after; last %+v", len(before.Messages), len(after.Messages), after.Messages[len(after.Messages)-1])
	}
}

// A denied approval and a dismissed question are told apart after a
// reload ("denied", "interrupted"), never shown as failures. The approval
// is answered with RespondPermission, which cannot complete a batch that
// also holds a question: it says so (code "pending") and keeps the answer.
func TestDeniedAndDismissedStatesSurviveAReload(t *testing.T) {
	f := newFixture(t, nil)
	ws := f.env["JUNCTURE_WORKSPACE"]
	f.script(fakellm.Reply(writeCallAt(0, "call-w", "w.txt", "x"), fakellm.ToolCall(1, "call-q", "ask_user", `{"question":"Which colour?"}`)),
		fakellm.Reply(fakellm.Text("Understood.")))
	sent := f.send("", "write w.txt and ask me")
	v := f.waitPending(sent.ThreadID, 2)
	var questionID string
	for id, kind := range v.InterruptKinds {
		if kind == "generic" {
			questionID = id
		}
	}
	if questionID == "" || v.InterruptKinds["approval_call-w"] != "tool-approval" || v.ToolStates["call-q"] != contract.ToolAwaitingAnswer {
		t.Fatalf("view %+v", v)
	}

	e := f.call(nil, "RespondPermission", sent.ThreadID, "call-w", false, nil)
	if e == nil || e.Code != CodePending || !strings.Contains(e.Details["waiting"], questionID) {
		t.Fatalf("RespondPermission with a question waiting: %+v", e)
	}
	if e := f.call(&v, "GetThread", sent.ThreadID); e != nil || !slices.Equal(v.Answered, []string{"approval_call-w"}) || len(v.Interrupts) != 2 {
		t.Fatalf("the denial was not kept: answered %v, interrupts %v, err %v", v.Answered, v.Interrupts, e)
	}

	var res AnswerResult
	if e := f.call(&res, "Answer", sent.ThreadID, AnswerBatch{Answers: []ItemAnswer{{InterruptID: questionID, Status: "cancelled"}}}); e != nil || !res.Continued {
		t.Fatalf("dismissing the question: %+v %v", res, e)
	}
	f.waitIdle(sent.ThreadID)
	if _, err := os.Stat(filepath.Join(ws, "w.txt")); err == nil {
		t.Fatal("a denied write ran")
	}

	f.stop()
	f.start(f.env)
	f.must(&v, "GetThread", sent.ThreadID)
	if got := v.ToolStates["call-w"]; got != contract.ToolDenied {
		t.Errorf("denied approval after reload: %q, want %q", got, contract.ToolDenied)
	}
	if got := v.ToolStates["call-q"]; got != contract.ToolInterrupted {
		t.Errorf("dismissed question after reload: %q, want %q", got, contract.ToolInterrupted)
	}
	if len(v.Interrupts) != 0 || len(v.Answered) != 0 || v.Messages[len(v.Messages)-1].Content != "Understood." {
		t.Errorf("after reload: interrupts %v, answered %v, messages %+v", v.Interrupts, v.Answered, v.Messages)
	}
	// Over the wire the states are the contract's strings.
	resp := f.request("POST", "/api/call/GetThread", []any{sent.ThreadID}, nil)
	defer resp.Body.Close()
	var raw struct {
		ToolStates map[string]string `json:"toolStates"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&raw); err != nil || raw.ToolStates["call-w"] != "denied" || raw.ToolStates["call-q"] != "interrupted" {
		t.Fatalf("raw tool states %v %v", raw.ToolStates, err)
	}
}

// Calls run in the model's order: a plain call behind an undecided
// approval does not run before it, and until then it is shown as neither
// run nor interrupted (it runs in the continuation).
func TestCallsBehindAnApprovalWaitTheirTurn(t *testing.T) {
	f := newFixture(t, nil)
	ws := f.env["JUNCTURE_WORKSPACE"]
	f.script(fakellm.Reply(writeCallAt(0, "call-w", "w.txt", "x"), fakellm.ToolCall(1, "call-l", "list_files", `{}`)),
		fakellm.Reply(fakellm.Text("Listed.")))
	sent := f.send("", "write then list")
	v := f.waitPending(sent.ThreadID, 1)
	for _, m := range v.Messages {
		if m.Role == history.RoleTool {
			t.Fatalf("a call ran before the approval ahead of it: %+v", m)
		}
	}
	if st, ok := v.ToolStates["call-l"]; ok {
		t.Errorf("the call behind the approval shows %q before it ran", st)
	}
	if v.ToolStates["call-w"] != contract.ToolAwaitingApproval {
		t.Errorf("states %v", v.ToolStates)
	}
	f.approve(sent.ThreadID, "approval_call-w")
	f.waitIdle(sent.ThreadID)
	f.must(&v, "GetThread", sent.ThreadID)
	var order []string
	for _, m := range v.Messages {
		if m.Role == history.RoleTool {
			order = append(order, m.ToolCallID)
			if m.ToolCallID == "call-l" && !strings.Contains(m.Content, "w.txt") {
				t.Errorf("list_files ran before the write: %q", m.Content)
			}
		}
	}
	if !slices.Equal(order, []string{"call-w", "call-l"}) || v.ToolStates["call-w"] != contract.ToolDone || v.ToolStates["call-l"] != contract.ToolDone {
		t.Fatalf("results %v, states %v", order, v.ToolStates)
	}
	if _, err := os.Stat(filepath.Join(ws, "w.txt")); err != nil {
		t.Fatal(err)
	}
}

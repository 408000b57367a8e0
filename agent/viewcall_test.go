package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
)

// viewTools: srv__show (ungated, its result holds a view), srv__act
// (gated), other__act (another server's), srv__tally (its views' only:
// _meta.ui.visibility ["app"]), next to the built-ins.
func newViewHarness(t *testing.T) (*harness, func() []string) {
	var mu sync.Mutex
	var runs []string
	schema := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)
	run := func(name string) func(context.Context, json.RawMessage) (tools.Result, error) {
		return func(_ context.Context, args json.RawMessage) (tools.Result, error) {
			mu.Lock()
			runs = append(runs, name+" "+string(args))
			mu.Unlock()
			return tools.Result{Content: name + " ran"}, nil
		}
	}
	gated := func(json.RawMessage) bool { return true }
	reg, err := tools.NewRegistry(append(tools.Builtins(tools.Workspace{Root: t.TempDir()}, tools.BuiltinOptions{}),
		tools.Tool{Name: "srv__show", Source: "srv", Description: "shows", Schema: schema, Run: run("show")},
		tools.Tool{Name: "srv__act", Source: "srv", Description: "acts", Schema: schema, NeedsApproval: gated, Run: run("act")},
		tools.Tool{Name: "other__act", Source: "other", Description: "acts", Schema: schema, NeedsApproval: gated, Run: run("other")},
		tools.Tool{Name: "srv__tally", Source: "srv", Description: "for its views only", Schema: schema, ViewOnly: true, Run: run("tally")},
	)...)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, func(o *agent.Options) { o.Tools = func(context.Context, string) *tools.Registry { return reg } })
	return h, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), runs...) }
}

// showView: the model calls srv__show (it runs), then answers.
func showView(t *testing.T, h *harness, thread string) {
	h.srv.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "call-show", "srv__show", `{}`)))
	h.srv.Enqueue(fakellm.Reply(fakellm.Text("Shown.")))
	h.send(thread, "show it")
	h.terminal()
	h.idle(thread)
}

// A view's call goes through the approval card, runs only after Allow,
// is recorded in the ledger as the view's, and no model call follows it.
func TestViewCallAsksThenRunsWithoutAModelCall(t *testing.T) {
	h, runs := newViewHarness(t)
	showView(t, h, "th")
	id, err := h.rt.CallFromView(context.Background(), "th", "call-show", "srv", "srv__act", json.RawMessage(`{"text":"from the view"}`))
	if err != nil {
		t.Fatal(err)
	}
	if !agent.IsViewCall(id) {
		t.Fatalf("call id %q", id)
	}
	rf, ok := h.terminal().(*agui.RunFinished)
	if !ok || rf.Outcome == nil || rf.Outcome.Type != agui.OutcomeInterrupt {
		t.Fatalf("want an approval pause, got %#v", rf)
	}
	h.idle("th")
	if got := runs(); len(got) != 1 {
		t.Fatalf("ran before Allow: %v", got)
	}
	if err := resumeRun(h.rt, context.Background(), "th", rf.RunID, []agui.ResumeEntry{entry("approval_"+id, "resolved", `{"approved":true}`)}, "run-allow"); err != nil {
		t.Fatal(err)
	}
	if rf2, ok := h.terminal().(*agui.RunFinished); !ok || rf2.Outcome.Type != agui.OutcomeSuccess {
		t.Fatalf("continuation %#v", rf2)
	}
	h.idle("th")
	if got := runs(); len(got) != 2 || got[1] != `act {"text":"from the view"}` {
		t.Fatalf("runs %v", got)
	}
	if n := len(h.srv.Requests()); n != 2 {
		t.Fatalf("%d model calls, want 2 (none for the view's call)", n)
	}
	var res *history.Message
	for _, m := range h.messages("th") {
		if m.Role == history.RoleTool && m.ToolCallID == id {
			res = &m
		}
	}
	if res == nil || res.Content != "act ran" {
		t.Fatalf("the view's call has no result: %+v", res)
	}
	entries, err := h.db.Ledger(context.Background(), history.LedgerFilter{ThreadID: "th"})
	if err != nil {
		t.Fatal(err)
	}
	var viewEntries []string
	for _, e := range entries {
		if e.CallID == id {
			if e.Reason != agent.ViewCallReason {
				t.Fatalf("ledger entry %+v does not say it came from the view", e)
			}
			viewEntries = append(viewEntries, e.Kind)
		}
	}
	slices.Sort(viewEntries)
	if strings.Join(viewEntries, ",") != "approved,outcome" {
		t.Fatalf("ledger kinds for the view's call: %v", viewEntries)
	}
	h.assertValidHistory("th")
}

// Denied, the view's call never runs, and still no model call follows.
func TestViewCallDeniedNeverRuns(t *testing.T) {
	h, runs := newViewHarness(t)
	showView(t, h, "th")
	id, err := h.rt.CallFromView(context.Background(), "th", "call-show", "srv", "srv__act", json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	rf := h.terminal().(*agui.RunFinished)
	h.idle("th")
	if err := resumeRun(h.rt, context.Background(), "th", rf.RunID, []agui.ResumeEntry{entry("approval_"+id, "resolved", `{"approved":false,"payload":{}}`)}, "run-deny"); err != nil {
		t.Fatal(err)
	}
	h.terminal()
	h.idle("th")
	if got := runs(); len(got) != 1 || len(h.srv.Requests()) != 2 {
		t.Fatalf("runs %v, %d model calls", got, len(h.srv.Requests()))
	}
}

// Hostile twins: what a view (or a window that was fooled) may not ask.
func TestViewCallRefusals(t *testing.T) {
	h, runs := newViewHarness(t)
	showView(t, h, "th")
	big := `{"text":"` + strings.Repeat("x", 300<<10) + `"}`
	cases := []struct {
		name, parent, server, tool, args string
	}{
		{"a built-in", "call-show", "srv", "write_file", `{}`},
		{"another server's tool", "call-show", "srv", "other__act", `{}`},
		{"claims the other server", "call-show", "other", "other__act", `{}`},
		{"unknown parent", "call-nope", "srv", "srv__act", `{}`},
		{"empty parent", "", "srv", "srv__act", `{}`},
		{"ask_user", "call-show", "srv", agent.AskUserTool, `{}`},
		{"arguments not an object", "call-show", "srv", "srv__act", `[1]`},
		{"arguments not JSON", "call-show", "srv", "srv__act", `{`},
		{"arguments over budget", "call-show", "srv", "srv__act", big},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := h.rt.CallFromView(context.Background(), "th", tc.parent, tc.server, tc.tool, json.RawMessage(tc.args))
			if !errors.Is(err, agent.ErrViewCallRefused) {
				t.Fatalf("err %v", err)
			}
		})
	}
	if got := runs(); len(got) != 1 {
		t.Fatalf("runs %v", got)
	}
	// While an approval waits, a view cannot start another call.
	if _, err := h.rt.CallFromView(context.Background(), "th", "call-show", "srv", "srv__act", json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	h.terminal()
	h.idle("th")
	if _, err := h.rt.CallFromView(context.Background(), "th", "call-show", "srv", "srv__act", json.RawMessage(`{}`)); !errors.Is(err, agent.ErrViewCallRefused) {
		t.Fatalf("second call while one waits: %v", err)
	}
}

// A model cannot pass its call off as a view's: an id with the view
// prefix is renamed.
func TestModelCallIDNeverPassesForAView(t *testing.T) {
	h, _ := newViewHarness(t)
	h.srv.Enqueue(fakellm.Reply(fakellm.ToolCall(0, agent.ViewCallPrefix+"forged", "srv__show", `{}`)))
	h.srv.Enqueue(fakellm.Reply(fakellm.Text("ok")))
	h.send("th", "go")
	h.terminal()
	h.idle("th")
	for _, m := range h.messages("th") {
		for _, c := range m.ToolCalls {
			if agent.IsViewCall(c.ID) {
				t.Fatalf("the model's call kept the view prefix: %s", c.ID)
			}
		}
	}
}

// A tool only its views may call (_meta.ui.visibility ["app"]) is not in
// the model's tool list, the model's call of it is refused as unknown
// (its name not even listed), and the view's call of it runs.
func TestViewOnlyToolIsNotOfferedToTheModel(t *testing.T) {
	h, runs := newViewHarness(t)
	h.srv.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "call-tally", "srv__tally", `{}`)))
	h.srv.Enqueue(fakellm.Reply(fakellm.Text("Tried.")))
	h.send("th", "tally it")
	h.terminal()
	h.idle("th")
	reqs := h.srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no model request")
	}
	for _, r := range reqs {
		for _, tl := range r.Tools {
			if tl.Name == "srv__tally" {
				t.Fatal("the model was offered the view-only tool srv__tally")
			}
		}
	}
	if got := runs(); len(got) != 0 {
		t.Fatalf("the model's call of a view-only tool ran: %v", got)
	}
	var res string
	for _, m := range h.messages("th") {
		if m.ToolCallID == "call-tally" {
			res = m.Content
		}
	}
	if !strings.Contains(res, "Unknown tool") || strings.Count(res, "srv__tally") != 1 {
		t.Fatalf("the model's call: %q", res)
	}
	showView(t, h, "th")
	id, err := h.rt.CallFromView(context.Background(), "th", "call-show", "srv", "srv__tally", json.RawMessage(`{"text":"n"}`))
	if err != nil {
		t.Fatal(err)
	}
	if rf, ok := h.terminal().(*agui.RunFinished); !ok || rf.Outcome == nil || rf.Outcome.Type != agui.OutcomeSuccess {
		t.Fatalf("the view's call %s: %#v", id, rf)
	}
	h.idle("th")
	if got := runs(); !slices.Contains(got, `tally {"text":"n"}`) {
		t.Fatalf("the view's call did not run: %v", got)
	}
}

package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/interrupt"
	"github.com/juncture-app/juncture/agent/model/openai"
	"github.com/juncture-app/juncture/agent/tools"
	"github.com/juncture-app/juncture/store"
)

// approvals is a harness whose registry has a tool that always needs
// approval (gated_echo) next to the ungated built-ins.
type approvals struct {
	*harness
	reg  *tools.Registry
	mu   sync.Mutex
	runs []string // arguments of every gated_echo execution
}

// gatedEcho is a tool that needs approval and echoes its text; ran gets the
// arguments of every run.
func gatedEcho(ran func(args string)) tools.Tool {
	return tools.Tool{
		Name: "gated_echo", Description: "echoes its text; needs approval",
		Schema:        json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`),
		NeedsApproval: func(json.RawMessage) bool { return true },
		Run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
			ran(string(args))
			var in struct{ Text string }
			_ = json.Unmarshal(args, &in)
			return tools.Result{Content: "echo: " + in.Text}, nil
		},
	}
}

// restart shuts the runtime down and starts a new one on the same
// database, model server and tools, as the app does after a restart.
func (a *approvals) restart(t testing.TB, ctx context.Context) {
	t.Helper()
	if err := a.rt.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	cp := a.db.NewCheckpointer(20 * time.Millisecond)
	t.Cleanup(func() { cp.Close() })
	client := openai.New(openai.Config{BaseURL: a.srv.URL, Model: "fake-model"})
	reg := a.reg
	a.rt = agent.New(agent.Options{
		Store: cp.RuntimeStore(),
		Model: func(context.Context, string) (agent.Model, error) { return client, nil },
		Tools: func(context.Context, string) *tools.Registry { return reg },
	})
	a.sub = a.rt.Subscribe("")
}

func newApprovals(t testing.TB) *approvals {
	t.Helper()
	a := &approvals{}
	gated := gatedEcho(func(args string) {
		a.mu.Lock()
		a.runs = append(a.runs, args)
		a.mu.Unlock()
	})
	reg, err := tools.NewRegistry(append(tools.Builtins(tools.Workspace{Root: t.TempDir()}, tools.BuiltinOptions{}), gated)...)
	if err != nil {
		t.Fatal(err)
	}
	a.reg = reg
	a.harness = newHarness(t, func(o *agent.Options) { o.Tools = func(context.Context, string) *tools.Registry { return reg } })
	return a
}

func (a *approvals) executions() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.runs...)
}

// pause sends text, the model answers with steps, and the run must end
// with an interrupt outcome; it returns that RUN_FINISHED.
func (a *approvals) pause(threadID, text string, steps ...fakellm.Step) *agui.RunFinished {
	a.t.Helper()
	a.srv.Enqueue(fakellm.Reply(steps...))
	a.send(threadID, text)
	ev := a.terminal()
	rf, ok := ev.(*agui.RunFinished)
	if !ok || rf.Outcome == nil || rf.Outcome.Type != agui.OutcomeInterrupt {
		a.t.Fatalf("expected an interrupt outcome, got %#v", ev)
	}
	a.idle(threadID)
	return rf
}

func (a *approvals) pending(threadID string) []history.Interrupt {
	a.t.Helper()
	its, err := a.db.PendingInterrupts(context.Background(), threadID)
	if err != nil {
		a.t.Fatal(err)
	}
	return its
}

func (a *approvals) resume(threadID, parent string, entries ...agui.ResumeEntry) error {
	return resumeRun(a.rt, context.Background(), threadID, parent, entries, "")
}

func entry(id, status, payload string) agui.ResumeEntry {
	e := agui.ResumeEntry{InterruptID: id, Status: status}
	if payload != "" {
		e.Payload = json.RawMessage(payload)
	}
	return e
}

func toolMessage(t *testing.T, req fakellm.Request, callID string) fakellm.RequestMessage {
	t.Helper()
	for _, m := range req.Messages {
		if m.Role == "tool" && m.ToolCallID == callID {
			return m
		}
	}
	t.Fatalf("the model request has no result for %s: %+v", callID, req.Messages)
	return fakellm.RequestMessage{}
}

func TestApprovalPauseEmitsInterruptAfterSnapshot(t *testing.T) {
	a := newApprovals(t)
	rf := a.pause("th-1", "do it",
		fakellm.ToolCall(0, "call-ls", "list_files", `{}`),
		fakellm.ToolCall(1, "call-1", "gated_echo", `{"text":"hi"}`))
	if len(rf.Outcome.Interrupts) != 1 {
		t.Fatalf("interrupts %+v", rf.Outcome.Interrupts)
	}
	it := rf.Outcome.Interrupts[0]
	if it.ID != "approval_call-1" || it.ToolCallID != "call-1" || it.Reason != "tool_call" {
		t.Fatalf("interrupt %+v", it)
	}
	for _, k := range []string{agent.MetaPreview, agent.MetaSuggestedRules, interrupt.BindingMetadataKey} {
		if it.Metadata[k] == nil {
			t.Fatalf("metadata %s missing: %+v", k, it.Metadata)
		}
	}
	// The ungated call ran; the gated one did not.
	if got := a.executions(); len(got) != 0 {
		t.Fatalf("gated tool ran: %v", got)
	}
	var order []string
	for _, env := range a.events {
		if env.Name != broker.EnvelopeAGUI {
			continue
		}
		switch e := env.Event.(type) {
		case *agui.ToolCallResult:
			order = append(order, "result:"+e.ToolCallID)
		case *agui.Custom:
			if e.Name == contract.CustomToolState && strings.Contains(string(e.Value), string(contract.ToolAwaitingApproval)) {
				order = append(order, "awaiting")
			}
		case *agui.MessagesSnapshot:
			order = append(order, "snapshot")
		case *agui.RunFinished:
			order = append(order, "finished")
		}
	}
	if got := strings.Join(order, ","); got != "result:call-ls,awaiting,snapshot,finished" {
		t.Fatalf("event order %s", got)
	}
	its := a.pending("th-1")
	if len(its) != 1 || its[0].RunID != rf.RunID || its[0].Generation != 0 {
		t.Fatalf("stored %+v", its)
	}
	run, err := a.db.Run(context.Background(), rf.RunID)
	if err != nil || run.Status != history.RunInterrupted {
		t.Fatalf("run %+v %v", run, err)
	}
	validateAGUI(t, a.sse("th-1"))
}

func TestApprovalDecisions(t *testing.T) {
	cases := []struct {
		name     string
		entry    agui.ResumeEntry
		wantRuns []string
		want     string // the tool result the model reads (substring)
	}{
		{"approve", entry("approval_call-1", "resolved", `{"approved":true}`), []string{`{"text":"hi"}`}, "echo: hi"},
		{"approve bare", entry("approval_call-1", "resolved", `true`), []string{`{"text":"hi"}`}, "echo: hi"},
		{"approve edited", entry("approval_call-1", "resolved", `{"approved":true,"editedArgs":{"text":"edited"}}`), []string{`{"text":"edited"}`}, `The person edited the arguments before approving; the tool ran with {"text":"edited"}.`},
		{"reject with reason", entry("approval_call-1", "resolved", `{"approved":false,"payload":{"reason":"Not \"now\", it's late."}}`), nil, `Not "now", it's late.`},
		{"reject", entry("approval_call-1", "resolved", `{"approved":false,"payload":{}}`), nil, agent.ResultDenied},
		{"cancel", entry("approval_call-1", "cancelled", ""), nil, history.ResultInterrupted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newApprovals(t)
			rf := a.pause("th-1", "echo hi", fakellm.ToolCall(0, "call-1", "gated_echo", `{"text":"hi"}`))
			a.srv.Enqueue(fakellm.Reply(fakellm.Text("Done.")))
			if err := resumeRun(a.rt, context.Background(), "th-1", rf.RunID, []agui.ResumeEntry{tc.entry}, "run-2"); err != nil {
				t.Fatal(err)
			}
			started := a.until(agui.TypeRunStarted).(*agui.RunStarted)
			if started.RunID != "run-2" || started.ParentRunID != rf.RunID {
				t.Fatalf("continuation started %+v", started)
			}
			if got := outcome(t, a.terminal()); got != agui.OutcomeSuccess {
				t.Fatalf("outcome %s", got)
			}
			a.idle("th-1")
			if got := a.executions(); strings.Join(got, "|") != strings.Join(tc.wantRuns, "|") {
				t.Fatalf("executions %v, want %v", got, tc.wantRuns)
			}
			reqs := a.srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d model calls", len(reqs))
			}
			if m := toolMessage(t, reqs[1], "call-1"); !strings.Contains(m.Content, tc.want) {
				t.Fatalf("the model read %q, want %q in it", m.Content, tc.want)
			}
			// One TOOL_CALL_RESULT, against the original call id.
			var results int
			for _, env := range a.events {
				if r, ok := env.Event.(*agui.ToolCallResult); ok && r.ToolCallID == "call-1" {
					results++
				}
			}
			if results != 1 || len(a.pending("th-1")) != 0 {
				t.Fatalf("%d results, pending %v", results, a.pending("th-1"))
			}
			a.assertValidHistory("th-1")
			validateAGUI(t, a.sse("th-1"))
		})
	}
}

func TestApprovalInvalidEditedArgsRefused(t *testing.T) {
	a := newApprovals(t)
	rf := a.pause("th-1", "echo hi", fakellm.ToolCall(0, "call-1", "gated_echo", `{"text":"hi"}`))
	err := a.resume("th-1", rf.RunID, entry("approval_call-1", "resolved", `{"approved":true,"editedArgs":{"text":5}}`))
	var refused *agent.RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("err %v", err)
	}
	if re, ok := a.terminal().(*agui.RunError); !ok || re.Code != string(interrupt.CodeInvalidEditedArgs) {
		t.Fatalf("terminal %#v", re)
	}
	a.idle("th-1")
	if len(a.pending("th-1")) != 1 || len(a.executions()) != 0 {
		t.Fatal("a refused resume changed something")
	}
}

func TestApprovalStopWhilePending(t *testing.T) {
	a := newApprovals(t)
	rf := a.pause("th-1", "echo twice",
		fakellm.Text("Echoing."),
		fakellm.ToolCall(0, "call-1", "gated_echo", `{"text":"a"}`),
		fakellm.ToolCall(1, "call-2", "gated_echo", `{"text":"b"}`))
	if len(rf.Outcome.Interrupts) != 2 {
		t.Fatalf("interrupts %+v", rf.Outcome.Interrupts)
	}
	a.rt.Interrupt("th-1")
	start := a.until(agui.TypeRunStarted).(*agui.RunStarted)
	if start.ParentRunID != rf.RunID {
		t.Fatalf("stop run %+v", start)
	}
	if got := outcome(t, a.terminal()); got != agui.OutcomeCancelled {
		t.Fatalf("outcome %s", got)
	}
	a.idle("th-1")
	a.rt.Interrupt("th-1") // repeated: no-op
	if n := len(a.srv.Requests()); n != 1 {
		t.Fatalf("%d model calls", n)
	}
	if len(a.executions()) != 0 || len(a.pending("th-1")) != 0 {
		t.Fatalf("executions %v pending %v", a.executions(), a.pending("th-1"))
	}
	msgs := a.messages("th-1")
	var results int
	for _, m := range msgs {
		if m.Role == history.RoleTool {
			results++
			if m.Content != history.ResultInterrupted {
				t.Fatalf("result %q", m.Content)
			}
		}
		if m.Role == history.RoleAssistant && (m.Status != history.StatusInterrupted || !strings.HasSuffix(m.Content, history.InterruptMarker)) {
			t.Fatalf("assistant message not marked: %+v", m)
		}
	}
	if results != 2 {
		t.Fatalf("%d results", results)
	}
	a.assertValidHistory("th-1")
	validateAGUI(t, a.sse("th-1"))
	// Answering now is refused: nothing waits.
	if err := a.resume("th-1", rf.RunID, entry("approval_call-1", "resolved", "true")); err == nil {
		t.Fatal("resume after Stop accepted")
	}
	a.terminal()
	a.idle("th-1")
	if len(a.executions()) != 0 {
		t.Fatal("a tool ran after Stop")
	}
}

func TestApprovalStaleThenRightThenDuplicate(t *testing.T) {
	a := newApprovals(t)
	rf := a.pause("th-1", "echo hi", fakellm.ToolCall(0, "call-1", "gated_echo", `{"text":"hi"}`))
	ok := entry("approval_call-1", "resolved", `{"approved":true}`)

	err := a.resume("th-1", "run-wrong", ok)
	var refused *agent.RefusedError
	if !errors.As(err, &refused) || refused.Batch.Errors[0].Code != interrupt.CodeStale {
		t.Fatalf("stale resume: %v", err)
	}
	re, isErr := a.terminal().(*agui.RunError)
	if !isErr || re.Metadata["tanstack"] == nil {
		t.Fatalf("stale terminal %#v", re)
	}
	a.idle("th-1")
	if len(a.pending("th-1")) != 1 {
		t.Fatal("the stale resume changed the pending batch")
	}

	a.srv.Enqueue(fakellm.Reply(fakellm.Text("Done.")))
	if err := a.resume("th-1", rf.RunID, ok); err != nil {
		t.Fatal(err)
	}
	if got := outcome(t, a.terminal()); got != agui.OutcomeSuccess {
		t.Fatalf("outcome %s", got)
	}
	a.idle("th-1")

	err = a.resume("th-1", rf.RunID, ok)
	if !errors.As(err, &refused) || refused.Batch.Errors[0].Code != interrupt.CodeUnknownInterrupt {
		t.Fatalf("duplicate resume: %v", err)
	}
	if _, isErr := a.terminal().(*agui.RunError); !isErr {
		t.Fatal("duplicate resume did not end in RUN_ERROR")
	}
	a.idle("th-1")
	if got := a.executions(); len(got) != 1 {
		t.Fatalf("executions %v", got)
	}
	if n := len(a.srv.Requests()); n != 2 {
		t.Fatalf("%d model calls", n)
	}
	validateAGUI(t, a.sse("th-1"))
}

func TestApprovalAlwaysAllowRule(t *testing.T) {
	a := newApprovals(t)
	rf := a.pause("th-1", "echo hi", fakellm.ToolCall(0, "call-1", "gated_echo", `{"text":"hi"}`))
	var suggested []history.PermissionRule
	if err := json.Unmarshal(rf.Outcome.Interrupts[0].Metadata[agent.MetaSuggestedRules].(json.RawMessage), &suggested); err != nil || len(suggested) == 0 {
		t.Fatalf("suggested %v %v", suggested, err)
	}
	r := suggested[len(suggested)-1]
	r.ID = "rule-1"
	if err := a.db.AddPermissionRule(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	a.srv.Enqueue(fakellm.Reply(fakellm.Text("Done.")))
	if err := a.resume("th-1", rf.RunID, entry("approval_call-1", "resolved", "true")); err != nil {
		t.Fatal(err)
	}
	a.terminal()
	a.idle("th-1")

	// The next matching call runs without asking.
	a.srv.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "call-2", "gated_echo", `{"text":"again"}`)), fakellm.Reply(fakellm.Text("Again.")))
	a.send("th-1", "again")
	if got := outcome(t, a.terminal()); got != agui.OutcomeSuccess {
		t.Fatalf("outcome %s", got)
	}
	a.idle("th-1")
	if got := a.executions(); len(got) != 2 || got[1] != `{"text":"again"}` {
		t.Fatalf("executions %v", got)
	}
	a.assertValidHistory("th-1")
}

func TestApprovalSendInputCancelsPending(t *testing.T) {
	a := newApprovals(t)
	a.pause("th-1", "echo hi", fakellm.ToolCall(0, "call-1", "gated_echo", `{"text":"hi"}`))
	a.srv.Enqueue(fakellm.Reply(fakellm.Text("Sure.")))
	a.send("th-1", "never mind")
	if got := outcome(t, a.terminal()); got != agui.OutcomeSuccess {
		t.Fatalf("outcome %s", got)
	}
	a.idle("th-1")
	req := a.srv.Requests()[1]
	if m := toolMessage(t, req, "call-1"); m.Content != agent.ResultRepliedInChat {
		t.Fatalf("result %q", m.Content)
	}
	if req.LastUser() != "never mind" || len(a.pending("th-1")) != 0 || len(a.executions()) != 0 {
		t.Fatalf("request %+v", req.Messages)
	}
	a.assertValidHistory("th-1")
	validateAGUI(t, a.sse("th-1"))
}

func TestApprovalSurvivesRestart(t *testing.T) {
	a := newApprovals(t)
	rf := a.pause("th-1", "echo hi", fakellm.ToolCall(0, "call-1", "gated_echo", `{"text":"hi"}`))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	a.restart(t, ctx)
	pend, runID, err := a.rt.PendingApprovals(ctx, "th-1")
	if err != nil || len(pend) != 1 || runID != rf.RunID {
		t.Fatalf("pending after restart %+v %s %v", pend, runID, err)
	}
	before, _ := json.Marshal(rf.Outcome.Interrupts[0])
	after, _ := json.Marshal(pend[0])
	if string(before) != string(after) {
		t.Fatalf("descriptor changed across restart:\n%s\n%s", before, after)
	}
	a.srv.Enqueue(fakellm.Reply(fakellm.Text("Done.")))
	if err := a.resume("th-1", runID, entry("approval_call-1", "resolved", "true")); err != nil {
		t.Fatal(err)
	}
	if got := outcome(t, a.terminal()); got != agui.OutcomeSuccess {
		t.Fatalf("outcome %s", got)
	}
	a.idle("th-1")
	if got := a.executions(); len(got) != 1 {
		t.Fatalf("executions %v", got)
	}
	a.assertValidHistory("th-1")
	_ = store.ErrNotFound
}

func TestApprovalSecondPauseHasNextGeneration(t *testing.T) {
	a := newApprovals(t)
	rf := a.pause("th-1", "echo twice", fakellm.ToolCall(0, "call-1", "gated_echo", `{"text":"a"}`))
	// The continuation's model call asks again.
	a.srv.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "call-2", "gated_echo", `{"text":"b"}`)))
	if err := a.resume("th-1", rf.RunID, entry("approval_call-1", "resolved", "true")); err != nil {
		t.Fatal(err)
	}
	ev := a.terminal()
	rf2, ok := ev.(*agui.RunFinished)
	if !ok || rf2.Outcome == nil || rf2.Outcome.Type != agui.OutcomeInterrupt {
		t.Fatalf("continuation ended %#v", ev)
	}
	a.idle("th-1")
	its := a.pending("th-1")
	if len(its) != 1 || its[0].Generation != 1 || its[0].RunID != rf2.RunID {
		t.Fatalf("second batch %+v", its)
	}
	// Answering the second batch against the first run is stale.
	var refused *agent.RefusedError
	if err := a.resume("th-1", rf.RunID, entry("approval_call-2", "resolved", "true")); !errors.As(err, &refused) {
		t.Fatalf("stale answer: %v", err)
	}
	a.terminal()
	a.idle("th-1")
	a.srv.Enqueue(fakellm.Reply(fakellm.Text("Both done.")))
	if err := a.resume("th-1", rf2.RunID, entry("approval_call-2", "resolved", "true")); err != nil {
		t.Fatal(err)
	}
	if got := outcome(t, a.terminal()); got != agui.OutcomeSuccess {
		t.Fatalf("outcome %s", got)
	}
	a.idle("th-1")
	if got := a.executions(); len(got) != 2 {
		t.Fatalf("executions %v", got)
	}
	a.assertValidHistory("th-1")
	validateAGUI(t, a.sse("th-1"))
}

package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/interrupt"
	"github.com/juncture-app/juncture/agent/model/openai"
	"github.com/juncture-app/juncture/agent/tools"
)

// newQuestions is an approvals harness whose registry also has the client
// tools; opts adjust the runtime (middleware, loop guard).
func newQuestions(t *testing.T, opts ...harnessOpt) *approvals {
	t.Helper()
	a := newApprovals(t)
	// Rebuild the runtime with the client tools and the options.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := a.rt.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	var ts []tools.Tool
	for _, n := range a.reg.Names() {
		tl, _ := a.reg.Lookup(n)
		ts = append(ts, tl)
	}
	reg, err := tools.NewRegistry(append(ts, tools.ClientTools()...)...)
	if err != nil {
		t.Fatal(err)
	}
	a.reg = reg
	cp := a.db.NewCheckpointer(20 * time.Millisecond)
	t.Cleanup(func() { cp.Close() })
	client := openai.New(openai.Config{BaseURL: a.srv.URL, Model: "fake-model"})
	o := agent.Options{
		Store:       cp.RuntimeStore(),
		Model:       func(context.Context, string) (agent.Model, error) { return client, nil },
		Tools:       func(context.Context, string) *tools.Registry { return reg },
		BackoffBase: 10 * time.Millisecond,
	}
	for _, f := range opts {
		f(&o)
	}
	a.rt = agent.New(o)
	a.sub = a.rt.Subscribe("")
	return a
}

// finishedWith runs until the terminal event and checks its outcome type.
func (a *approvals) finishedWith(want string) *agui.RunFinished {
	a.t.Helper()
	ev := a.terminal()
	if got := outcome(a.t.(*testing.T), ev); got != want {
		a.t.Fatalf("outcome %s, want %s", got, want)
	}
	return ev.(*agui.RunFinished)
}

// approveAll answers every interrupt of rf (a pause on approvals) with
// "approved", remembering an "Always allow" rule for the tool when
// remember is set, and returns the continuation's RUN_FINISHED: the
// approved client calls then wait on the window.
func (a *approvals) approveAll(threadID string, rf *agui.RunFinished, remember bool) *agui.RunFinished {
	a.t.Helper()
	var ias []agent.InterruptAnswer
	for _, it := range rf.Outcome.Interrupts {
		ia := agent.InterruptAnswer{ResumeEntry: entry(it.ID, "resolved", "true")}
		if remember {
			ia.Remember = &agent.Remember{Scope: history.ScopeTool}
		}
		ias = append(ias, ia)
	}
	if _, err := a.rt.Answer(context.Background(), threadID, agent.Answers{ParentRunID: rf.RunID, Interrupts: ias, Complete: true}); err != nil {
		a.t.Fatal(err)
	}
	return a.finishedWith(agui.OutcomeSuccess)
}

func toolResultFor(t *testing.T, msgs []history.Message, callID string) history.Message {
	t.Helper()
	for _, m := range msgs {
		if m.Role == history.RoleTool && m.ToolCallID == callID {
			return m
		}
	}
	t.Fatalf("no result for %s", callID)
	return history.Message{}
}

func TestClientToolPendingThenCompleted(t *testing.T) {
	a := newQuestions(t)
	// copy_to_clipboard asks first; once approved it waits on the window.
	asked := a.pause("th-1", "copy it", fakellm.ToolCall(0, "call-c", "copy_to_clipboard", `{"text":"hello"}`))
	if len(asked.Outcome.Interrupts) != 1 || asked.Outcome.Interrupts[0].ID != "approval_call-c" {
		t.Fatalf("interrupts %+v", asked.Outcome.Interrupts)
	}
	rf := a.approveAll("th-1", asked, false)
	if strings.Join(rf.Outcome.PendingToolCallIDs, ",") != "call-c" {
		t.Fatalf("outcome %+v", rf.Outcome)
	}
	a.idle("th-1")
	pend, err := a.rt.PendingClientTools(context.Background(), "th-1")
	if err != nil || len(pend) != 1 || pend[0].State != history.ClientToolPending || pend[0].RunID != rf.RunID {
		t.Fatalf("pending %+v %v", pend, err)
	}
	a.srv.Enqueue(fakellm.Reply(fakellm.Text("Copied.")))
	waiting, err := completeClient(a.rt, context.Background(), "th-1", []agent.ClientToolResult{{ToolCallID: "call-c", Content: "copied"}}, "run-2")
	if err != nil || len(waiting) != 0 {
		t.Fatalf("complete: %v %v", waiting, err)
	}
	st := a.until(agui.TypeRunStarted).(*agui.RunStarted)
	if st.RunID != "run-2" || st.ParentRunID != rf.RunID {
		t.Fatalf("started %+v", st)
	}
	if r := a.until(agui.TypeToolCallResult).(*agui.ToolCallResult); r.ToolCallID != "call-c" || r.Content != "copied" {
		t.Fatalf("result %+v", r)
	}
	a.finishedWith(agui.OutcomeSuccess)
	a.idle("th-1")
	if m := toolMessage(t, a.srv.Requests()[1], "call-c"); m.Content != "copied" {
		t.Fatalf("model read %q", m.Content)
	}
	if _, err := completeClient(a.rt, context.Background(), "th-1", []agent.ClientToolResult{{ToolCallID: "call-c"}}, ""); !errors.Is(err, agent.ErrNoClientCall) {
		t.Fatalf("second completion: %v", err)
	}
	a.assertValidHistory("th-1")
	validateAGUI(t, a.sse("th-1"))
}

func TestClientToolWaitsForEveryCallOfTheRun(t *testing.T) {
	a := newQuestions(t)
	// The walk asks about call-a first (nothing after a window action is
	// asked about with it); "Always allow" then covers call-b, so both
	// wait on the window together.
	asked := a.pause("th-1", "copy both",
		fakellm.ToolCall(0, "call-a", "copy_to_clipboard", `{"text":"a"}`),
		fakellm.ToolCall(1, "call-b", "copy_to_clipboard", `{"text":"b"}`))
	if len(asked.Outcome.Interrupts) != 1 || asked.Outcome.Interrupts[0].ID != "approval_call-a" {
		t.Fatalf("interrupts %+v", asked.Outcome.Interrupts)
	}
	rf := a.approveAll("th-1", asked, true)
	if len(rf.Outcome.PendingToolCallIDs) != 2 {
		t.Fatalf("outcome %+v", rf.Outcome)
	}
	a.idle("th-1")
	waiting, err := completeClient(a.rt, context.Background(), "th-1", []agent.ClientToolResult{{ToolCallID: "call-b", Content: "ok b"}}, "")
	if err != nil || strings.Join(waiting, ",") != "call-a" {
		t.Fatalf("waiting %v %v", waiting, err)
	}
	if running, _ := a.rt.Running("th-1"); running || len(a.srv.Requests()) != 1 {
		t.Fatal("a continuation started before every result came")
	}
	a.srv.Enqueue(fakellm.Reply(fakellm.Text("Both copied.")))
	if _, err := completeClient(a.rt, context.Background(), "th-1", []agent.ClientToolResult{{ToolCallID: "call-a", Cancelled: true}}, ""); err != nil {
		t.Fatal(err)
	}
	a.finishedWith(agui.OutcomeSuccess)
	a.idle("th-1")
	req := a.srv.Requests()[1]
	if toolMessage(t, req, "call-b").Content != "ok b" || toolMessage(t, req, "call-a").Content != agent.ResultClientCancelled {
		t.Fatalf("request %+v", req.Messages)
	}
	a.assertValidHistory("th-1")
}

func TestOpenURLNeedsApprovalThenRunsInTheWindow(t *testing.T) {
	a := newQuestions(t)
	rf := a.pause("th-1", "open it", fakellm.ToolCall(0, "call-u", "open_url", `{"url":"https://example.com/"}`))
	if rf.Outcome.Interrupts[0].ID != "approval_call-u" {
		t.Fatalf("interrupts %+v", rf.Outcome.Interrupts)
	}
	if err := a.resume("th-1", rf.RunID, entry("approval_call-u", "resolved", "true")); err != nil {
		t.Fatal(err)
	}
	rf2 := a.finishedWith(agui.OutcomeSuccess)
	if strings.Join(rf2.Outcome.PendingToolCallIDs, ",") != "call-u" {
		t.Fatalf("continuation outcome %+v", rf2.Outcome)
	}
	a.idle("th-1")
	if n := len(a.srv.Requests()); n != 1 {
		t.Fatalf("%d model calls", n)
	}
	// A non-http address is refused before the window sees it.
	a.srv.Enqueue(fakellm.Reply(fakellm.Text("Opened.")))
	if _, err := completeClient(a.rt, context.Background(), "th-1", []agent.ClientToolResult{{ToolCallID: "call-u", Content: "opened"}}, ""); err != nil {
		t.Fatal(err)
	}
	a.finishedWith(agui.OutcomeSuccess)
	a.idle("th-1")
	a.assertValidHistory("th-1")
	validateAGUI(t, a.sse("th-1"))
}

func TestClientToolCancelledByNewInput(t *testing.T) {
	a := newQuestions(t)
	a.approveAll("th-1", a.pause("th-1", "copy", fakellm.ToolCall(0, "call-c", "copy_to_clipboard", `{"text":"x"}`)), false)
	a.idle("th-1")
	a.srv.Enqueue(fakellm.Reply(fakellm.Text("OK.")))
	a.send("th-1", "never mind")
	a.finishedWith(agui.OutcomeSuccess)
	a.idle("th-1")
	if m := toolMessage(t, a.srv.Requests()[1], "call-c"); m.Content != agent.ResultRepliedInChat {
		t.Fatalf("result %q", m.Content)
	}
	if pend, _ := a.rt.PendingClientTools(context.Background(), "th-1"); len(pend) != 0 {
		t.Fatalf("still pending %+v", pend)
	}
	a.assertValidHistory("th-1")
}

func TestAskUserInvalidThenValidAnswer(t *testing.T) {
	a := newQuestions(t)
	rf := a.pause("th-1", "pick", fakellm.ToolCall(0, "call-q", "ask_user", `{"question":"Which colour?","options":["red","blue"]}`))
	it := rf.Outcome.Interrupts[0]
	if it.ToolCallID != "call-q" || it.Message != "Which colour?" || !strings.Contains(string(it.ResponseSchema), `"enum":["red","blue"]`) {
		t.Fatalf("interrupt %+v %s", it, it.ResponseSchema)
	}
	err := a.resume("th-1", rf.RunID, entry(it.ID, "resolved", `"green"`))
	var refused *agent.RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("invalid answer: %v", err)
	}
	if re, ok := a.terminal().(*agui.RunError); !ok || re.Code != string(interrupt.CodeInvalidPayload) {
		t.Fatalf("terminal %#v", re)
	}
	a.idle("th-1")
	if len(a.pending("th-1")) != 1 {
		t.Fatal("the refused answer changed the batch")
	}
	a.srv.Enqueue(fakellm.Reply(fakellm.Text("Blue it is.")))
	if err := a.resume("th-1", rf.RunID, entry(it.ID, "resolved", `"blue"`)); err != nil {
		t.Fatal(err)
	}
	a.finishedWith(agui.OutcomeSuccess)
	a.idle("th-1")
	if m := toolMessage(t, a.srv.Requests()[1], "call-q"); m.Content != "blue" {
		t.Fatalf("model read %q", m.Content)
	}
	a.assertValidHistory("th-1")
	validateAGUI(t, a.sse("th-1"))
}

func TestAskUserSchemasAndBadSchema(t *testing.T) {
	a := newQuestions(t)
	// An invalid schema is a tool error the model reads; no pause.
	a.srv.Enqueue(
		fakellm.Reply(fakellm.ToolCall(0, "call-bad", "ask_user", `{"question":"Age?","schema":{"type":"string"}}`)),
		fakellm.Reply(fakellm.ToolCall(0, "call-q", "ask_user", `{"question":"Details?","schema":{"type":"object","properties":{"age":{"type":"integer","minimum":0}},"required":["age"]}}`)))
	a.send("th-1", "ask me")
	rf := a.finishedWith(agui.OutcomeInterrupt)
	a.idle("th-1")
	if m := toolMessage(t, a.srv.Requests()[1], "call-bad"); !strings.Contains(m.Content, "schema is invalid") {
		t.Fatalf("bad schema result %q", m.Content)
	}
	id := rf.Outcome.Interrupts[0].ID
	var refused *agent.RefusedError
	if err := a.resume("th-1", rf.RunID, entry(id, "resolved", `{"age":-1}`)); !errors.As(err, &refused) {
		t.Fatalf("invalid answer accepted: %v", err)
	}
	a.terminal()
	a.idle("th-1")
	a.srv.Enqueue(fakellm.Reply(fakellm.Text("Thanks.")))
	if err := a.resume("th-1", rf.RunID, entry(id, "resolved", `{"age":42}`)); err != nil {
		t.Fatal(err)
	}
	a.finishedWith(agui.OutcomeSuccess)
	a.idle("th-1")
	if m := toolMessage(t, a.srv.Requests()[2], "call-q"); m.Content != `{"age":42}` {
		t.Fatalf("model read %q", m.Content)
	}
	a.assertValidHistory("th-1")
}

func TestMixedBatchTwoApprovalsAndAQuestion(t *testing.T) {
	a := newQuestions(t)
	rf := a.pause("th-1", "do things",
		fakellm.ToolCall(0, "call-1", "gated_echo", `{"text":"a"}`),
		fakellm.ToolCall(1, "call-q", "ask_user", `{"question":"Name?"}`),
		fakellm.ToolCall(2, "call-2", "gated_echo", `{"text":"b"}`))
	if len(rf.Outcome.Interrupts) != 3 {
		t.Fatalf("interrupts %+v", rf.Outcome.Interrupts)
	}
	qid := rf.Outcome.Interrupts[2].ID // approvals first, then questions
	if rf.Outcome.Interrupts[2].ToolCallID != "call-q" {
		t.Fatalf("order %+v", rf.Outcome.Interrupts)
	}
	// A partial batch is refused, nothing changes.
	var refused *agent.RefusedError
	err := a.resume("th-1", rf.RunID, entry("approval_call-1", "resolved", "true"), entry(qid, "resolved", `"Ada"`))
	if !errors.As(err, &refused) || refused.Batch.Code() != interrupt.CodeIncompleteBatch && refused.Batch.Errors[0].Code != interrupt.CodeUnknownInterrupt {
		t.Fatalf("partial batch: %v", err)
	}
	a.terminal()
	a.idle("th-1")
	if len(a.pending("th-1")) != 3 || len(a.executions()) != 0 {
		t.Fatal("a partial batch changed something")
	}
	a.srv.Enqueue(fakellm.Reply(fakellm.Text("Done.")))
	err = a.resume("th-1", rf.RunID,
		entry("approval_call-1", "resolved", "true"),
		entry("approval_call-2", "resolved", `{"approved":false,"payload":{"reason":"no"}}`),
		entry(qid, "resolved", `"Ada"`))
	if err != nil {
		t.Fatal(err)
	}
	a.finishedWith(agui.OutcomeSuccess)
	a.idle("th-1")
	if got := a.executions(); strings.Join(got, "|") != `{"text":"a"}` {
		t.Fatalf("executions %v", got)
	}
	req := a.srv.Requests()[1]
	if toolMessage(t, req, "call-q").Content != "Ada" || !strings.Contains(toolMessage(t, req, "call-2").Content, "no") {
		t.Fatalf("request %+v", req.Messages)
	}
	a.assertValidHistory("th-1")
	validateAGUI(t, a.sse("th-1"))
}

func TestLoopGuard(t *testing.T) {
	for _, keepGoing := range []bool{false, true} {
		name := "stop"
		if keepGoing {
			name = "keep going"
		}
		t.Run(name, func(t *testing.T) {
			a := newQuestions(t, func(o *agent.Options) { o.LoopGuard = 2 })
			a.srv.Enqueue(
				fakellm.Reply(fakellm.ToolCall(0, "c1", "list_files", `{}`)),
				fakellm.Reply(fakellm.ToolCall(0, "c2", "list_files", `{}`)))
			a.send("th-1", "loop")
			rf := a.finishedWith(agui.OutcomeInterrupt)
			a.idle("th-1")
			it := rf.Outcome.Interrupts[0]
			if it.Reason != "loop_guard" || string(it.ResponseSchema) != `{"type":"boolean"}` || len(a.srv.Requests()) != 2 {
				t.Fatalf("interrupt %+v", it)
			}
			var refused *agent.RefusedError
			if err := a.resume("th-1", rf.RunID, entry(it.ID, "resolved", `"yes"`)); !errors.As(err, &refused) {
				t.Fatalf("non-boolean accepted: %v", err)
			}
			a.terminal()
			a.idle("th-1")
			if keepGoing {
				a.srv.Enqueue(fakellm.Reply(fakellm.Text("Finished.")))
			}
			if err := a.resume("th-1", rf.RunID, entry(it.ID, "resolved", map[bool]string{true: "true", false: "false"}[keepGoing])); err != nil {
				t.Fatal(err)
			}
			a.finishedWith(agui.OutcomeSuccess)
			a.idle("th-1")
			msgs := a.messages("th-1")
			last := msgs[len(msgs)-1]
			if keepGoing {
				if len(a.srv.Requests()) != 3 || last.Content != "Finished." {
					t.Fatalf("continued: %d calls, last %+v", len(a.srv.Requests()), last)
				}
			} else if len(a.srv.Requests()) != 2 || last.Content != agent.LoopGuardNote {
				t.Fatalf("stopped: %d calls, last %+v", len(a.srv.Requests()), last)
			}
			a.assertValidHistory("th-1")
			validateAGUI(t, a.sse("th-1"))
		})
	}
}

// TestMiddlewareBoundaries pauses once at each boundary with a test
// middleware and checks the answer is applied there.
func TestMiddlewareBoundaries(t *testing.T) {
	def := agent.MustDefineInterrupt("test.note", json.RawMessage(`{"type":"object","properties":{"note":{"type":"string"}},"required":["note"]}`))
	for _, b := range []agent.Boundary{agent.BeforeModel, agent.AfterModel, agent.BeforeTools, agent.AfterTools} {
		t.Run(string(b), func(t *testing.T) {
			asked := 0
			var seen agent.HookState
			mw := agent.Middleware{
				Name: "test", Boundary: b, Definition: def,
				Check: func(s agent.HookState) *agent.Question {
					if asked > 0 {
						return nil
					}
					asked++
					seen = s
					return &agent.Question{Message: "Add a note?"}
				},
				Apply: func(s agent.HookState, answer json.RawMessage, cancelled bool) agent.HookAction {
					var v struct{ Note string }
					_ = json.Unmarshal(answer, &v)
					return agent.HookAction{Append: []history.Message{{Role: history.RoleUser, Content: "note: " + v.Note}}, System: "sys-" + v.Note}
				},
			}
			a := newQuestions(t, func(o *agent.Options) { o.Middleware = []agent.Middleware{mw} })
			var steps []fakellm.Response
			if b == agent.BeforeModel {
				steps = append(steps, fakellm.Reply(fakellm.Text("Hi.")))
			} else {
				steps = append(steps, fakellm.Reply(fakellm.ToolCall(0, "c1", "list_files", `{}`)), fakellm.Reply(fakellm.Text("Hi.")))
			}
			a.srv.Enqueue(steps[0])
			a.send("th-1", "go")
			rf := a.finishedWith(agui.OutcomeInterrupt)
			a.idle("th-1")
			if seen.Boundary != b || (b != agent.BeforeModel && len(seen.ToolCalls) != 1) {
				t.Fatalf("hook state %+v", seen)
			}
			ran := false
			for _, m := range a.messages("th-1") {
				if m.Role == history.RoleTool && m.ToolCallID == "c1" {
					ran = true
				}
			}
			if ran != (b == agent.AfterTools) {
				t.Fatalf("tools ran=%v at %s", ran, b)
			}
			it := rf.Outcome.Interrupts[0]
			var refused *agent.RefusedError
			if err := a.resume("th-1", rf.RunID, entry(it.ID, "resolved", `{}`)); !errors.As(err, &refused) {
				t.Fatalf("invalid answer accepted: %v", err)
			}
			a.terminal()
			a.idle("th-1")
			if len(steps) > 1 {
				a.srv.Enqueue(steps[1])
			}
			if err := a.resume("th-1", rf.RunID, entry(it.ID, "resolved", `{"note":"x"}`)); err != nil {
				t.Fatal(err)
			}
			a.finishedWith(agui.OutcomeSuccess)
			a.idle("th-1")
			reqs := a.srv.Requests()
			if len(reqs) != len(steps) {
				t.Fatalf("%d model calls, want %d", len(reqs), len(steps))
			}
			last := reqs[len(reqs)-1]
			if last.LastUser() != "note: x" || last.Messages[0].Content != "sys-x" {
				t.Fatalf("answer not applied: %+v", last.Messages)
			}
			if b != agent.BeforeModel {
				toolResultFor(t, a.messages("th-1"), "c1")
			}
			a.assertValidHistory("th-1")
		})
	}
}

func TestMiddlewareQuestionCancelledByNewInput(t *testing.T) {
	def := agent.MustDefineInterrupt("test.ok", json.RawMessage(`{"type":"boolean"}`))
	asked := false
	mw := agent.Middleware{Name: "t", Boundary: agent.BeforeTools, Definition: def,
		Check: func(agent.HookState) *agent.Question {
			if asked {
				return nil
			}
			asked = true
			return &agent.Question{Message: "Run tools?"}
		}}
	a := newQuestions(t, func(o *agent.Options) { o.Middleware = []agent.Middleware{mw} })
	a.srv.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "c1", "list_files", `{}`)))
	a.send("th-1", "go")
	a.finishedWith(agui.OutcomeInterrupt)
	a.idle("th-1")
	a.srv.Enqueue(fakellm.Reply(fakellm.Text("OK.")))
	a.send("th-1", "something else")
	a.finishedWith(agui.OutcomeSuccess)
	a.idle("th-1")
	if m := toolMessage(t, a.srv.Requests()[1], "c1"); m.Content != agent.ResultRepliedInChat {
		t.Fatalf("result %q", m.Content)
	}
	a.assertValidHistory("th-1")
}

func TestUnboundInterruptNeverBlocks(t *testing.T) {
	a := newQuestions(t)
	ctx := context.Background()
	a.srv.Enqueue(fakellm.Reply(fakellm.Text("Hello.")))
	a.send("th-1", "hi")
	a.finishedWith(agui.OutcomeSuccess)
	a.idle("th-1")
	for i, desc := range []string{
		`{"id":"foreign-1","reason":"confirm","message":"No binding"}`,
		`{"id":"foreign-2","reason":"confirm","metadata":{"tanstack:interruptBinding":{"v":99,"kind":"generic"}}}`,
		`{"id":"foreign-3","reason":"confirm","metadata":{"tanstack:interruptBinding":"garbage"}}`,
	} {
		err := a.db.PutInterrupts(ctx, []history.Interrupt{{ID: strings.Split(desc, `"`)[3], ThreadID: "th-1", RunID: "run-x",
			Kind: history.KindGeneric, Descriptor: json.RawMessage(desc), Status: history.InterruptPending, CreatedAt: int64(i)}})
		if err != nil {
			t.Fatal(err)
		}
	}
	items, err := a.rt.PendingItems(ctx, "th-1")
	if err != nil || len(items) != 3 {
		t.Fatalf("items %+v %v", items, err)
	}
	for _, it := range items {
		if it.Kind != "unbound" {
			t.Fatalf("kind %+v", it)
		}
	}
	if pend, _, _ := a.rt.PendingApprovals(ctx, "th-1"); len(pend) != 0 {
		t.Fatalf("unbound items answerable: %+v", pend)
	}
	if err := resumeRun(a.rt, ctx, "th-1", "run-x", nil, ""); !errors.Is(err, agent.ErrNothingPending) {
		t.Fatalf("resume: %v", err)
	}
	// Nothing to answer: no run was started for it.
	if running, _ := a.rt.Running("th-1"); running {
		t.Fatal("an empty answer started a run")
	}
	a.idle("th-1")
	a.srv.Enqueue(fakellm.Reply(fakellm.Text("Still here.")))
	a.send("th-1", "next")
	a.finishedWith(agui.OutcomeSuccess)
	a.idle("th-1")
	a.assertValidHistory("th-1")
}

func TestClientToolPendingAfterRestartNotRerun(t *testing.T) {
	a := newQuestions(t)
	a.approveAll("th-1", a.pause("th-1", "copy", fakellm.ToolCall(0, "call-c", "copy_to_clipboard", `{"text":"x"}`)), false)
	a.idle("th-1")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	a.restart(t, ctx)
	time.Sleep(50 * time.Millisecond)
	pend, err := a.rt.PendingClientTools(ctx, "th-1")
	if err != nil || len(pend) != 1 || pend[0].ToolCallID != "call-c" {
		t.Fatalf("pending after restart %+v %v", pend, err)
	}
	if running, _ := a.rt.Running("th-1"); running || len(a.srv.Requests()) != 1 {
		t.Fatal("something ran by itself after the restart")
	}
	a.srv.Enqueue(fakellm.Reply(fakellm.Text("Done.")))
	if _, err := completeClient(a.rt, ctx, "th-1", []agent.ClientToolResult{{ToolCallID: "call-c", Content: "copied"}}, ""); err != nil {
		t.Fatal(err)
	}
	a.finishedWith(agui.OutcomeSuccess)
	a.idle("th-1")
	a.assertValidHistory("th-1")
}

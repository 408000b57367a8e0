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
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
)

// A tool that asks the person while it runs (an MCP server's elicitation
// or sampling request): the run pauses on a generic interrupt bound to the
// call, the call stays open, and the continuation delivers the answer.

const formSchema = `{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},"required":["name"],"additionalProperties":false}`

// asker is an Abortable tool whose Run asks once (twice with "twice") and
// returns what it was told; it records how its context ended.
type asker struct {
	mu        sync.Mutex
	replies   []tools.Reply
	cancelled int
	progress  int // reports to send before asking
	running   chan struct{}
	giveUp    time.Duration // when set, the tool stops waiting for its answer after this
}

func (a *asker) tool() tools.Tool {
	return tools.Tool{
		Name: "asker", Description: "asks the person mid-call", OnStop: tools.Abortable,
		Schema:        json.RawMessage(`{"type":"object","properties":{"kind":{"type":"string"},"twice":{"type":"boolean"}},"additionalProperties":false}`),
		NeedsApproval: nil,
		Run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
			var in struct {
				Kind  string
				Twice bool
			}
			_ = json.Unmarshal(args, &in)
			for i := 0; i < a.progress; i++ {
				tools.ReportProgress(ctx, tools.Progress{Progress: float64(i + 1), Total: float64(a.progress), Message: "working"})
			}
			if a.running != nil {
				a.running <- struct{}{}
			}
			p := tools.Prompt{Kind: tools.PromptQuestion, Source: "Edge", Message: "Who are you?", Schema: json.RawMessage(formSchema)}
			if in.Kind == "sampling" {
				p = tools.Prompt{Kind: tools.PromptSampling, Source: "Edge", Message: "Edge wants to ask the model",
					Details: map[string]any{"maxTokens": 50, "messages": []map[string]string{{"role": "user", "text": "hi"}}}}
			}
			if in.Kind == "url" {
				p = tools.Prompt{Kind: tools.PromptURL, Source: "Edge", Message: "Sign in to Edge", URL: "https://auth.example.test/start"}
			}
			var out []string
			for n := 0; n < 1 || (in.Twice && n < 2); n++ {
				askCtx, cancel := ctx, context.CancelFunc(func() {})
				if a.giveUp > 0 {
					askCtx, cancel = context.WithTimeout(ctx, a.giveUp)
				}
				r, err := tools.Ask(askCtx, p)
				cancel()
				if err != nil {
					a.mu.Lock()
					a.cancelled++
					a.mu.Unlock()
					return tools.Result{Content: "ask failed: " + err.Error(), IsError: true}, nil
				}
				a.mu.Lock()
				a.replies = append(a.replies, r)
				a.mu.Unlock()
				out = append(out, r.Action+" "+string(r.Content)+r.Reason)
			}
			select {
			case <-ctx.Done():
				a.mu.Lock()
				a.cancelled++
				a.mu.Unlock()
				return tools.Result{Content: "cancelled", IsError: true}, nil
			default:
			}
			return tools.Result{Content: strings.Join(out, "; ")}, nil
		},
	}
}

func (a *asker) got() ([]tools.Reply, int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]tools.Reply(nil), a.replies...), a.cancelled
}

func newAskerHarness(t *testing.T, a *asker, replies ...sreply) (*harness, *scriptedModel) {
	t.Helper()
	m := newScriptedModel(replies...)
	reg, err := tools.NewRegistry(a.tool())
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, func(o *agent.Options) {
		o.Model = func(context.Context, string) (agent.Model, error) { return m, nil }
		o.Tools = func(context.Context, string) *tools.Registry { return reg }
	})
	return h, m
}

// pausedOn sends text and returns the RUN_FINISHED interrupt outcome's one
// item.
func pausedOn(t *testing.T, h *harness, tid string) (*agui.RunFinished, agui.Interrupt) {
	t.Helper()
	h.send(tid, "go")
	rf := finished(t, h.terminal(), agui.OutcomeInterrupt)
	if len(rf.Outcome.Interrupts) != 1 {
		t.Fatalf("outcome %+v, want one interrupt", rf.Outcome)
	}
	return rf, rf.Outcome.Interrupts[0]
}

func answerOne(t *testing.T, h *harness, tid, parent string, e agui.ResumeEntry) error {
	t.Helper()
	_, err := h.rt.Answer(context.Background(), tid, agent.Answers{ParentRunID: parent, Interrupts: []agent.InterruptAnswer{{ResumeEntry: e}}, Complete: true})
	return err
}

// forStopAndNewInput runs test as two parallel subtests, how being
// "stop" and "new input" (see moveOn).
func forStopAndNewInput(t *testing.T, test func(t *testing.T, how string)) {
	for _, how := range []string{"stop", "new input"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			test(t, how)
		})
	}
}

// moveOn leaves the thread's paused run the way how says ("stop": Stop,
// else new input) and waits until the thread is idle.
func moveOn(t *testing.T, h *harness, tid, how string) {
	t.Helper()
	if how == "stop" {
		h.rt.Interrupt(tid)
		finished(t, h.terminal(), agui.OutcomeCancelled)
	} else {
		h.send(tid, "never mind")
		finished(t, h.terminal(), agui.OutcomeSuccess)
	}
	h.idle(tid)
}

func storedResult(t *testing.T, h *harness, tid, callID string) history.Message {
	t.Helper()
	for _, m := range h.messages(tid) {
		if m.Role == history.RoleTool && m.ToolCallID == callID {
			return m
		}
	}
	t.Fatalf("no result for %s in %+v", callID, h.messages(tid))
	return history.Message{}
}

func TestMidCallQuestionPausesTheRunAndTheContinuationDeliversTheAnswer(t *testing.T) {
	a := &asker{}
	h, m := newAskerHarness(t, a, reply(sCall(0, "call-1", "asker", `{}`)), reply(sText("Thanks, Ada.")))
	rf, it := pausedOn(t, h, "th-1")
	if it.ToolCallID != "call-1" || string(it.ResponseSchema) == "" {
		t.Fatalf("interrupt %+v", it)
	}
	meta, _ := json.Marshal(it.Metadata[agent.MetaPrompt])
	var pm agent.PromptMeta
	if err := json.Unmarshal(meta, &pm); err != nil || pm.Kind != tools.PromptQuestion || pm.Source != "Edge" || pm.Message != "Who are you?" {
		t.Fatalf("prompt metadata %s (%v)", meta, err)
	}
	if m.Calls() != 1 {
		t.Fatalf("model calls %d while the question waits", m.Calls())
	}
	// An answer that does not fit the form is refused; the call still waits.
	err := answerOne(t, h, "th-1", rf.RunID, agui.ResumeEntry{InterruptID: it.ID, Status: "resolved", Payload: json.RawMessage(`{"age":"x"}`)})
	var refused *agent.RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("an answer that does not match the form: %v", err)
	}
	if _, ok := h.terminal().(*agui.RunError); !ok {
		t.Fatal("the refused continuation did not end with RUN_ERROR")
	}
	h.idle("th-1")
	if err := answerOne(t, h, "th-1", rf.RunID, agui.ResumeEntry{InterruptID: it.ID, Status: "resolved", Payload: json.RawMessage(`{"name":"Ada","age":36}`)}); err != nil {
		t.Fatal(err)
	}
	finished(t, h.terminal(), agui.OutcomeSuccess)
	h.idle("th-1")
	res := storedResult(t, h, "th-1", "call-1")
	if res.IsError || res.Content != `accept {"name":"Ada","age":36}` {
		t.Fatalf("tool result %+v", res)
	}
	if got := m.Calls(); got != 2 {
		t.Fatalf("model calls %d, want 2", got)
	}
	h.assertValidHistory("th-1")
	validateAGUI(t, h.sse("th-1"))
}

func TestMidCallQuestionAnswers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		args   string
		answer agui.ResumeEntry
		want   tools.Reply
		result string
	}{
		{"declined", `{}`, agui.ResumeEntry{Status: "cancelled", Metadata: map[string]any{"action": "decline"}}, tools.Reply{Action: tools.ReplyDecline}, "decline "},
		{"dismissed", `{}`, agui.ResumeEntry{Status: "cancelled"}, tools.Reply{Action: tools.ReplyCancel}, "cancel "},
		{"sampling approved", `{"kind":"sampling"}`, agui.ResumeEntry{Status: "resolved", Payload: json.RawMessage(`{"approved":true}`)}, tools.Reply{Action: tools.ReplyAccept}, "accept "},
		{"sampling denied", `{"kind":"sampling"}`, agui.ResumeEntry{Status: "resolved", Payload: json.RawMessage(`{"approved":false,"reason":"not now"}`)}, tools.Reply{Action: tools.ReplyDecline, Reason: "not now"}, "decline not now"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			a := &asker{}
			h, _ := newAskerHarness(t, a, reply(sCall(0, "call-1", "asker", c.args)), reply(sText("ok")))
			rf, it := pausedOn(t, h, "th-1")
			e := c.answer
			e.InterruptID = it.ID
			if err := answerOne(t, h, "th-1", rf.RunID, e); err != nil {
				t.Fatal(err)
			}
			finished(t, h.terminal(), agui.OutcomeSuccess)
			h.idle("th-1")
			got, _ := a.got()
			if len(got) != 1 || got[0].Action != c.want.Action || got[0].Reason != c.want.Reason {
				t.Fatalf("the tool got %+v, want %+v", got, c.want)
			}
			if res := storedResult(t, h, "th-1", "call-1"); !strings.HasPrefix(res.Content, c.result) {
				t.Fatalf("result %q", res.Content)
			}
		})
	}
}

// A call that asks twice pauses twice; each continuation takes it back.
func TestMidCallSecondQuestionPausesAgain(t *testing.T) {
	t.Parallel()
	a := &asker{}
	h, m := newAskerHarness(t, a, reply(sCall(0, "call-1", "asker", `{"twice":true}`)), reply(sText("done")))
	rf, it := pausedOn(t, h, "th-1")
	if err := answerOne(t, h, "th-1", rf.RunID, agui.ResumeEntry{InterruptID: it.ID, Status: "resolved", Payload: json.RawMessage(`{"name":"A"}`)}); err != nil {
		t.Fatal(err)
	}
	rf2 := finished(t, h.terminal(), agui.OutcomeInterrupt)
	it2 := rf2.Outcome.Interrupts[0]
	if it2.ID == it.ID || it2.ToolCallID != "call-1" || m.Calls() != 1 {
		t.Fatalf("second pause %+v after %d model calls", it2, m.Calls())
	}
	if err := answerOne(t, h, "th-1", rf2.RunID, agui.ResumeEntry{InterruptID: it2.ID, Status: "resolved", Payload: json.RawMessage(`{"name":"B"}`)}); err != nil {
		t.Fatal(err)
	}
	finished(t, h.terminal(), agui.OutcomeSuccess)
	h.idle("th-1")
	if res := storedResult(t, h, "th-1", "call-1"); res.Content != `accept {"name":"A"}; accept {"name":"B"}` {
		t.Fatalf("result %q", res.Content)
	}
	validateAGUI(t, h.sse("th-1"))
}

// Stop while the question waits: the call is cancelled (its request is
// answered "cancel"), its result says side effects are unknown, and no
// model call follows. New input does the same, and says the person replied
// in chat.
func TestMidCallQuestionStopAndNewInput(t *testing.T) {
	t.Parallel()
	forStopAndNewInput(t, func(t *testing.T, how string) {
		a := &asker{}
		h, m := newAskerHarness(t, a, reply(sCall(0, "call-1", "asker", `{}`)), reply(sText("moved on")))
		pausedOn(t, h, "th-1")
		moveOn(t, h, "th-1", how)
		res := storedResult(t, h, "th-1", "call-1")
		if !res.IsError || !strings.HasPrefix(res.Content, history.ResultInterruptedMidRun) || res.ToolState != string(contract.ToolInterruptedMidRun) {
			t.Fatalf("result %+v", res)
		}
		if how == "new input" && !strings.Contains(res.Content, agent.ResultRepliedInChat) {
			t.Fatalf("result %q does not say the person replied in chat", res.Content)
		}
		waitFor(t, func() bool { _, c := a.got(); return c == 1 }, "the call to see its question cancelled")
		want := 1
		if how == "new input" {
			want = 2
		}
		if m.Calls() != want {
			t.Fatalf("model calls %d, want %d", m.Calls(), want)
		}
		if len(h.waitingRuns("th-1")) != 0 {
			t.Fatal("something still waits")
		}
		h.assertValidHistory("th-1")
	})
}

// Progress reports of a running call reach the window throttled: ten
// thousand reports are a handful of events, the last one included in
// the final state.
func TestMidCallProgressIsThrottled(t *testing.T) {
	t.Parallel()
	a := &asker{progress: 10000}
	h, _ := newAskerHarness(t, a, reply(sCall(0, "call-1", "asker", `{}`)))
	pausedOn(t, h, "th-1")
	n := 0
	h.mu.Lock()
	for _, e := range h.events {
		if c, ok := e.Event.(*agui.Custom); ok && c.Name == contract.CustomToolState {
			if b, _ := json.Marshal(c.Value); strings.Contains(string(b), `"progress"`) {
				n++
			}
		}
	}
	h.mu.Unlock()
	if n < 1 || n > 20 {
		t.Fatalf("%d progress events for 10000 reports", n)
	}
}

func waitFor(t *testing.T, ok func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A tool that stops waiting for its answer (an MCP server's request timed
// out) settles its own question: the card goes away, the call's result is
// what the tool returned, and the turn goes on without the person.
func TestMidCallQuestionWithdrawnByTheTool(t *testing.T) {
	t.Parallel()
	a := &asker{giveUp: 50 * time.Millisecond}
	h, m := newAskerHarness(t, a, reply(sCall(0, "call-1", "asker", `{}`)), reply(sText("It gave up.")))
	pausedOn(t, h, "th-1")
	finished(t, h.terminal(), agui.OutcomeSuccess) // the continuation the withdrawal started
	h.idle("th-1")
	if res := storedResult(t, h, "th-1", "call-1"); !res.IsError || !strings.HasPrefix(res.Content, "ask failed") {
		t.Fatalf("result %+v", res)
	}
	if len(h.waitingRuns("th-1")) != 0 || m.Calls() != 2 {
		t.Fatalf("waiting %v after %d model calls", h.waitingRuns("th-1"), m.Calls())
	}
	h.assertValidHistory("th-1")
	validateAGUI(t, h.sse("th-1"))
}

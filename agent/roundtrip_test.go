package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/tools"
)

// A tool that needs the person and keeps nothing open (MCP 2026-07-28's
// input_required): its result asks, the run ends on the questions, and
// the continuation runs the same call again with the answers and the
// tool's state.

// rounder answers input_required until it got its answers: "keys" lists
// the questions it asks in one round (default "q"), "rounds" how many
// rounds it asks before it finishes (default 1).
type rounder struct {
	mu      sync.Mutex
	runs    int
	retries []tools.Retry
}

func (r *rounder) tool() tools.Tool {
	return tools.Tool{
		Name: "rounder", Description: "asks by its result", OnStop: tools.Abortable,
		Schema: json.RawMessage(`{"type":"object","properties":{"keys":{"type":"array","items":{"type":"string"}},"rounds":{"type":"integer"}},"additionalProperties":false}`),
		Run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
			var in struct {
				Keys   []string
				Rounds int
			}
			_ = json.Unmarshal(args, &in)
			if len(in.Keys) == 0 {
				in.Keys = []string{"q"}
			}
			if in.Rounds == 0 {
				in.Rounds = 1
			}
			rt, retried := tools.RetryOf(ctx)
			r.mu.Lock()
			r.runs++
			if retried {
				r.retries = append(r.retries, rt)
			}
			r.mu.Unlock()
			if !retried || rt.Round < in.Rounds {
				prompts := map[string]tools.Prompt{}
				for _, k := range in.Keys {
					prompts[k] = tools.Prompt{Kind: tools.PromptQuestion, Source: "Edge", Message: "Question " + k, Schema: json.RawMessage(formSchema)}
				}
				state, _ := json.Marshal(map[string]int{"round": rt.Round})
				return tools.Result{Content: "needs input", IsError: true, Input: &tools.NeedsInput{Prompts: prompts, State: state}}, nil
			}
			var out []string
			keys := make([]string, 0, len(rt.Replies))
			for k := range rt.Replies {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				out = append(out, k+"="+rt.Replies[k].Action+" "+string(rt.Replies[k].Content))
			}
			return tools.Result{Content: fmt.Sprintf("state %s: %s", rt.State, strings.Join(out, "; "))}, nil
		},
	}
}

func (r *rounder) got() (int, []tools.Retry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.runs, append([]tools.Retry(nil), r.retries...)
}

func rounderOpt(r *rounder, m *scriptedModel) func(*agent.Options) {
	return func(o *agent.Options) {
		reg, _ := tools.NewRegistry(r.tool())
		o.Model = func(context.Context, string) (agent.Model, error) { return m, nil }
		o.Tools = func(context.Context, string) *tools.Registry { return reg }
	}
}

func newRounderHarness(t *testing.T, r *rounder, more func(*agent.Options), replies ...sreply) (*harness, *scriptedModel, func(*agent.Options)) {
	t.Helper()
	m := newScriptedModel(replies...)
	opt := rounderOpt(r, m)
	if more != nil {
		base := opt
		opt = func(o *agent.Options) { base(o); more(o) }
	}
	return newHarness(t, opt), m, opt
}

func answerAll(t *testing.T, h *harness, tid string, rf *agui.RunFinished, payload string) {
	t.Helper()
	var as []agent.InterruptAnswer
	for _, it := range rf.Outcome.Interrupts {
		as = append(as, agent.InterruptAnswer{ResumeEntry: agui.ResumeEntry{InterruptID: it.ID, Status: "resolved", Payload: json.RawMessage(payload)}})
	}
	if _, err := h.rt.Answer(context.Background(), tid, agent.Answers{ParentRunID: rf.RunID, Interrupts: as, Complete: true}); err != nil {
		t.Fatal(err)
	}
}

// The question of an input_required result is a card bound to the call;
// the tool's Run has returned (nothing waits); the answer retries the
// call once with the state and the reply, and the model reads one result.
func TestRoundTripPausesWithNothingWaitingAndRetriesOnce(t *testing.T) {
	t.Parallel()
	r := &rounder{}
	h, m, _ := newRounderHarness(t, r, nil, reply(sCall(0, "call-1", "rounder", `{}`)), reply(sText("Thanks.")))
	h.send("th-1", "go")
	rf := finished(t, h.terminal(), agui.OutcomeInterrupt)
	if len(rf.Outcome.Interrupts) != 1 || rf.Outcome.Interrupts[0].ToolCallID != "call-1" {
		t.Fatalf("outcome %+v", rf.Outcome)
	}
	if runs, _ := r.got(); runs != 1 || m.Calls() != 1 {
		t.Fatalf("runs %d, model calls %d", runs, m.Calls())
	}
	h.idle("th-1")
	answerAll(t, h, "th-1", rf, `{"name":"Ada"}`)
	finished(t, h.terminal(), agui.OutcomeSuccess)
	h.idle("th-1")
	runs, retries := r.got()
	if runs != 2 || len(retries) != 1 || retries[0].Round != 1 || string(retries[0].State) != `{"round":0}` {
		t.Fatalf("runs %d, retries %+v", runs, retries)
	}
	if res := storedResult(t, h, "th-1", "call-1"); res.IsError || res.Content != `state {"round":0}: q=accept {"name":"Ada"}` {
		t.Fatalf("result %+v", res)
	}
	if m.Calls() != 2 {
		t.Fatalf("model calls %d", m.Calls())
	}
	h.assertValidHistory("th-1")
	validateAGUI(t, h.sse("th-1"))
}

// Several questions in one round are several cards; one answer batch
// retries the call with all of them. Decline and dismiss reach the tool
// as the protocol's actions.
func TestRoundTripSeveralQuestionsAndTheirActions(t *testing.T) {
	t.Parallel()
	r := &rounder{}
	h, _, _ := newRounderHarness(t, r, nil, reply(sCall(0, "call-1", "rounder", `{"keys":["a","b","c"]}`)), reply(sText("ok")))
	h.send("th-1", "go")
	rf := finished(t, h.terminal(), agui.OutcomeInterrupt)
	if len(rf.Outcome.Interrupts) != 3 {
		t.Fatalf("outcome %+v", rf.Outcome)
	}
	h.idle("th-1")
	// The cards are in key order: a, b, c.
	entries := []agui.ResumeEntry{
		{Status: "resolved", Payload: json.RawMessage(`{"name":"A"}`)},
		{Status: "cancelled", Metadata: map[string]any{"action": "decline"}},
		{Status: "cancelled"},
	}
	var as []agent.InterruptAnswer
	for i, it := range rf.Outcome.Interrupts {
		e := entries[i]
		e.InterruptID = it.ID
		as = append(as, agent.InterruptAnswer{ResumeEntry: e})
	}
	if _, err := h.rt.Answer(context.Background(), "th-1", agent.Answers{ParentRunID: rf.RunID, Interrupts: as, Complete: true}); err != nil {
		t.Fatal(err)
	}
	finished(t, h.terminal(), agui.OutcomeSuccess)
	h.idle("th-1")
	want := `state {"round":0}: a=accept {"name":"A"}; b=decline ; c=cancel `
	if res := storedResult(t, h, "th-1", "call-1"); res.Content != want {
		t.Fatalf("result %q, want %q", res.Content, want)
	}
}

// A retry that asks again is a new pause; a call that keeps asking meets
// the loop guard's limit and the model reads why it ended.
func TestRoundTripAsksAgainAndMeetsTheLoopGuard(t *testing.T) {
	t.Parallel()
	r := &rounder{}
	h, m, _ := newRounderHarness(t, r, func(o *agent.Options) { o.LoopGuard = 3 },
		reply(sCall(0, "call-1", "rounder", `{"rounds":2}`)), reply(sCall(0, "call-2", "rounder", `{"rounds":100}`)), reply(sText("done")))
	h.send("th-1", "go")
	rf := finished(t, h.terminal(), agui.OutcomeInterrupt)
	h.idle("th-1")
	answerAll(t, h, "th-1", rf, `{"name":"1"}`)
	rf = finished(t, h.terminal(), agui.OutcomeInterrupt) // call-1 asks again
	if rf.Outcome.Interrupts[0].ToolCallID != "call-1" || m.Calls() != 1 {
		t.Fatalf("second round %+v after %d model calls", rf.Outcome, m.Calls())
	}
	h.idle("th-1")
	answerAll(t, h, "th-1", rf, `{"name":"2"}`)
	// call-1 finishes; call-2 asks and asks.
	for i := 0; i < 3; i++ {
		rf = finished(t, h.terminal(), agui.OutcomeInterrupt)
		if rf.Outcome.Interrupts[0].ToolCallID != "call-2" {
			t.Fatalf("round %d: %+v", i, rf.Outcome)
		}
		h.idle("th-1")
		answerAll(t, h, "th-1", rf, `{"name":"x"}`)
	}
	finished(t, h.terminal(), agui.OutcomeSuccess)
	h.idle("th-1")
	if res := storedResult(t, h, "th-1", "call-1"); res.Content != `state {"round":1}: q=accept {"name":"2"}` {
		t.Fatalf("call-1 %q", res.Content)
	}
	if res := storedResult(t, h, "th-1", "call-2"); !res.IsError || !strings.Contains(res.Content, "loop guard") {
		t.Fatalf("call-2 %+v", res)
	}
	h.assertValidHistory("th-1")
}

// Stop or new input while the question waits gives the call its result;
// nothing is retried afterwards.
func TestRoundTripStopAndNewInput(t *testing.T) {
	t.Parallel()
	forStopAndNewInput(t, func(t *testing.T, how string) {
		r := &rounder{}
		h, _, _ := newRounderHarness(t, r, nil, reply(sCall(0, "call-1", "rounder", `{}`)), reply(sText("moved on")))
		h.send("th-1", "go")
		finished(t, h.terminal(), agui.OutcomeInterrupt)
		h.idle("th-1")
		moveOn(t, h, "th-1", how)
		if res := storedResult(t, h, "th-1", "call-1"); !res.IsError {
			t.Fatalf("result %+v", res)
		}
		e, err := h.db.ToolExecution(context.Background(), "th-1", "call-1")
		if err != nil || e.State != "finished" {
			t.Fatalf("execution %+v (%v)", e, err)
		}
		if runs, _ := r.got(); runs != 1 || len(h.waitingRuns("th-1")) != 0 {
			t.Fatalf("runs %d, waiting %v", runs, h.waitingRuns("th-1"))
		}
		h.assertValidHistory("th-1")
	})
}

// Regression (issue 20, bug 5, runtime side): the question survives a
// restart of the runtime with a recovery, and its answer retries the call.
func TestRoundTripQuestionSurvivesARestart(t *testing.T) {
	t.Parallel()
	r := &rounder{}
	h, m, opt := newRounderHarness(t, r, nil, reply(sCall(0, "call-1", "rounder", `{}`)), reply(sText("after the restart")))
	h.send("th-1", "go")
	rf := finished(t, h.terminal(), agui.OutcomeInterrupt)
	h.idle("th-1")
	h.rebuild(opt)
	if rep, err := h.db.Recover(context.Background()); err != nil || rep.EndedMidCallQuestions != 0 || rep.PendingInterrupts != 1 {
		t.Fatalf("recovery %+v (%v)", rep, err)
	}
	items, _, err := h.rt.PendingApprovals(context.Background(), "th-1")
	if err != nil || len(items) != 1 || items[0].ID != rf.Outcome.Interrupts[0].ID {
		t.Fatalf("pending after the restart %+v (%v)", items, err)
	}
	answerAll(t, h, "th-1", rf, `{"name":"Ada"}`)
	finished(t, h.terminal(), agui.OutcomeSuccess)
	h.idle("th-1")
	if res := storedResult(t, h, "th-1", "call-1"); res.Content != `state {"round":0}: q=accept {"name":"Ada"}` {
		t.Fatalf("result %+v", res)
	}
	if runs, _ := r.got(); runs != 2 || m.Calls() != 2 {
		t.Fatalf("runs %d, model calls %d", runs, m.Calls())
	}
}

// A retried call that asks a question while it runs (a parked question)
// and then needs input again has still answered its earlier rounds: the
// loop guard counts them, it does not start again from one.
func TestRoundTripAfterAParkedQuestionKeepsItsRoundCount(t *testing.T) {
	t.Parallel()
	form := tools.Prompt{Kind: tools.PromptQuestion, Source: "Edge", Message: "Question", Schema: json.RawMessage(formSchema)}
	asker := tools.Tool{
		Name: "rounder", Description: "asks while it runs, then by its result", OnStop: tools.Abortable,
		Schema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Run: func(ctx context.Context, _ json.RawMessage) (tools.Result, error) {
			if _, retried := tools.RetryOf(ctx); retried {
				if _, err := tools.Ask(ctx, form); err != nil {
					return tools.Result{Content: err.Error(), IsError: true}, nil
				}
			}
			return tools.Result{Content: "needs input", IsError: true, Input: &tools.NeedsInput{Prompts: map[string]tools.Prompt{"q": form}, State: json.RawMessage(`{}`)}}, nil
		},
	}
	m := newScriptedModel(reply(sCall(0, "call-1", "rounder", `{}`)), reply(sText("done")))
	h := newHarness(t, func(o *agent.Options) {
		reg, _ := tools.NewRegistry(asker)
		o.Model = func(context.Context, string) (agent.Model, error) { return m, nil }
		o.Tools = func(context.Context, string) *tools.Registry { return reg }
		o.LoopGuard = 2
	})
	h.send("th-1", "go")
	// Round 1, its retry's question, round 2, its retry's question; the
	// call then asks a third round, one more than the guard allows.
	for i := 0; i < 4; i++ {
		rf := finished(t, h.terminal(), agui.OutcomeInterrupt)
		h.idle("th-1")
		answerAll(t, h, "th-1", rf, `{"name":"x"}`)
	}
	finished(t, h.terminal(), agui.OutcomeSuccess)
	h.idle("th-1")
	if res := storedResult(t, h, "th-1", "call-1"); !res.IsError || !strings.Contains(res.Content, "loop guard") {
		t.Fatalf("call-1 %+v", res)
	}
}

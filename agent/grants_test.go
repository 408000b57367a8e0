package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
)

// grantHarness has a gated tool whose run moves an injected clock on by
// step, so time passes between two calls of one answer.
func grantHarness(t *testing.T, step time.Duration) (*harness, *atomic.Int64, *atomic.Int32) {
	t.Helper()
	var clock atomic.Int64
	clock.Store(time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC).UnixMilli())
	var runs atomic.Int32
	gated := tools.Tool{
		Name: "gated_echo", Description: "echoes its text; needs approval",
		Schema:        json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`),
		NeedsApproval: func(json.RawMessage) bool { return true },
		Run: func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
			runs.Add(1)
			clock.Add(step.Milliseconds())
			return tools.Result{Content: "echoed"}, nil
		},
	}
	reg, err := tools.NewRegistry(gated)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, func(o *agent.Options) {
		o.Tools = func(context.Context, string) *tools.Registry { return reg }
		o.Now = func() time.Time { return time.UnixMilli(clock.Load()) }
	})
	return h, &clock, &runs
}

// TestGrantExpiringBetweenTwoCallsOfOneTurnAsks: a 15-minute grant lets
// the first of two calls in one answer run; that call takes 16 minutes
// (the injected clock), so the second call is asked about: the rule is
// read again when the second call is decided, and it has ended.
func TestGrantExpiringBetweenTwoCallsOfOneTurnAsks(t *testing.T) {
	h, clock, runs := grantHarness(t, 16*time.Minute)
	ctx := context.Background()
	exp, _ := history.ExpiresFor(history.Duration15m, time.UnixMilli(clock.Load()))
	if err := h.db.AddPermissionRule(ctx, history.PermissionRule{ID: "r15", Tool: "gated_echo", Scope: history.ScopeTool,
		Duration: history.Duration15m, ExpiresAt: exp}); err != nil {
		t.Fatal(err)
	}
	h.srv.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "call-1", "gated_echo", `{"text":"one"}`), fakellm.ToolCall(1, "call-2", "gated_echo", `{"text":"two"}`)))
	h.send("th-g", "two calls")
	rf, ok := h.terminal().(*agui.RunFinished)
	if !ok || rf.Outcome == nil || rf.Outcome.Type != agui.OutcomeInterrupt {
		t.Fatalf("want the run paused on the second call, got %#v", rf)
	}
	h.idle("th-g")
	if n := runs.Load(); n != 1 {
		t.Fatalf("runs = %d; want the first call only", n)
	}
	if len(rf.Outcome.Interrupts) != 1 || rf.Outcome.Interrupts[0].ToolCallID != "call-2" {
		t.Fatalf("interrupts = %+v; want one for call-2", rf.Outcome.Interrupts)
	}
	es, err := h.db.Ledger(ctx, history.LedgerFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for i := len(es) - 1; i >= 0; i-- {
		kinds = append(kinds, es[i].Kind+":"+es[i].CallID)
	}
	want := "rule-created:,allowed-by-rule:call-1,outcome:call-1,rule-expired:"
	if got := strings.Join(kinds, ","); got != want {
		t.Errorf("ledger = %s; want %s", got, want)
	}
}

// TestDenyRuleBeatsAllowRuleInTheRuntime: the whole tool is allowed, and a
// deny rule refuses one argument value: that call does not run, and the
// model reads the rule's reason.
func TestDenyRuleBeatsAllowRuleInTheRuntime(t *testing.T) {
	h, _, runs := grantHarness(t, 0)
	ctx := context.Background()
	for _, r := range []history.PermissionRule{
		{ID: "allow", Tool: "gated_echo", Scope: history.ScopeTool},
		{ID: "deny", Tool: "gated_echo", Scope: history.ScopeArgEquals, Arg: "text", Pattern: "rm -rf", Effect: history.EffectDeny, Reason: "never rm -rf anything"},
	} {
		if err := h.db.AddPermissionRule(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	h.srv.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "call-1", "gated_echo", `{"text":"rm -rf"}`), fakellm.ToolCall(1, "call-2", "gated_echo", `{"text":"ls"}`)),
		fakellm.Reply(fakellm.Text("Done.")))
	h.send("th-d", "go")
	if got := outcome(t, h.terminal()); got != agui.OutcomeSuccess {
		t.Fatalf("outcome %s", got)
	}
	h.idle("th-d")
	if n := runs.Load(); n != 1 {
		t.Fatalf("runs = %d; want only the allowed call", n)
	}
	reqs := h.srv.Requests()
	m := toolMessage(t, reqs[len(reqs)-1], "call-1")
	if !strings.Contains(m.Content, agent.ResultRefusedByRule) || !strings.Contains(m.Content, "never rm -rf anything") {
		t.Errorf("the model read %q; want the rule's reason", m.Content)
	}
	if rep, err := h.db.VerifyLedger(ctx); err != nil || !rep.OK {
		t.Errorf("ledger verify = %+v, %v", rep, err)
	}
}

package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
)

// TestLedgerRecordsStopDuringAPendingApproval: Stop while an approval
// waits records the call as stopped (its arguments, and what the model
// reads), under the call's tool name with its arguments (the Activity
// view filters by tool), and the chain still verifies.
func TestLedgerRecordsStopDuringAPendingApproval(t *testing.T) {
	h, _, runs := grantHarness(t, 0)
	ctx := context.Background()
	h.srv.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "call-1", "gated_echo", `{"text":"one"}`)))
	h.send("th-s", "go")
	rf, ok := h.terminal().(*agui.RunFinished)
	if !ok || rf.Outcome == nil || rf.Outcome.Type != agui.OutcomeInterrupt {
		t.Fatalf("want the run paused on the call, got %#v", rf)
	}
	h.idle("th-s")
	if err := h.rt.StopAndWait(ctx, "th-s"); err != nil {
		t.Fatal(err)
	}
	es, err := h.db.Ledger(ctx, history.LedgerFilter{ThreadID: "th-s"})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for i := len(es) - 1; i >= 0; i-- {
		kinds = append(kinds, es[i].Kind+":"+es[i].CallID)
	}
	if got := strings.Join(kinds, ","); got != "stopped:call-1" {
		t.Fatalf("ledger = %s; want stopped:call-1", got)
	}
	if es[0].Tool != "gated_echo" || !strings.Contains(es[0].Arguments, `"one"`) {
		t.Errorf("the stopped entry does not name the call's tool and arguments: %+v", es[0])
	}
	if es[0].Reason == "" {
		t.Errorf("the stopped entry says nothing of what the model read: %+v", es[0])
	}
	if runs.Load() != 0 {
		t.Error("the stopped call ran")
	}
	if rep, err := h.db.VerifyLedger(ctx); err != nil || !rep.OK {
		t.Errorf("verify = %+v %v", rep, err)
	}
}

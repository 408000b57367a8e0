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

// TestLedgerRecordsHowAStopCame: a Stop sent by an AG-UI client (or a
// browser) is recorded as coming that way, not as the window's; a Stop
// whose way is unknown keeps the store's default (the window).
func TestLedgerRecordsHowAStopCame(t *testing.T) {
	for _, tc := range []struct{ via, want string }{
		{history.TransportAGUI, history.TransportAGUI},
		{history.TransportBrowser, history.TransportBrowser},
		{"", history.TransportWindow},
	} {
		t.Run("via="+tc.via, func(t *testing.T) {
			h, _, _ := grantHarness(t, 0)
			ctx := context.Background()
			h.srv.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "call-1", "gated_echo", `{"text":"one"}`)))
			h.send("th-v", "go")
			if rf, ok := h.terminal().(*agui.RunFinished); !ok || rf.Outcome == nil || rf.Outcome.Type != agui.OutcomeInterrupt {
				t.Fatalf("want the run paused on the call")
			}
			h.idle("th-v")
			h.rt.InterruptVia("th-v", tc.via)
			h.terminal() // the stop run's own end
			h.idle("th-v")
			es, err := h.db.Ledger(ctx, history.LedgerFilter{ThreadID: "th-v"})
			if err != nil {
				t.Fatal(err)
			}
			if len(es) != 1 || es[0].Kind != history.LedgerStopped || es[0].Transport != tc.want {
				t.Fatalf("ledger = %+v; want one stopped entry via %q", es, tc.want)
			}
		})
	}
}

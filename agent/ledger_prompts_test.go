package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
)

// TestLedgerRecordsSamplingAndURLConfirmations: an MCP server's sampling
// request and its URL confirmation are recorded as what they are (kind
// sampling / url-confirmation, the server, the page, what the person
// chose and why), with the transport the answer came by.
func TestLedgerRecordsSamplingAndURLConfirmations(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, args, kind, outcome, reason, inArgs string
		answer                                    agui.ResumeEntry
	}{
		{"sampling approved", `{"kind":"sampling"}`, history.LedgerSampling, "approved", "", "Edge wants to ask the model",
			agui.ResumeEntry{Status: "resolved", Payload: json.RawMessage(`{"approved":true}`)}},
		{"sampling declined", `{"kind":"sampling"}`, history.LedgerSampling, "declined", "not now", "",
			agui.ResumeEntry{Status: "resolved", Payload: json.RawMessage(`{"approved":false,"reason":"not now"}`)}},
		{"url opened", `{"kind":"url"}`, history.LedgerURLConfirm, "approved", "", "https://auth.example.test/start",
			agui.ResumeEntry{Status: "resolved", Payload: json.RawMessage(`{}`)}},
		{"url declined", `{"kind":"url"}`, history.LedgerURLConfirm, "declined", "", "https://auth.example.test/start",
			agui.ResumeEntry{Status: "cancelled", Metadata: map[string]any{"action": "decline"}}},
		{"question dismissed", `{}`, history.LedgerAnswered, "dismissed", "a question the running call asked", "Who are you?",
			agui.ResumeEntry{Status: "cancelled"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h, _ := newAskerHarness(t, &asker{}, reply(sCall(0, "call-1", "asker", c.args)), reply(sText("ok")))
			rf, it := pausedOn(t, h, "th-1")
			e := c.answer
			e.InterruptID = it.ID
			if _, err := h.rt.Answer(context.Background(), "th-1", agent.Answers{ParentRunID: rf.RunID,
				Interrupts: []agent.InterruptAnswer{{ResumeEntry: e}}, Complete: true, Transport: history.TransportAGUI}); err != nil {
				t.Fatal(err)
			}
			finished(t, h.terminal(), agui.OutcomeSuccess)
			h.idle("th-1")
			es, err := h.db.Ledger(context.Background(), history.LedgerFilter{ThreadID: "th-1"})
			if err != nil {
				t.Fatal(err)
			}
			var got *history.LedgerEntry
			for i := range es {
				if es[i].CallID == "call-1" && es[i].Kind != history.LedgerOutcome {
					got = &es[i]
				}
			}
			if got == nil || got.Kind != c.kind || got.Outcome != c.outcome || got.Reason != c.reason ||
				got.Server != "Edge" || got.Transport != history.TransportAGUI || !strings.Contains(got.Arguments, c.inArgs) {
				t.Fatalf("ledger entry %+v; want %s %s (reason %q, arguments with %q) from Edge by agui", got, c.kind, c.outcome, c.reason, c.inArgs)
			}
		})
	}
}

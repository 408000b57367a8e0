package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/agent/fakellm"
)

// A subscriber that stops reading for a while misses nothing: every delta
// and the terminal event arrive once it reads again, and the runtime was
// never slowed by it (the turn finished while it slept).
func TestSlowSubscriberMissesNothing(t *testing.T) {
	h := newHarness(t)
	slow := h.rt.Subscribe("th-1")
	defer slow.Close()
	const deltas = 10000
	h.srv.Enqueue(fakellm.TokenStream(deltas, "x").WithSteps(fakellm.Batch(64)))
	h.send("th-1", "go")
	h.terminal() // the fast subscriber sees the run end
	h.idle("th-1")
	time.Sleep(300 * time.Millisecond) // the slow one has not read a thing yet
	var text strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		env, err := slow.Next(ctx)
		if err != nil {
			t.Fatalf("slow subscriber: %v after %d bytes", err, text.Len())
		}
		if env.Name != broker.EnvelopeAGUI {
			continue
		}
		if c, ok := env.Event.(*agui.TextMessageContent); ok && c.Delta != "go" {
			text.WriteString(c.Delta)
		}
		if env.Event.EventType() == agui.TypeRunFinished {
			break
		}
	}
	if text.Len() != deltas {
		t.Fatalf("slow subscriber got %d of %d deltas", text.Len(), deltas)
	}
}

// Local servers that send no tool-call ids (or the same id twice) still get
// distinct ids, so results are never mixed up.
func TestToolCallsWithoutIDsGetDistinctIDs(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(fakellm.Reply(
		fakellm.ToolCall(0, "", "list_files", `{}`),
		fakellm.ToolCall(1, "", "list_files", `{"path":"."}`),
		fakellm.ToolCall(2, "dup", "list_files", `{}`),
		fakellm.ToolCall(3, "dup", "list_files", `{}`),
	))
	h.srv.Enqueue(fakellm.Reply(fakellm.Text("ok")))
	h.send("th-1", "go")
	h.terminal()
	h.idle("th-1")
	ids := map[string]bool{}
	for _, m := range h.messages("th-1") {
		for _, c := range m.ToolCalls {
			if c.ID == "" || ids[c.ID] {
				t.Fatalf("tool call id %q empty or repeated", c.ID)
			}
			ids[c.ID] = true
		}
	}
	if len(ids) != 4 {
		t.Fatalf("%d distinct calls, want 4", len(ids))
	}
	h.assertValidHistory("th-1")
}

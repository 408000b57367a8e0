package events

import (
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
)

// The desktop window is sent a MESSAGES_SNAPSHOT typed (Wails encodes
// it): checking that it can be encoded must not encode the whole thread
// once more. With no page able to resume, the broker no longer encodes a
// snapshot for its replay ring (af7acba), and this check was then the one
// place that still did, for a 2,000-message thread on every pause. A
// snapshot's messages are strings only; its metadata is still checked
// (TestForwardSurvivesAnEventThatCannotBeEncoded).
func TestCannotEncodeDoesNotEncodeASnapshot(t *testing.T) {
	msgs := make([]agui.Message, 2000)
	for i := range msgs {
		msgs[i] = agui.Message{ID: "m", Role: "assistant", Content: agui.TextContent(strings.Repeat("word ", 40)),
			ToolCalls: []agui.ToolCall{{ID: "c", Type: "function", Function: agui.FunctionCall{Name: "f", Arguments: `{"a":1}`}}}}
	}
	env := broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: "th", Event: agui.NewMessagesSnapshot(msgs)}
	var bad bool
	allocs := testing.AllocsPerRun(5, func() { bad = cannotEncode(env) })
	if bad {
		t.Fatal("a snapshot of strings is reported as one that cannot be encoded")
	}
	if allocs > 0 {
		t.Fatalf("checking a 2,000-message snapshot encodes it: %.0f allocations", allocs)
	}
}

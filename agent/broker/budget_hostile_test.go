package broker

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/agui"
)

// TestBrokerReplayBudgetCountsEveryLargeField: the ring's byte budget
// counts the long strings of every event a run can end with (a provider's
// error text, an interrupt's message, schema and metadata), not only tool
// results: 24 such envelopes of 1 MiB (three times the budget) stay within
// the budget too.
func TestBrokerReplayBudgetCountsEveryLargeField(t *testing.T) {
	const results, size = 24, 1 << 20
	for name, ev := range map[string]func(big string) agui.Event{
		"run error": func(big string) agui.Event { return &agui.RunError{Message: big} },
		"interrupt schema": func(big string) agui.Event {
			return &agui.RunFinished{Outcome: &agui.Outcome{Type: agui.OutcomeInterrupt, Interrupts: []agui.Interrupt{{
				ID: "i", ResponseSchema: json.RawMessage(`"` + big + `"`)}}}}
		},
		"interrupt message": func(big string) agui.Event {
			return &agui.RunFinished{Outcome: &agui.Outcome{Type: agui.OutcomeInterrupt, Interrupts: []agui.Interrupt{{ID: "i", Message: big}}}}
		},
		"interrupt metadata": func(big string) agui.Event {
			return &agui.RunFinished{Outcome: &agui.Outcome{Type: agui.OutcomeInterrupt, Interrupts: []agui.Interrupt{{ID: "i", Metadata: map[string]any{"k": big}}}}}
		},
		"snapshot error": func(big string) agui.Event {
			return &agui.MessagesSnapshot{Messages: []agui.Message{{ID: "m", Role: "tool", Error: big}}}
		},
	} {
		t.Run(name, func(t *testing.T) {
			before := heapInuse()
			b := NewBroker()
			for i := 0; i < results; i++ {
				big := strings.Repeat(string(rune('a'+i%26)), size) // a fresh string each time
				b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: ev(big)})
			}
			if grew := int64(heapInuse()) - int64(before); grew > 16<<20 {
				t.Errorf("the broker holds %d MiB after %d %s envelopes of 1 MiB (budget 8 MiB)", grew>>20, results, name)
			}
			runtime.KeepAlive(b)
		})
	}
}

// shortThread is the k-th snapshot's thread: n short assistant messages
// with ids of their own (fresh strings each time).
func shortThread(k, n int) []agui.Message {
	msgs := make([]agui.Message, n)
	for j := range msgs {
		msgs[j] = agui.Message{
			ID:      fmt.Sprintf("msg-%06d-%04d-0f1e2d3c4b5a", k, j),
			Role:    "assistant",
			Content: agui.TextContent(fmt.Sprintf("a short answer, number %d", j)),
		}
	}
	return msgs
}

// TestBrokerReplayBudgetCountsSnapshotsOfShortMessages: a paused turn
// publishes its thread's MESSAGES_SNAPSHOT, and a long thread of short
// messages costs far more than its text: each message's struct, ids and
// JSON. Counted by their text alone, 600 snapshots of 500 short messages
// were 8 MiB to the budget and about 50 MiB of heap (the 500-turn soak's
// app grew while the ring kept two minutes of them).
func TestBrokerReplayBudgetCountsSnapshotsOfShortMessages(t *testing.T) {
	const snapshots, messages = 600, 500
	before := heapInuse()
	b := NewBroker()
	for i := 0; i < snapshots; i++ {
		msgs := shortThread(i, messages)
		b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewMessagesSnapshot(msgs)})
		b.mu.Lock()
		b.ring[b.seq%ringSize].EventJSON() // the window's emitter encodes every envelope once
		b.mu.Unlock()
	}
	grew := int64(heapInuse()) - int64(before)
	t.Logf("the broker holds %.1f MiB", float64(grew)/(1<<20))
	if grew > 16<<20 {
		t.Errorf("the broker holds %d MiB after %d snapshots of %d short messages (budget 8 MiB)", grew>>20, snapshots, messages)
	}
	runtime.KeepAlive(b)
}

// TestBrokerKeepsSnapshotsByTheirJSON: what the ring keeps of a paused
// turn's MESSAGES_SNAPSHOT costs about its JSON, not the typed messages'
// twice that: 40 snapshots of 500 short messages (1.8 MiB of JSON, within
// the byte budget, so all are kept) grew the heap by 3.9 MiB kept typed,
// 1.9 MiB kept as JSON.
func TestBrokerKeepsSnapshotsByTheirJSON(t *testing.T) {
	const snapshots, messages = 40, 500
	before := heapInuse()
	b := NewBroker()
	jsonBytes := 0
	for i := 0; i < snapshots; i++ {
		msgs := shortThread(i, messages)
		env := Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewMessagesSnapshot(msgs)}
		j, _ := json.Marshal(env.Event)
		jsonBytes += len(j)
		b.Publish(env)
	}
	if b.first != 1 {
		t.Fatalf("the ring dropped snapshots (first kept %d): the test's snapshots should fit its budget", b.first)
	}
	grew := int64(heapInuse()) - int64(before)
	t.Logf("the ring keeps %.1f MiB for %.1f MiB of JSON", float64(grew)/(1<<20), float64(jsonBytes)/(1<<20))
	if grew > int64(jsonBytes)*3/2 {
		t.Errorf("the ring keeps %d KiB for %d KiB of snapshots' JSON", grew>>10, jsonBytes>>10)
	}
	runtime.KeepAlive(b)
}

// TestBrokerReplayBudgetCountsWhatEscapingCosts: an event's JSON is up to
// six times its text ("<" is \u003c, a control byte \u0001, a stray byte
// \ufffd), and a browser's stream encodes every envelope it sends, so the
// ring keeps the text and that JSON. A tool result read from a hostile
// file, a server's state or a model's delta of such bytes is counted at
// what it costs: counted as twice its text, 24 results of 1 MiB of "<"
// held 21 MiB under the 8 MiB budget (12 of 512 KiB, the sizes here so the
// race detector's run stays short, 24 MiB).
func TestBrokerReplayBudgetCountsWhatEscapingCosts(t *testing.T) {
	const events, size = 12, 512 << 10 // 6 MiB of text, up to 36 MiB of JSON: twice the text would keep 8 of them (28 MiB)
	for name, tc := range map[string]struct {
		fill string
		ev   func(big string) agui.Event
	}{
		"tool result of <":     {"<", func(big string) agui.Event { return &agui.ToolCallResult{ToolCallID: "c", Content: big} }},
		"tool result of \\x01": {"\x01", func(big string) agui.Event { return &agui.ToolCallResult{ToolCallID: "c", Content: big} }},
		"tool result of \\xff": {"\xff", func(big string) agui.Event { return &agui.ToolCallResult{ToolCallID: "c", Content: big} }},
		"text delta of &":      {"&", func(big string) agui.Event { return &agui.TextMessageContent{MessageID: "m", Delta: big} }},
		"custom value of >":    {">", func(big string) agui.Event { return &agui.Custom{Name: "x", Value: json.RawMessage(`"` + big + `"`)} }},
		"state snapshot of <":  {"<", func(big string) agui.Event { return &agui.StateSnapshot{Snapshot: json.RawMessage(`"` + big + `"`)} }},
	} {
		t.Run(name, func(t *testing.T) {
			before := heapInuse()
			b := NewBroker()
			for i := 0; i < events; i++ {
				big := strings.Repeat(tc.fill, size-1) + string(rune('a'+i%26)) // a fresh string each time
				b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: tc.ev(big)})
				b.mu.Lock()
				b.ring[b.seq%ringSize].EventJSON() // the browser's stream encodes every envelope once
				b.mu.Unlock()
			}
			grew := int64(heapInuse()) - int64(before)
			t.Logf("the broker holds %.1f MiB (counted %.1f)", float64(grew)/(1<<20), float64(b.held)/(1<<20))
			if grew > 16<<20 {
				t.Errorf("the broker holds %d MiB after %d %s envelopes of %d KiB (budget 8 MiB)", grew>>20, events, name, size>>10)
			}
			runtime.KeepAlive(b)
		})
	}
}

package broker

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/agui"
)

// heapInuse is the live heap after two collections.
func heapInuse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// A day of large tool results (read_file returns up to 256 KiB, an MCP
// resource as much) stays within the replay buffer's byte budget: the
// ring of 8,192 envelopes held every one of them, 64 MiB here, and would
// have held 8,192 of them (the ring is now 4,096 envelopes and 8 MiB). A client reconnecting from an envelope that
// went over the budget is told to reload; one from a kept envelope gets
// what it missed.
func TestBrokerReplayBufferKeepsToItsByteBudget(t *testing.T) {
	const results, size = 64, 1 << 20
	before := heapInuse()
	b := NewBroker()
	var ids []string
	for i := 0; i < results; i++ {
		content := strings.Repeat(string(rune('a'+i%26)), size) // a fresh string each time
		env := Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: &agui.ToolCallResult{ToolCallID: fmt.Sprint(i), Content: content}}
		b.Publish(env)
		ids = append(ids, b.EventID(Envelope{Seq: b.LastSeq()}))
	}
	grew := int64(heapInuse()) - int64(before)
	if grew > 48<<20 {
		t.Fatalf("the broker holds %d MiB after %d results of 1 MiB (budget 8 MiB)", grew>>20, results)
	}
	s, complete := b.SubscribeSince("th-1", ids[0], SubscribeOptions{})
	if complete {
		t.Fatal("a replay from the first result claims to be complete")
	}
	s.Close()
	s, complete = b.SubscribeSince("th-1", ids[results-3], SubscribeOptions{})
	if got := seqs(b, drainNow(t, s), complete); len(got) != 2 || got[0] != fmt.Sprint(results-1) {
		t.Fatalf("a replay from a kept result got %v", got)
	}
	s.Close()
	runtime.KeepAlive(b)
}

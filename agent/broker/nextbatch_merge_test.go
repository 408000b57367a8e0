package broker

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
)

// TestBrokerNextBatchMergesADeltaQueuedAfterItsFirst: NextBatch took its
// first envelope (Next), let go of the lock, then took the rest; a delta
// continuing the first, published in between, could not merge into it (it
// was off the queue already), so the batch held two deltas of one message
// in a row. The desktop window is sent one string per message per event
// (app/events.Forward; TestForwardMergesDeltasOfOneMessage failed about
// once in 200 runs). The race needs a publish between two locks: each case
// streams many rounds.
func TestBrokerNextBatchMergesADeltaQueuedAfterItsFirst(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ids  []string // the messages the deltas go to, in turn
	}{
		{"one message", []string{"m1"}},
		{"two messages in turn", []string{"m1", "m1", "m2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			const rounds, n = 200, 200
			for round := range rounds {
				b := NewBroker()
				s, _ := b.SubscribeSince("th", "", SubscribeOptions{Coalesce: 1})
				want := map[string]string{}
				for i := range n {
					want[tc.ids[i%len(tc.ids)]] += "x"
				}
				go func() {
					offs := map[string]int{}
					for i := range n {
						id := tc.ids[i%len(tc.ids)]
						b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th", Offset: offs[id], Event: &agui.TextMessageContent{MessageID: id, Delta: "x"}})
						offs[id]++
						if i%4 == 0 {
							runtime.Gosched()
						}
					}
				}()
				got := map[string]*strings.Builder{}
				for total := 0; total < n; {
					batch, err := s.NextBatch(ctx, nil)
					if err != nil {
						t.Fatalf("round %d after %d deltas: %v", round, total, err)
					}
					for i, env := range batch {
						if i > 0 {
							if _, ok := mergeDelta(batch[i-1], env); ok {
								t.Fatalf("round %d: a batch of %d holds two deltas of one message in a row (at %d)", round, len(batch), i)
							}
						}
						e := env.Event.(*agui.TextMessageContent)
						if got[e.MessageID] == nil {
							got[e.MessageID] = &strings.Builder{}
						}
						if env.Offset != got[e.MessageID].Len() {
							t.Fatalf("round %d: delta of %s at offset %d after %d bytes", round, e.MessageID, env.Offset, got[e.MessageID].Len())
						}
						got[e.MessageID].WriteString(e.Delta)
						total += len(e.Delta)
					}
				}
				for id, w := range want {
					if got[id].String() != w {
						t.Fatalf("round %d: %s's text %q, want %q", round, id, got[id].String(), w)
					}
				}
				s.Close()
			}
		})
	}
}

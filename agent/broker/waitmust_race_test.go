package broker

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
)

// TestBrokerWaitMustRaceKeepsOrderAndText: a publisher streams deltas of
// two messages between must-deliver events while a reader paces itself as
// the desktop forwarder does (NextBatch, WaitMust, AppendQueued): every
// must-deliver event arrives once and in order, each message's text
// arrives whole and in order, each merged delta at its offset.
func TestBrokerWaitMustRaceKeepsOrderAndText(t *testing.T) {
	t.Parallel()
	b := NewBroker()
	s, _ := b.SubscribeSince("th", "", SubscribeOptions{Coalesce: 1})
	defer s.Close()
	const musts, perMust = 200, 7
	want := map[string]*strings.Builder{"m1": {}, "m2": {}}
	go func() {
		for i := 0; i < musts; i++ {
			for j := 0; j < perMust; j++ {
				id := []string{"m1", "m2"}[j%2]
				d := fmt.Sprintf("<%d.%d>", i, j)
				off := want[id].Len()
				want[id].WriteString(d)
				b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th", Offset: off, Event: &agui.TextMessageContent{MessageID: id, Delta: d}})
			}
			b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th", Event: &agui.Custom{Name: fmt.Sprint(i)}})
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got := map[string]string{}
	next := 0
	var batch []Envelope
	for next < musts {
		var err error
		if batch, err = s.NextBatch(ctx, batch); err != nil {
			t.Fatalf("after %d must-deliver events: %v", next, err)
		}
		if onlyTextDeltas(batch) {
			_ = s.WaitMust(ctx, time.Now().Add(time.Millisecond))
			batch = s.AppendQueued(batch)
		}
		for _, env := range batch {
			switch e := env.Event.(type) {
			case *agui.Custom:
				if e.Name != fmt.Sprint(next) {
					t.Fatalf("must-deliver event %s arrived when %d was due", e.Name, next)
				}
				next++
			case *agui.TextMessageContent:
				if env.Offset != len(got[e.MessageID]) {
					t.Fatalf("delta of %s at offset %d, after %d bytes", e.MessageID, env.Offset, len(got[e.MessageID]))
				}
				got[e.MessageID] += e.Delta
			}
		}
	}
	for id, w := range want {
		if got[id] != w.String() {
			t.Fatalf("message %s: got %d bytes, want %d", id, len(got[id]), w.Len())
		}
	}
}

func onlyTextDeltas(batch []Envelope) bool {
	for _, e := range batch {
		if _, ok := e.Event.(*agui.TextMessageContent); !ok {
			return false
		}
	}
	return true
}

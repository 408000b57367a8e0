package broker

import (
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
)

// The replay ring forgets envelopes older than ringAge as new ones are
// published: a reconnecting client catches up on seconds, not on a day,
// so the ring's cost follows the recent pace instead of filling to its
// caps over hours of slow turns (the 500-turn soak's Go heap grew 3.5 →
// 13 MiB while a few envelopes per turn filled it). A client reconnecting
// from a forgotten envelope is told to reload; one from a recent one gets
// what it missed.
func TestBrokerReplayRingForgetsEnvelopesOlderThanItsAge(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	b := newBroker(func() time.Time { return now })
	// A page connected throughout: with nobody able to resume, the ring
	// would keep nothing once the boot's window closed (resume_test.go).
	page := b.Subscribe("", SubscribeOptions{Resumable: true})
	defer page.Close()
	publish := func() string {
		b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: &agui.RunStarted{ThreadID: "th-1", RunID: "r"}})
		return b.EventID(Envelope{Seq: b.LastSeq()})
	}
	old := publish()
	for range 99 {
		publish()
	}
	now = now.Add(ringAge / 2)
	recent := publish()
	if s, complete := b.SubscribeSince("th-1", old, SubscribeOptions{}); !complete || len(drainNow(t, s)) != 100 {
		t.Fatalf("within ringAge, a replay from the first envelope: complete=%v", complete)
	} else {
		s.Close()
	}

	now = now.Add(ringAge/2 + time.Second) // the first 100 are now older than ringAge
	publish()
	b.mu.Lock()
	first, held, kept := b.first, b.held, b.seq-b.first+1
	b.mu.Unlock()
	if kept != 2 || first != 101 {
		t.Fatalf("after ringAge the ring keeps %d envelopes from %d (held %d bytes), want the 2 recent ones", kept, first, held)
	}
	if s, complete := b.SubscribeSince("th-1", old, SubscribeOptions{}); complete {
		t.Fatal("a replay from a forgotten envelope claims to be complete")
	} else {
		s.Close()
	}
	s, complete := b.SubscribeSince("th-1", recent, SubscribeOptions{})
	if got := drainNow(t, s); !complete || len(got) != 1 {
		t.Fatalf("a replay from a recent envelope: complete=%v, %d envelopes", complete, len(got))
	}
	s.Close()
}

package broker

import (
	"testing"
	"time"
)

// TestBrokerForgetsTheRingWhenIdle: the ring is kept for ringAge after the
// last resumer leaves (or after boot), but until this test it was emptied
// only by the next Publish, so an app left idle (a browser page streamed a
// long session, then closed; nobody types) pinned up to ringBytes of
// envelopes, whole threads' snapshots among them, for as long as it stayed
// idle. The broker's expiry (what its timer runs ringAge after) now empties it.
func TestBrokerForgetsTheRingWhenIdle(t *testing.T) {
	for _, tc := range []struct {
		name   string
		resume bool // a resumable page connects and leaves; else only the boot window
	}{
		{"after the last resumer left", true},
		{"after the boot window", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, now := clockedBroker(t)
			var s *Subscription
			if tc.resume {
				s = b.Subscribe("", SubscribeOptions{Resumable: true})
			}
			for i := 0; i < 5; i++ {
				b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "t", Event: snapshotOf(200)})
			}
			if s != nil {
				s.Close()
			}
			last := b.EventID(Envelope{Seq: b.seq})
			*now = now.Add(ringAge + time.Second)
			b.expire() // what the timer runs (in real time) once ringAge has passed

			b.mu.Lock()
			held, kept := b.held, b.seq+1-b.first
			b.mu.Unlock()
			if held != 0 || kept != 0 {
				t.Fatalf("idle past ringAge with nobody to resume, the ring still keeps %d envelopes (%d bytes)", kept, held)
			}
			if b.retaining.Load() {
				t.Error("the hint still says to prepare envelopes for the ring")
			}
			// A page that saw everything still resumes completely.
			s2, complete := b.SubscribeSince("", last, SubscribeOptions{Resumable: true})
			defer s2.Close()
			if !complete {
				t.Error("a page that saw the newest envelope was told to resync after the ring was emptied")
			}
		})
	}
}

// TestBrokerExpiryKeepsTheRingForAResumer: the timer of a resumer that left
// must not empty the ring while another is connected or within ringAge.
func TestBrokerExpiryKeepsTheRingForAResumer(t *testing.T) {
	b, now := clockedBroker(t)
	a := b.Subscribe("", SubscribeOptions{Resumable: true})
	stay := b.Subscribe("", SubscribeOptions{Resumable: true})
	defer stay.Close()
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "t", Event: snapshotOf(10)})
	a.Close()
	*now = now.Add(ringAge + time.Second)
	b.expire()
	b.mu.Lock()
	kept := b.seq + 1 - b.first
	b.mu.Unlock()
	if kept != 1 {
		t.Fatalf("with a resumer connected the expiry left %d envelopes, want 1", kept)
	}
}

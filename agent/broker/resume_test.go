package broker

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
)

// The ring is for clients that can come back (a browser's event stream).
// The desktop window reloads what it shows instead, so while no such client
// is connected, left within ringAge, or could be a page of the last boot,
// the ring keeps nothing: over a day of turns in the window alone it held
// two minutes of the paused turns' snapshots, most of the Go heap's growth
// in the 500-turn soak, and encoded each snapshot for nobody.

// clockedBroker is a broker on a test clock that starts at its boot.
func clockedBroker(t *testing.T) (*Broker, *time.Time) {
	t.Helper()
	now := time.Unix(1_700_000_000, 0)
	b := newBroker(func() time.Time { return now })
	return b, &now
}

func snapshotOf(n int) *agui.MessagesSnapshot {
	msgs := make([]agui.Message, n)
	for i := range msgs {
		msgs[i] = agui.Message{ID: "m" + strings.Repeat("x", 8), Role: "user", Content: agui.TextContent(strings.Repeat("word ", 40))}
	}
	return agui.NewMessagesSnapshot(msgs)
}

func publishRun(b *Broker, thread string) string {
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: thread, Event: &agui.RunStarted{ThreadID: thread, RunID: "r"}})
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: thread, Event: snapshotOf(200)})
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: thread, Event: agui.NewTextContent("m", "hello")})
	return b.EventID(Envelope{Seq: b.LastSeq()})
}

func ringState(b *Broker) (kept uint64, held int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.seq + 1 - b.first, b.held
}

func TestBrokerRingKeepsNothingWhenNobodyCanResume(t *testing.T) {
	b, now := clockedBroker(t)
	window := b.Subscribe("", SubscribeOptions{Coalesce: 1}) // the desktop window: not resumable
	defer window.Close()

	// Within ringAge of boot a page of the last boot may reconnect: kept.
	early := publishRun(b, "th-1")
	if kept, held := ringState(b); kept != 3 || held == 0 {
		t.Fatalf("within ringAge of boot the ring keeps %d envelopes (%d bytes), want 3", kept, held)
	}

	*now = now.Add(ringAge + time.Second)
	last := publishRun(b, "th-1")
	publishRun(b, "th-1")
	if kept, held := ringState(b); kept != 0 || held != 0 {
		t.Fatalf("with nobody able to resume the ring keeps %d envelopes (%d bytes), want none", kept, held)
	}
	if b.retaining.Load() {
		t.Fatal("Publish still prepares envelopes for a ring nobody can replay")
	}
	// A snapshot published now is not encoded for the ring (the window
	// gets it typed and never asks for its JSON).
	env := Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: snapshotOf(10)}
	b.Publish(env)
	got := drainNow(t, window)
	if snap := got[len(got)-1]; snap.enc == nil || snap.enc.b != nil {
		t.Fatal("a snapshot was encoded although no client could replay it")
	}
	// Whoever comes back now is told to reload, never given a partial replay.
	for _, id := range []string{early, last} {
		s, complete := b.SubscribeSince("", id, SubscribeOptions{Resumable: true})
		if complete {
			t.Fatalf("a replay from %s claims to be complete with an empty ring", id)
		}
		if n := len(drainNow(t, s)); n != 0 {
			t.Fatalf("an incomplete replay queued %d envelopes", n)
		}
		s.Close()
	}
}

func TestBrokerRingKeepsWhileAResumerIsConnectedAndForAgeAfter(t *testing.T) {
	b, now := clockedBroker(t)
	*now = now.Add(ringAge + time.Second) // past boot's window
	publishRun(b, "th-1")

	page := b.Subscribe("", SubscribeOptions{Coalesce: 1, Resumable: true})
	var seen string
	for range 3 {
		*now = now.Add(ringAge) // slow turns, each more than ringAge apart, the page connected
		seen = publishRun(b, "th-1")
	}
	drainNow(t, page)
	page.Close()          // the page lost its connection
	publishRun(b, "th-1") // what it missed

	*now = now.Add(ringAge - time.Second) // comes back just within ringAge
	publishRun(b, "th-1")
	s, complete := b.SubscribeSince("", seen, SubscribeOptions{Resumable: true})
	if got := drainNow(t, s); !complete || len(got) != 6 {
		t.Fatalf("a page back within ringAge: complete=%v, %d envelopes, want the 6 it missed", complete, len(got))
	}
	last := b.EventID(Envelope{Seq: b.LastSeq()})
	s.Close()

	*now = now.Add(ringAge + time.Second) // gone for longer than ringAge
	publishRun(b, "th-1")
	if kept, _ := ringState(b); kept != 0 {
		t.Fatalf("ringAge after the last page left the ring keeps %d envelopes", kept)
	}
	s, complete = b.SubscribeSince("", last, SubscribeOptions{Resumable: true})
	if complete {
		t.Fatal("a page back after ringAge claims a complete replay from an empty ring")
	}
	s.Close()
}

func TestBrokerCloseAllCountsResumersAsGone(t *testing.T) {
	b, now := clockedBroker(t)
	b.Subscribe("", SubscribeOptions{Resumable: true})
	b.Subscribe("th-1", SubscribeOptions{Resumable: true})
	b.CloseAll()
	b.mu.Lock()
	resumers := b.resumers
	b.mu.Unlock()
	if resumers != 0 {
		t.Fatalf("after CloseAll %d resumers are still counted", resumers)
	}
	*now = now.Add(2*ringAge + time.Second)
	publishRun(b, "th-1")
	if kept, _ := ringState(b); kept != 0 {
		t.Fatalf("after CloseAll and ringAge the ring keeps %d envelopes", kept)
	}
}

// A browser that drops and reconnects at once, over and over, while runs
// publish: each reconnect is within ringAge, so every replay is complete,
// and what it gets continues exactly where the page stopped reading.
// Another resumer and the window come and go meanwhile. Run with -race.
func TestBrokerResumerReconnectingWhilePublishingRace(t *testing.T) {
	b := NewBroker()
	window := b.Subscribe("", SubscribeOptions{Coalesce: 1})
	defer window.Close()
	const total = 3000
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	s, _ := b.SubscribeSince("", "", SubscribeOptions{Coalesce: 1, Resumable: true})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range total {
			if i%100 == 0 {
				b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: snapshotOf(20)})
				continue
			}
			b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: &agui.RunStarted{ThreadID: "th-1", RunID: "r"}})
		}
	}()
	go func() { // another page, connecting and leaving
		defer wg.Done()
		for range 200 {
			s := b.Subscribe("", SubscribeOptions{Resumable: true})
			s.Close()
		}
	}()

	last := ""
	var lastSeq uint64
	for lastSeq < total {
		if last != "" {
			var complete bool
			s, complete = b.SubscribeSince("", last, SubscribeOptions{Coalesce: 1, Resumable: true})
			if !complete {
				t.Fatalf("a reconnect after %d (within ringAge) was told to reload", lastSeq)
			}
		}
		for range 3 {
			batch, err := s.NextBatch(ctx, nil)
			if err != nil {
				t.Fatalf("reading after %d: %v", lastSeq, err)
			}
			for _, e := range batch {
				if e.Seq != lastSeq+1 {
					t.Fatalf("after %d the replay gave %d", lastSeq, e.Seq)
				}
				lastSeq = e.Seq
				last = b.EventID(e)
			}
			if lastSeq >= total {
				break
			}
		}
		s.Close()
	}
	wg.Wait()
	drainNow(t, window)
}

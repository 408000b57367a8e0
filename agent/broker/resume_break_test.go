package broker

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
)

// Attacks on the replay ring's "keep only while someone can resume" rule
// (af7acba): the resumers count, the retaining hint read before b.mu, the
// kept==nil path, the ring's wrap, its byte budget and its age, all while
// resumers come and go.

// testClock is a clock tests move from any goroutine.
type testClock struct{ ns atomic.Int64 }

func newTestClock() *testClock {
	c := &testClock{}
	c.ns.Store(time.Unix(1_700_000_000, 0).UnixNano())
	return c
}
func (c *testClock) Now() time.Time          { return time.Unix(0, c.ns.Load()) }
func (c *testClock) Advance(d time.Duration) { c.ns.Add(int64(d)) }

func resumersOf(b *Broker) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.resumers
}

// However a resumable subscription ends (closed twice, closed after
// CloseAll, dropped as slow and then closed, CloseAll twice), it is
// counted once while connected and uncounted once: the count never goes
// negative (which would keep the ring for nobody's benefit stop, or
// stop it while a page is connected) nor stays up (the ring kept for ever).
func TestBrokerResumersCountedOnceHoweverTheyEnd(t *testing.T) {
	cases := []struct {
		name string
		end  func(b *Broker, s *Subscription)
	}{
		{"closed", func(b *Broker, s *Subscription) { s.Close() }},
		{"closed twice", func(b *Broker, s *Subscription) { s.Close(); s.Close() }},
		{"CloseAll then Close", func(b *Broker, s *Subscription) { b.CloseAll(); s.Close() }},
		{"Close then CloseAll", func(b *Broker, s *Subscription) { s.Close(); b.CloseAll() }},
		{"CloseAll twice", func(b *Broker, s *Subscription) { b.CloseAll(); b.CloseAll(); s.Close() }},
		{"dropped as slow, then closed", func(b *Broker, s *Subscription) {
			for range maxQueued + 1 {
				b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: &agui.RunStarted{ThreadID: "th-1", RunID: "r"}})
			}
			s.mu.Lock()
			err := s.err
			s.mu.Unlock()
			if !errors.Is(err, ErrSlowSubscriber) {
				t.Fatalf("the subscriber was not dropped as slow: %v", err)
			}
			if n := resumersOf(b); n != 2 {
				t.Fatalf("a slow resumer not yet closed by its reader: %d resumers counted, want 2 (it and the other)", n)
			}
			s.Close()
			s.Close()
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, now := clockedBroker(t)
			other := b.Subscribe("", SubscribeOptions{Resumable: true}) // a second page, still connected
			window := b.Subscribe("", SubscribeOptions{})               // the desktop window: never counted
			s := b.Subscribe("", SubscribeOptions{Resumable: true})
			if n := resumersOf(b); n != 2 {
				t.Fatalf("%d resumers counted, want 2", n)
			}
			tc.end(b, s)
			want := 1
			if strings.Contains(tc.name, "CloseAll") {
				want = 0 // the other page was closed too
			}
			if n := resumersOf(b); n != want {
				t.Fatalf("after the subscription ended %d resumers are counted, want %d", n, want)
			}
			other.Close()
			other.Close()
			window.Close()
			if n := resumersOf(b); n != 0 {
				t.Fatalf("with every page gone %d resumers are counted", n)
			}
			*now = now.Add(ringAge + time.Second)
			publishRun(b, "th-1")
			if kept, held := ringState(b); kept != 0 || held != 0 {
				t.Fatalf("ringAge after the last page left the ring keeps %d envelopes (%d bytes)", kept, held)
			}
			// And a new page is counted and kept for again.
			p := b.Subscribe("", SubscribeOptions{Resumable: true})
			publishRun(b, "th-1")
			if kept, _ := ringState(b); kept != 3 {
				t.Fatalf("with a page connected again the ring keeps %d envelopes, want 3", kept)
			}
			p.Close()
			if n := resumersOf(b); n != 0 {
				t.Fatalf("%d resumers counted at the end", n)
			}
		})
	}
}

// The path where Publish read the hint as "nobody resumes" and a page
// subscribed before it took b.mu: the envelope is prepared under the lock
// (a snapshot by its JSON) and a reconnect gets it, exactly.
func TestBrokerKeptFormPreparedUnderTheLockWhenTheHintWasStale(t *testing.T) {
	b, now := clockedBroker(t)
	*now = now.Add(ringAge + time.Second)
	publishRun(b, "th-1") // nobody can resume: the hint is cleared
	if b.retaining.Load() {
		t.Fatal("the hint is still set with nobody able to resume")
	}
	page := b.Subscribe("", SubscribeOptions{Coalesce: 1, Resumable: true})
	seen := b.EventID(Envelope{Seq: b.LastSeq()})
	// As if Publish had read the hint just before the page subscribed.
	b.retaining.Store(false)
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: snapshotOf(30)})
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: &agui.RunFinished{ThreadID: "th-1", RunID: "r"}})
	live := drainNow(t, page)
	page.Close()
	s, complete := b.SubscribeSince("", seen, SubscribeOptions{Coalesce: 1, Resumable: true})
	defer s.Close()
	got := drainNow(t, s)
	if !complete || len(got) != 2 || len(live) != 2 {
		t.Fatalf("replay after a stale hint: complete=%v, %d envelopes (live %d), want the 2 missed", complete, len(got), len(live))
	}
	for i := range got {
		if got[i].Seq != live[i].Seq || string(got[i].EventJSON()) != string(live[i].EventJSON()) {
			t.Fatalf("replayed envelope %d differs from the live one:\n%s\n%s", i, got[i].EventJSON(), live[i].EventJSON())
		}
	}
	if _, ok := got[0].Event.(encodedEvent); !ok {
		t.Fatalf("the snapshot is kept as %T, not by its JSON", got[0].Event)
	}
}

// A page of the last boot (its id names another boot) reconnecting within
// ringAge of start-up gets everything this boot published, from the first;
// after ringAge with nobody connected it is told to reload.
func TestBrokerPageOfTheLastBootResumesWithinRingAge(t *testing.T) {
	old := NewBroker()
	old.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: &agui.RunStarted{ThreadID: "th-1", RunID: "r"}})
	lastOfOldBoot := old.EventID(Envelope{Seq: old.LastSeq()})

	b, now := clockedBroker(t)
	window := b.Subscribe("", SubscribeOptions{}) // the desktop window of the new boot: no resumer
	defer window.Close()
	*now = now.Add(ringAge / 2)
	publishRun(b, "th-1")
	*now = now.Add(ringAge/2 - time.Second)
	publishRun(b, "th-1")
	s, complete := b.SubscribeSince("", lastOfOldBoot, SubscribeOptions{Coalesce: 1, Resumable: true})
	got := drainNow(t, s)
	if !complete || len(got) != 6 || got[0].Seq != 1 {
		t.Fatalf("a page of the last boot within ringAge: complete=%v, %d envelopes, want the 6 of this boot", complete, len(got))
	}
	s.Close()

	b2, now2 := clockedBroker(t)
	*now2 = now2.Add(ringAge + time.Second)
	publishRun(b2, "th-1")
	s, complete = b2.SubscribeSince("", lastOfOldBoot, SubscribeOptions{Resumable: true})
	if complete {
		t.Fatal("a page of the last boot after ringAge with nobody connected claims a complete replay")
	}
	s.Close()
}

// With nobody able to resume, a long thread's snapshot published over and
// over (a turn pausing, the path changing) is neither kept nor encoded:
// Publish costs the same few allocations whatever the snapshot's size.
func TestBrokerNoResumerKeepsAndEncodesNoSnapshot(t *testing.T) {
	b, now := clockedBroker(t)
	window := b.Subscribe("", SubscribeOptions{Coalesce: 1})
	defer window.Close()
	*now = now.Add(ringAge + time.Second)
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: &agui.RunStarted{ThreadID: "th-1", RunID: "r"}})
	drainNow(t, window)
	snap := snapshotOf(2000)
	allocs := testing.AllocsPerRun(20, func() {
		b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: snap})
		window.AppendQueued(nil)
	})
	if allocs > 10 {
		t.Fatalf("publishing a 2,000-message snapshot nobody can replay costs %.0f allocations, want a few (no JSON)", allocs)
	}
	if kept, held := ringState(b); kept != 0 || held != 0 {
		t.Fatalf("the ring keeps %d envelopes (%d bytes) with nobody able to resume", kept, held)
	}
}

// Pages reconnecting while envelopes are published, the clock jumps past
// ringAge, large results strain the byte budget, other pages and the
// window come and go, and the runtime closes everyone now and then: a
// reconnect is either told to reload or given exactly what it missed from
// the id it sent, in order, with no gap. Run with -race, many times.
func TestBrokerResumeIsExactOrIncompleteRace(t *testing.T) {
	clk := newTestClock()
	b := newBroker(clk.Now)

	const total = 12000 // about three laps of the ring
	big := strings.Repeat("<x>", 400_000)
	var published atomic.Uint64
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { // the runtime
		defer wg.Done()
		r := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
		for i := range total {
			var ev agui.Event
			switch n := r.IntN(200); {
			case n < 4:
				ev = snapshotOf(20)
			case n < 6:
				ev = &agui.ToolCallResult{MessageID: "m", ToolCallID: "c", Content: big}
			default:
				ev = &agui.RunStarted{ThreadID: "th-1", RunID: "r"}
			}
			b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: ev})
			published.Store(uint64(i + 1))
			if r.IntN(500) == 0 {
				clk.Advance(ringAge + time.Second)
			} else if r.IntN(50) == 0 {
				clk.Advance(time.Second)
			}
		}
	}()
	go func() { // another page and the window, coming and going
		defer wg.Done()
		r := rand.New(rand.NewPCG(2, uint64(time.Now().UnixNano())))
		for published.Load() < total {
			s := b.Subscribe("", SubscribeOptions{Resumable: r.IntN(2) == 0})
			if r.IntN(3) == 0 {
				s.Close()
			}
			s.Close()
		}
	}()
	go func() { // the runtime shutting down everyone now and then
		defer wg.Done()
		for published.Load() < total {
			time.Sleep(2 * time.Millisecond)
			b.CloseAll()
		}
	}()

	var last uint64
	lastID := ""
	reconnects, incomplete := 0, 0
	for published.Load() < total {
		s, complete := b.SubscribeSince("", lastID, SubscribeOptions{Coalesce: 1, Resumable: true})
		reconnects++
		if !complete {
			incomplete++
		}
		first := true
		for range 1 + reconnects%4 {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
			batch, err := s.NextBatch(ctx, nil)
			cancel()
			for _, e := range batch {
				switch {
				case first && lastID != "" && complete && e.Seq != last+1:
					t.Fatalf("reconnect %d from %d claimed complete but its first envelope is %d", reconnects, last, e.Seq)
				case first && e.Seq <= last:
					t.Fatalf("reconnect %d from %d (complete=%v) repeats %d", reconnects, last, complete, e.Seq)
				case !first && e.Seq != last+1:
					t.Fatalf("reconnect %d: after %d came %d", reconnects, last, e.Seq)
				}
				first = false
				last, lastID = e.Seq, b.EventID(e)
			}
			if err != nil {
				break
			}
		}
		s.Close()
		if reconnects%7 == 0 { // away for longer than ringAge: the ring may be emptied meanwhile
			clk.Advance(ringAge + time.Second)
			time.Sleep(100 * time.Microsecond)
		}
	}
	wg.Wait()
	if n := resumersOf(b); n != 0 {
		t.Fatalf("%d resumers counted with everyone gone", n)
	}
	t.Logf("%d reconnects, %d told to reload", reconnects, incomplete)
}

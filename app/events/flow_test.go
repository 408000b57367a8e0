package events

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
)

// textOf is the text of every delta the window received, in order.
func (r *recordEmitter) textOf() (string, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, frames := range r.events {
		for _, f := range frames {
			if c, ok := f.Data.(AGUIEvent).Event.(*agui.TextMessageContent); ok {
				b.WriteString(c.Delta)
			}
		}
	}
	return b.String(), len(r.events)
}

func (r *recordEmitter) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.events)
}

// waitFor polls until cond holds (the harness's 10 s bound).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after 10 s", what)
		}
	}
}

// TestForwardWaitsForTheWindowBetweenDeltaBatches: issue 26's Stop. The
// forwarder sent a batch of deltas every 16 ms whatever the window made of
// them, so a slow page queued them up and a run's end waited behind the
// queue. Paced by a Flow, deltas wait (merged) until the window took the
// last event in; a run's end never waits.
func TestForwardWaitsForTheWindowBetweenDeltaBatches(t *testing.T) {
	rec := &recordEmitter{until: agui.TypeTextMessageEnd, seen: make(chan struct{})}
	flow := &Flow{took: make(chan struct{}, 1), lag: time.Hour} // only an acknowledgement releases deltas
	b := forwardingWith(t, rec, flow)
	pub := func(ev agui.Event, off int) {
		b.Publish(broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: "th-1", Event: ev, Offset: off})
	}
	pub(agui.NewTextStart("m1"), 0)
	waitFor(t, "the message's start reached the window", func() bool { return rec.count() == 1 })
	for i := range 50 {
		pub(agui.NewTextContent("m1", "ab"), 2*i)
	}
	time.Sleep(50 * time.Millisecond) // would be three gaps' worth of batches without the Flow
	if n := rec.count(); n != 1 {
		t.Fatalf("%d events reached the window before it acknowledged the first, want 1", n)
	}
	flow.Took()
	waitFor(t, "the held deltas reached the window", func() bool { return rec.count() == 2 })
	if text, _ := rec.textOf(); text != strings.Repeat("ab", 50) {
		t.Fatalf("text after the acknowledgement = %q, want 50 × ab in one batch", text)
	}
	// Unacknowledged again: more deltas wait, and the message's end takes
	// them along at once.
	for i := range 10 {
		pub(agui.NewTextContent("m1", "cd"), 100+2*i)
	}
	pub(agui.NewTextEnd("m1"), 0)
	select {
	case <-rec.seen:
	case <-time.After(10 * time.Second):
		t.Fatal("TEXT_MESSAGE_END waited for an acknowledgement")
	}
	if text, _ := rec.textOf(); text != strings.Repeat("ab", 50)+strings.Repeat("cd", 10) {
		t.Fatalf("text through the window = %q", text)
	}
}

// TestForwardSendsPastASilentWindow: a page that never acknowledges (a
// reload, a hidden window, an older build) still gets the whole stream,
// paced by the lag bound.
func TestForwardSendsPastASilentWindow(t *testing.T) {
	rec := &recordEmitter{until: agui.TypeTextMessageEnd, seen: make(chan struct{})}
	flow := &Flow{took: make(chan struct{}, 1), lag: 5 * time.Millisecond}
	b := forwardingWith(t, rec, flow)
	b.Publish(broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextStart("m1")})
	for i := range 40 {
		b.Publish(broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextContent("m1", "x"), Offset: i})
		time.Sleep(time.Millisecond)
	}
	waitFor(t, "every delta reached a silent window", func() bool { text, _ := rec.textOf(); return text == strings.Repeat("x", 40) })
}

// TestForwardFlowRace: acknowledgements from the window's goroutine at
// any moment (early, late, many) never lose, repeat or reorder text.
// Run with -race -count=200.
func TestForwardFlowRace(t *testing.T) {
	rec := &recordEmitter{until: agui.TypeTextMessageEnd, seen: make(chan struct{})}
	flow := &Flow{took: make(chan struct{}, 1), lag: 2 * time.Millisecond}
	b := forwardingWith(t, rec, flow)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				flow.Took()
				time.Sleep(100 * time.Microsecond)
			}
		}
	}()
	b.Publish(broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextStart("m1")})
	var want strings.Builder
	for i := range 200 {
		tok := []string{"a", "bc", "déf"}[i%3]
		b.Publish(broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextContent("m1", tok), Offset: utf16Units(want.String())})
		want.WriteString(tok)
		if i%20 == 0 {
			time.Sleep(200 * time.Microsecond)
		}
	}
	b.Publish(broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextEnd("m1")})
	select {
	case <-rec.seen:
	case <-time.After(10 * time.Second):
		t.Fatal("TEXT_MESSAGE_END never reached the window")
	}
	close(stop)
	wg.Wait()
	if text, _ := rec.textOf(); text != want.String() {
		t.Fatalf("text through the window = %q, want %q", text, want.String())
	}
}

// TestForwardEndsWhileWaitingForTheWindow: the forwarder holding deltas for
// a window that never answers (lag bound an hour away) still ends at once
// when the app shuts down: its context ends, or the broker closes every
// subscription.
func TestForwardEndsWhileWaitingForTheWindow(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  func(cancel func(), b *broker.Broker)
	}{
		{"context cancelled", func(cancel func(), _ *broker.Broker) { cancel() }},
		{"broker closed", func(_ func(), b *broker.Broker) { b.CloseAll() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recordEmitter{}
			b := broker.NewBroker()
			sub := b.Subscribe("", broker.SubscribeOptions{Coalesce: 1})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan struct{})
			go func() {
				defer close(done)
				Forward(ctx, sub, func() Emitter { return rec }, &Flow{took: make(chan struct{}, 1), lag: time.Hour})
			}()
			b.Publish(broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextStart("m1")})
			waitFor(t, "the message's start reached the window", func() bool { return rec.count() == 1 })
			b.Publish(broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextContent("m1", "held")})
			time.Sleep(20 * time.Millisecond) // the forwarder is holding the delta
			tc.end(cancel, b)
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Forward still running 10 s after the end")
			}
		})
	}
}

// TestForwardKeepsOrderPastAWindowThatDoesNotAnswer: with deltas held for
// a window that never acknowledges, every event that must be delivered (a
// tool call's start and end, a run's end) arrives at once, in order, and
// after every delta published before it: the window sees each message's
// and call's text whole at the moment the event that follows it arrives.
func TestForwardKeepsOrderPastAWindowThatDoesNotAnswer(t *testing.T) {
	rec := &recordEmitter{until: agui.TypeRunFinished, seen: make(chan struct{})}
	b := forwardingWith(t, rec, &Flow{took: make(chan struct{}, 1), lag: time.Hour})
	pub := func(ev agui.Event, off int) {
		b.Publish(broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: "th-1", Event: ev, Offset: off})
	}
	type mark struct{ text, args int } // bytes of text and arguments before a must-deliver event
	var want []mark
	text, args := 0, 0
	pub(agui.NewTextStart("m1"), 0)
	want = append(want, mark{text, args})
	for step := range 30 {
		for range 5 {
			pub(agui.NewTextContent("m1", "ab"), text)
			text += 2
		}
		if step%3 == 0 {
			pub(agui.NewToolCallStart("c"+strconv.Itoa(step), "f", "m1"), 0)
			want = append(want, mark{text, args})
			pub(agui.NewToolCallArgs("c"+strconv.Itoa(step), "{}"), 0)
			args += 2
			pub(agui.NewToolCallEnd("c"+strconv.Itoa(step)), 0)
			want = append(want, mark{text, args})
		}
		if step%7 == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	pub(agui.NewRunFinished("th-1", "r1", nil), 0)
	want = append(want, mark{text, args})
	select {
	case <-rec.seen:
	case <-time.After(10 * time.Second):
		t.Fatal("RUN_FINISHED waited for a window that does not answer")
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var got []mark
	text, args = 0, 0
	for _, frames := range rec.events {
		for _, f := range frames {
			ev, ok := f.Data.(AGUIEvent)
			if !ok {
				continue // the thread list's refresh
			}
			switch e := ev.Event.(type) {
			case *agui.TextMessageContent:
				text += len(e.Delta)
			case *agui.ToolCallArgs:
				args += len(e.Delta)
			default:
				got = append(got, mark{text, args})
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("text and arguments before each must-deliver event = %v, want %v", got, want)
	}
}

package events

import (
	"context"
	"encoding/json"
	"html/template"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/internal/testkit"
)

// recordEmitter keeps every Wails event's frames, and says when one holds
// an AG-UI event of the type it waits for.
type recordEmitter struct {
	mu     sync.Mutex
	events [][]BatchFrame
	until  string
	seen   chan struct{}
}

func (r *recordEmitter) Emit(name string, data any) {
	frames, ok := data.([]BatchFrame)
	if !ok {
		frames = []BatchFrame{{Name: name, Data: data}}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, frames)
	for _, f := range frames {
		if d, ok := f.Data.(AGUIEvent); ok && d.Event.EventType() == r.until {
			close(r.seen)
		}
	}
}

// forwarding runs Forward on a fresh broker's subscription until the test
// ends.
func forwarding(t testing.TB, em Emitter) *broker.Broker { return forwardingWith(t, em, nil) }

// forwardingWith is forwarding paced by flow.
func forwardingWith(t testing.TB, em Emitter, flow *Flow) *broker.Broker {
	b := broker.NewBroker()
	sub := b.Subscribe("", broker.SubscribeOptions{Coalesce: 1})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		Forward(ctx, sub, func() Emitter { return em }, flow)
	}()
	t.Cleanup(func() { cancel(); <-done })
	return b
}

// Deltas that stream while the forwarder waits out its emit gap reach the
// window merged: no Wails event holds two deltas in a row of the same
// message (the window appends one string per message per event), every
// delta's offset is where its text starts, the text is whole and in
// order, and the end of the message comes after it.
func TestForwardMergesDeltasOfOneMessage(t *testing.T) {
	rec := &recordEmitter{until: agui.TypeTextMessageEnd, seen: make(chan struct{})}
	b := forwarding(t, rec)
	pub := func(ev agui.Event, off int) {
		b.Publish(broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: "th-1", Event: ev, Offset: off})
	}
	pub(agui.NewTextStart("m1"), 0)
	var want strings.Builder
	for i := range 300 {
		tok := []string{"a ", "é ", "😀 "}[i%3] // offsets count UTF-16 units
		pub(agui.NewTextContent("m1", tok), utf16Units(want.String()))
		want.WriteString(tok)
		if i%10 == 0 {
			time.Sleep(100 * time.Microsecond)
		}
	}
	pub(agui.NewTextEnd("m1"), 0)
	select {
	case <-rec.seen:
	case <-time.After(10 * time.Second):
		t.Fatal("TEXT_MESSAGE_END never reached the window")
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var got strings.Builder
	deltas := 0
	for i, frames := range rec.events {
		prevDelta := false
		for _, f := range frames {
			d := f.Data.(AGUIEvent)
			c, ok := d.Event.(*agui.TextMessageContent)
			if !ok {
				prevDelta = false
				continue
			}
			if prevDelta {
				t.Fatalf("event %d: two deltas of one message in a row, not merged", i)
			}
			if d.Offset == nil || *d.Offset != utf16Units(got.String()) {
				t.Fatalf("event %d: delta offset %v, want %d", i, d.Offset, utf16Units(got.String()))
			}
			got.WriteString(c.Delta)
			deltas++
			prevDelta = true
		}
	}
	if got.String() != want.String() {
		t.Fatalf("text through the window: %q…, want %q…", got.String()[:min(20, got.Len())], want.String()[:20])
	}
	t.Logf("300 deltas reached the window as %d, in %d Wails events", deltas, len(rec.events))
}

func utf16Units(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// wailsEmitter does the Go work a Wails event costs before it reaches
// GTK (Wails' Frontend.Notify on Linux): the event and its data as JSON,
// escaped into a JavaScript string.
type wailsEmitter struct{ bytes int }

func (w *wailsEmitter) Emit(name string, data any) {
	payload, err := json.Marshal(struct {
		Name string `json:"name"`
		Data []any  `json:"data"`
	}{name, []any{data}})
	if err != nil {
		panic(err)
	}
	w.bytes += len(`window.wails.EventsNotify('` + template.JSEscapeString(string(payload)) + `');`)
}

// BenchmarkForwardDeltas is the Go side of the desktop window's stream per
// delta, published 250 µs apart (4,000 tokens/s: the emit gap batches them
// as in a fast stream): the broker, the forwarder (emit gap, merging) and
// the JSON and escaping Wails does per event (wailsEmitter). The anchor,
// in the same run, is one event per delta (the floor page's way,
// bench/floorstream): the same encoding per delta and nothing else.
// cpu-ns/delta is the process's CPU, the publishing loop's sleeps
// included: "pace-only" is that share alone (no publishing at all).
func BenchmarkForwardDeltas(b *testing.B) {
	const gap = 250 * time.Microsecond
	delta := func(i int) broker.Envelope {
		return broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextContent("msg-1", " tok"), Offset: 4 * i}
	}
	measure := func(b *testing.B, publish func(broker.Envelope)) {
		b.ReportAllocs()
		cpu0 := testkit.CPUTime()
		i := 0
		for b.Loop() {
			publish(delta(i))
			i++
			time.Sleep(gap)
		}
		b.ReportMetric(float64((testkit.CPUTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/delta")
	}
	b.Run("pace-only", func(b *testing.B) { measure(b, func(broker.Envelope) {}) })
	b.Run("forward", func(b *testing.B) {
		em := &wailsEmitter{}
		br := forwarding(b, em)
		measure(b, br.Publish)
	})
	b.Run("anchor=event-per-delta", func(b *testing.B) {
		em := &wailsEmitter{}
		measure(b, func(env broker.Envelope) {
			name, data := Frame(env)
			em.Emit(name, data)
		})
	})
}

// The emit gap holds a delta back by at most one frame at 60 Hz: every
// character reaches the page in time for the frame after it arrived.
func TestEmitGapIsAtMostOneFrame(t *testing.T) {
	if frame := time.Second / 60; minEmitGap > frame {
		t.Fatalf("minEmitGap %v is longer than a frame (%v)", minEmitGap, frame)
	}
}

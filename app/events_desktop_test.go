package app

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/app/events"
)

// gatedEmitter holds its first Emit until open is closed, so the broker
// queues what the run publishes meanwhile; it records every Wails event
// as it came (name and data).
type gatedEmitter struct {
	open  chan struct{}
	once  sync.Once
	mu    sync.Mutex
	calls []events.BatchFrame
}

func (g *gatedEmitter) Emit(name string, data any) {
	g.once.Do(func() { <-g.open })
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, events.BatchFrame{Name: name, Data: data})
}

func (g *gatedEmitter) snapshot() []events.BatchFrame {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.calls)
}

// A window that is behind gets what queued up as one "batch" event whose
// frames are the plain events in order: nothing lost (the text adds up),
// RUN_FINISHED is the run's last AG-UI event and "threads" follows it.
func TestDesktopEventsBatchWhatQueued(t *testing.T) {
	f := newFixture(t, nil)
	g := &gatedEmitter{open: make(chan struct{})}
	f.svc.SetEmitter(g)
	text := strings.Repeat("lorem ipsum dolor sit amet ", 200)
	f.script(fakellm.Reply(fakellm.Words(text, 1)...))
	var sent SendResult
	if e := f.call(&sent, "SendInput", "", "hello"); e != nil {
		t.Fatal(e)
	}
	f.waitIdle(sent.ThreadID)
	close(g.open)

	var frames []events.BatchFrame // every event, unpacked
	batches := 0
	done := func() bool {
		frames, batches = frames[:0], 0
		for _, c := range g.snapshot() {
			if c.Name == "batch" {
				fs, ok := c.Data.([]events.BatchFrame)
				if !ok || len(fs) < 2 {
					t.Fatalf("batch data %T of %d frames", c.Data, len(fs))
				}
				batches++
				frames = append(frames, fs...)
				continue
			}
			frames = append(frames, c)
		}
		for _, fr := range frames {
			if d, ok := fr.Data.(events.AGUIEvent); ok && d.Event.EventType() == agui.TypeRunFinished {
				return true
			}
		}
		return false
	}
	waitFor(t, done)
	if batches == 0 {
		t.Fatalf("no batch event among %d Wails events", len(g.snapshot()))
	}
	var got strings.Builder
	assistant := map[string]bool{} // the echoed user message is not counted
	last := -1
	for i, fr := range frames {
		d, ok := fr.Data.(events.AGUIEvent)
		if !ok || d.ThreadID != sent.ThreadID {
			continue
		}
		if fr.Name != "agui" {
			t.Fatalf("frame %d: name %q for an AG-UI event", i, fr.Name)
		}
		switch e := d.Event.(type) {
		case *agui.TextMessageStart:
			assistant[e.MessageID] = e.Role == "" || e.Role == "assistant"
		case *agui.TextMessageContent:
			if assistant[e.MessageID] {
				got.WriteString(e.Delta)
			}
		}
		last = i
	}
	if got.String() != text {
		t.Fatalf("text through the batches: %d chars, want %d", got.Len(), len(text))
	}
	if d := frames[last].Data.(events.AGUIEvent); d.Event.EventType() != agui.TypeRunFinished {
		t.Fatalf("last AG-UI frame is %s", d.Event.EventType())
	}
	if last+1 >= len(frames) || frames[last+1].Name != "threads" {
		t.Fatalf("RUN_FINISHED is not followed by threads: %+v", frames[last+1:])
	}
}

// countingEmitter counts Wails events and keeps the assistant text.
type countingEmitter struct {
	mu     sync.Mutex
	events int
	text   strings.Builder
	roles  map[string]string
}

func (c *countingEmitter) Emit(name string, data any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.events++
	frames, ok := data.([]events.BatchFrame)
	if !ok {
		frames = []events.BatchFrame{{Name: name, Data: data}}
	}
	for _, f := range frames {
		d, ok := f.Data.(events.AGUIEvent)
		if !ok {
			continue
		}
		switch e := d.Event.(type) {
		case *agui.TextMessageStart:
			c.roles[e.MessageID] = e.Role
		case *agui.TextMessageContent:
			if r := c.roles[e.MessageID]; r == "" || r == "assistant" {
				c.text.WriteString(e.Delta)
			}
		}
	}
}

// Deltas that stream faster than minEmitGap share Wails events; the text
// still arrives whole.
func TestDesktopEventsPaceFastDeltas(t *testing.T) {
	f := newFixture(t, nil)
	c := &countingEmitter{roles: map[string]string{}}
	f.svc.SetEmitter(c)
	var steps []fakellm.Step
	var want strings.Builder
	for i := range 300 {
		w := fmt.Sprintf("w%d ", i)
		want.WriteString(w)
		steps = append(steps, fakellm.Text(w), fakellm.Delay(time.Millisecond))
	}
	f.script(fakellm.Reply(steps...))
	var sent SendResult
	if e := f.call(&sent, "SendInput", "", "hello"); e != nil {
		t.Fatal(e)
	}
	f.waitIdle(sent.ThreadID)
	waitFor(t, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.text.Len() == want.Len()
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.text.String() != want.String() {
		t.Fatalf("text differs")
	}
	if c.events > 150 {
		t.Fatalf("%d Wails events for 300 deltas 1 ms apart", c.events)
	}
	t.Logf("%d Wails events for 300 deltas", c.events)
}

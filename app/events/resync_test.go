package events

import (
	"context"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
)

// marshalEmitter is Wails' way with an event (Frontend.Notify): its data
// as JSON, or, when that fails, nothing reaches the window at all.
type marshalEmitter struct{ got chan []BatchFrame }

func (m *marshalEmitter) Emit(name string, data any) {
	if _, err := json.Marshal(data); err != nil {
		return // Wails logs the error and drops the event
	}
	frames, ok := data.([]BatchFrame)
	if !ok {
		frames = []BatchFrame{{Name: name, Data: data}}
	}
	m.got <- frames
}

// TestForwardSurvivesAnEventThatCannotBeEncoded: one event whose JSON
// cannot be made (a NaN in its metadata) must not take the window's whole
// batch with it (Wails drops an event it cannot encode, silently, with
// the run's end beside it): the window gets the rest, and a "resync" frame
// in its place, so it reloads what it shows (as app/web's stream does).
func TestForwardSurvivesAnEventThatCannotBeEncoded(t *testing.T) {
	for _, alone := range []bool{true, false} {
		em := &marshalEmitter{got: make(chan []BatchFrame, 16)}
		b := broker.NewBroker()
		sub := b.Subscribe("", broker.SubscribeOptions{Coalesce: 1})
		bad := agui.NewMessagesSnapshot([]agui.Message{{ID: "m", Role: "user"}})
		bad.Metadata = map[string]any{"nan": math.NaN()}
		b.Publish(broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: "th", Event: bad})
		if !alone {
			b.Publish(broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: "th", Event: agui.NewRunFinished("th", "r", nil)})
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			Forward(ctx, sub, func() Emitter { return em }, nil)
		}()
		var names []string
		timeout := time.After(5 * time.Second)
		for want := map[bool]int{true: 1, false: 3}[alone]; len(names) < want; {
			select {
			case frames := <-em.got:
				for _, f := range frames {
					names = append(names, f.Name)
				}
			case <-timeout:
				cancel()
				<-done
				t.Fatalf("alone=%v: the window got %v", alone, names)
			}
		}
		if names[0] != "resync" || !alone && (names[1] != "agui" || names[2] != "threads") {
			t.Errorf("alone=%v: the window got %v, want resync first", alone, names)
		}
		cancel()
		<-done
	}
}

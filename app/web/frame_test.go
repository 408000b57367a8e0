package web

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
)

// TestFrameOfAnEventThatCannotBeEncoded: an AG-UI event whose JSON cannot
// be written (a NaN in its metadata) becomes a "resync" frame, which makes
// the page reload what it shows from the store, never a frame holding
// `"event":}}` that the page cannot parse.
func TestFrameOfAnEventThatCannotBeEncoded(t *testing.T) {
	bad := agui.NewCustom("x", map[string]any{"v": 1})
	bad.Metadata = map[string]any{"n": math.NaN()}
	good := agui.NewRunStarted("th-1", "run-1", "")
	for name, c := range map[string]struct {
		ev   agui.Event
		want string
	}{
		"encodable":     {good, `"name":"agui"`},
		"not encodable": {bad, `"name":"resync"`},
	} {
		t.Run(name, func(t *testing.T) {
			b := broker.NewBroker()
			s := b.Subscribe("", broker.SubscribeOptions{})
			defer s.Close()
			b.Publish(broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: "th-1", Event: c.ev})
			batch := s.AppendQueued(nil)
			if len(batch) != 1 {
				t.Fatalf("%d envelopes queued", len(batch))
			}
			frame := string(appendFrame(nil, "boot.1", batch[0]))
			for _, part := range strings.Split(strings.TrimSpace(frame), "\n\n") {
				data := part[strings.Index(part, "data: ")+len("data: "):]
				if !json.Valid([]byte(data)) {
					t.Fatalf("frame data is not JSON: %q", data)
				}
			}
			if !strings.Contains(frame, c.want) {
				t.Fatalf("frame %q, want %s", frame, c.want)
			}
		})
	}
}

// countingEvent counts how often it is encoded.
type countingEvent struct{ n *int }

func (countingEvent) EventType() string { return agui.TypeCustom }

func (e countingEvent) MarshalJSON() ([]byte, error) {
	*e.n++
	return []byte(`{"type":"CUSTOM","name":"x","value":1}`), nil
}

// TestFrameEncodesAnUnsharedEventOnce: a delta merged for one subscriber
// (broker.mergeDelta) has no shared encoding, so every EventJSON call
// encodes it anew; a frame encodes it once, not once to check and once
// to write (a long merged delta is the stream's biggest frame).
func TestFrameEncodesAnUnsharedEventOnce(t *testing.T) {
	n := 0
	env := broker.Envelope{Name: broker.EnvelopeAGUI, ThreadID: "th-1", Seq: 1, Event: countingEvent{&n}}
	frame := appendFrame(nil, "boot.1", env)
	if n != 1 {
		t.Fatalf("encoded %d times for one frame %q", n, frame)
	}
}

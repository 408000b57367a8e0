package agent_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/agent/history"
)

// applyDelta is how a window merges a delta into what it has (the
// frontend reducer does the same): only the part beyond what it has.
func applyDelta(have []uint16, offset int, delta string) ([]uint16, error) {
	d := utf16.Encode([]rune(delta))
	switch {
	case offset+len(d) <= len(have):
		return have, nil
	case offset <= len(have):
		return append(have, d[len(have)-offset:]...), nil
	}
	return have, fmt.Errorf("a hole: the delta starts at %d, the window has %d", offset, len(have))
}

// A snapshot taken at any moment of a streaming answer, plus the events
// after its sequence number merged by offset, is the answer with no hole
// and nothing twice, at every step. The subscriber coalesces (it reads
// after the run), so merged deltas straddle the snapshots.
func TestSnapshotsMeetTheLiveStreamExactly(t *testing.T) {
	t.Parallel()
	var steps []sstep
	var gates []chan struct{}
	var want strings.Builder
	for i := 1; i <= 400; i++ {
		w := fmt.Sprintf("w%03d ", i)
		if i%50 == 0 {
			w = "🙂 " // a surrogate pair in UTF-16
		}
		want.WriteString(w)
		steps = append(steps, sText(w))
		if i%20 == 0 {
			// The model waits here until a snapshot was taken: every
			// gate is a snapshot mid-answer.
			g := make(chan struct{})
			gates = append(gates, g)
			steps = append(steps, sstep{gate: g})
		}
	}
	m := newScriptedModel(reply(steps...))
	h := newHarness(t, func(o *agent.Options) {
		o.Model = func(context.Context, string) (agent.Model, error) { return m, nil }
	})
	sub := h.rt.SubscribeWith("th-1", broker.SubscribeOptions{Coalesce: 1})
	defer sub.Close()

	type snap struct {
		seq uint64
		msg *history.Message
	}
	var snaps []snap
	done := make(chan struct{})
	go func() {
		defer close(done)
		rng := rand.New(rand.NewPCG(1, 2))
		for g := 0; ; g++ {
			s, err := h.rt.Snapshot(context.Background(), "th-1")
			if err == nil {
				sn := snap{seq: s.Seq}
				for i := range s.Messages {
					if s.Messages[i].Role == history.RoleAssistant {
						sn.msg = &s.Messages[i]
					}
				}
				snaps = append(snaps, sn)
			}
			// Open gate g once the model is waiting at it (the snapshot
			// holds the words before it).
			if g < len(gates) {
				if len(snaps) > 0 && snaps[len(snaps)-1].msg != nil && strings.Count(snaps[len(snaps)-1].msg.Content, " ") >= (g+1)*20 {
					close(gates[g])
				} else {
					g--
				}
			}
			if running, _ := h.rt.Running("th-1"); !running && g >= len(gates) {
				return
			}
			time.Sleep(time.Duration(rng.IntN(300)) * time.Microsecond)
		}
	}()
	h.send("th-1", "go")
	finished(t, h.terminal(), agui.OutcomeSuccess)
	<-done

	var events []broker.Envelope
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		env, err := sub.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, env)
		if env.Name == broker.EnvelopeAGUI && env.Event.EventType() == agui.TypeRunFinished {
			break
		}
	}
	answerID := ""
	for _, m := range h.messages("th-1") {
		if m.Role == history.RoleAssistant {
			answerID = m.ID
		}
	}
	full := utf16.Encode([]rune(want.String()))
	checked := 0
	for _, sn := range snaps {
		var have []uint16
		if sn.msg != nil {
			have = utf16.Encode([]rune(sn.msg.Content))
		}
		for _, env := range events {
			tc, ok := env.Event.(*agui.TextMessageContent)
			if !ok || tc.MessageID != answerID || env.Seq <= sn.seq {
				continue
			}
			var err error
			if have, err = applyDelta(have, env.Offset, tc.Delta); err != nil {
				t.Fatalf("snapshot at %d: %v", sn.seq, err)
			}
			if len(have) > len(full) || string(utf16.Decode(have)) != string(utf16.Decode(full[:len(have)])) {
				t.Fatalf("snapshot at %d: not a prefix of the answer: …%q", sn.seq, string(utf16.Decode(have))[max(0, len(have)-40):])
			}
		}
		if string(utf16.Decode(have)) != want.String() {
			t.Fatalf("snapshot at %d ends with %d of %d code units", sn.seq, len(have), len(full))
		}
		if sn.msg != nil && sn.msg.Content != "" && sn.msg.Content != want.String() {
			checked++
		}
	}
	if checked < len(gates)-1 { // the last gate comes after the last word
		t.Fatalf("only %d of %d snapshots caught the answer mid-stream", checked, len(snaps))
	}
	t.Logf("%d snapshots, %d mid-stream, %d events", len(snaps), checked, len(events))
}

package broker

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
)

// frame is what a browser's stream writes of an envelope (app/web
// appendFrame): its seq, type, thread and JSON; a delta's text is followed
// by stream rather than per envelope, since coalescing may merge deltas.
type frame struct {
	seq    uint64
	thread string
	typ    string
	json   string
}

// stitch reduces envelopes to what a page renders: every must-deliver
// envelope as written, and each message's delta text whole.
func stitch(envs []Envelope) (frames []frame, texts map[string]string) {
	texts = map[string]string{}
	for _, e := range envs {
		if k, d, ok := deltaOf(e.Event); ok {
			texts[e.ThreadID+"/"+k.id] += d
			continue
		}
		frames = append(frames, frame{seq: e.Seq, thread: e.ThreadID, typ: e.Event.EventType(), json: string(e.EventJSON())})
	}
	return frames, texts
}

// publishMix publishes a run's worth of envelopes over two threads:
// deltas, tool results, snapshots (one of them long, one whose JSON
// cannot be encoded), and returns nothing: subscribers record it.
func publishMix(b *Broker, r *rand.Rand, n int) {
	for i := 0; i < n; i++ {
		th := []string{"th-1", "th-2"}[r.IntN(2)]
		var ev agui.Event
		switch k := r.IntN(10); {
		case k < 6:
			ev = &agui.TextMessageContent{MessageID: fmt.Sprintf("m%d", r.IntN(3)), Delta: fmt.Sprintf("<t%d&>", i)}
		case k < 7:
			ev = &agui.ToolCallResult{ToolCallID: fmt.Sprint(i), Content: strings.Repeat("x\u2028", r.IntN(100))}
		case k < 9:
			msgs := make([]agui.Message, 1+r.IntN(50))
			for j := range msgs {
				msgs[j] = agui.Message{ID: fmt.Sprintf("m-%d-%d", i, j), Role: "assistant", Content: agui.TextContent("<b>\xff</b>")}
			}
			ev = agui.NewMessagesSnapshot(msgs)
		default:
			s := agui.NewMessagesSnapshot([]agui.Message{{ID: "bad", Role: "user"}})
			s.Metadata = map[string]any{"nan": math.NaN()} // cannot be encoded
			ev = s
		}
		b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: th, Event: ev})
	}
}

// TestBrokerReplayAfterSnapshotsIsWhatLiveGot: a client that reconnects
// from any id gets, from there on, exactly what a live subscriber got
// (the same frames, types, seqs and bytes; the same text), for every
// thread filter, with and without deltas, while snapshots are kept by
// their JSON alone.
func TestBrokerReplayAfterSnapshotsIsWhatLiveGot(t *testing.T) {
	for _, threadID := range []string{"", "th-1"} {
		for _, noDeltas := range []bool{false, true} {
			t.Run(fmt.Sprintf("thread=%q noDeltas=%v", threadID, noDeltas), func(t *testing.T) {
				b := NewBroker()
				o := SubscribeOptions{Coalesce: 1, NoDeltas: noDeltas}
				live := b.Subscribe(threadID, o)
				defer live.Close()
				b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewRunStarted("th-1", "r", "")})
				from := b.EventID(Envelope{Seq: b.LastSeq()})
				publishMix(b, rand.New(rand.NewPCG(1, 2)), 400)
				got := drainNow(t, live)[1:]
				s, complete := b.SubscribeSince(threadID, from, o)
				defer s.Close()
				if !complete {
					t.Fatal("replay incomplete")
				}
				replayed := drainNow(t, s)
				lf, lt := stitch(got)
				rf, rt := stitch(replayed)
				if len(lf) != len(rf) {
					t.Fatalf("live %d frames, replay %d", len(lf), len(rf))
				}
				for i := range lf {
					if lf[i] != rf[i] {
						t.Fatalf("frame %d: live %+v\nreplay %+v", i, lf[i], rf[i])
					}
				}
				if fmt.Sprint(lt) != fmt.Sprint(rt) {
					t.Fatalf("texts differ: live %v replay %v", lt, rt)
				}
			})
		}
	}
}

// TestBrokerReconnectWhilePublishing: a page that reads live, drops its
// stream at any moment and reconnects from the last id it saw (while the
// runtime keeps publishing) renders what a page that never dropped did.
func TestBrokerReconnectWhilePublishing(t *testing.T) {
	b := NewBroker()
	o := SubscribeOptions{Coalesce: 1}
	whole := b.Subscribe("", o)
	defer whole.Close()
	first := b.Subscribe("", o)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		publishMix(b, rand.New(rand.NewPCG(3, 4)), 300)
	}()
	// Read a while, then drop and reconnect from the last id seen.
	var seen []Envelope
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for len(seen) < 20 {
		batch, err := first.NextBatch(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, batch...)
	}
	first.Close()
	lastSeen := seen[len(seen)-1].Seq
	again, complete := b.SubscribeSince("", b.EventID(seen[len(seen)-1]), o)
	defer again.Close()
	wg.Wait()
	if !complete {
		t.Fatal("replay incomplete")
	}
	seen = append(seen, drainNow(t, again)...)
	lf, lt := stitch(drainNow(t, whole))
	rf, rt := stitch(seen)
	if len(lf) != len(rf) {
		t.Fatalf("live %d frames, reconnected %d", len(lf), len(rf))
	}
	for i := range lf {
		if lf[i] != rf[i] {
			t.Fatalf("frame %d: live %+v\nreconnected %+v", i, lf[i], rf[i])
		}
	}
	if fmt.Sprint(lt) != fmt.Sprint(rt) {
		for k := range lt {
			if lt[k] != rt[k] {
				t.Errorf("%s: live %q\nreconnected %q (last seen seq %d)", k, lt[k], rt[k], lastSeen)
			}
		}
	}
}

// TestBrokerNeverMergesDeltasOfTwoThreads: call ids are the provider's,
// and a local server that numbers them per response ("call_0") gives two
// threads running at once the same id. A subscription to every thread
// (the browser's stream, the desktop window) that is behind merged the
// second thread's arguments into the first thread's call.
func TestBrokerNeverMergesDeltasOfTwoThreads(t *testing.T) {
	for _, coalesce := range []int{1, 2, 256} {
		b := NewBroker()
		s := b.Subscribe("", SubscribeOptions{Coalesce: coalesce})
		for i := 0; i < coalesce; i++ { // behind by its coalescing depth
			b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-0", Event: agui.NewToolCallEnd(fmt.Sprint(i))})
		}
		b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewToolCallArgs("call_0", `{"path":"a`)})
		b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-2", Event: agui.NewToolCallArgs("call_0", `{"cmd":"rm`)})
		b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewToolCallArgs("call_0", `.txt"}`)})
		_, texts := stitch(drainNow(t, s))
		if texts["th-1/call_0"] != `{"path":"a.txt"}` || texts["th-2/call_0"] != `{"cmd":"rm` {
			t.Errorf("coalesce %d: th-1 got %q, th-2 got %q", coalesce, texts["th-1/call_0"], texts["th-2/call_0"])
		}
		s.Close()
	}
}

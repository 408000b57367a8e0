package broker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
)

// queuedLen is how many entries the subscription holds right now.
func (s *Subscription) queuedLen() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.q) - s.head
}

// drainNow returns everything queued without waiting.
func drainNow(t *testing.T, s *Subscription) []Envelope {
	t.Helper()
	var out []Envelope
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		batch, err := s.NextBatch(ctx, nil)
		cancel()
		out = append(out, batch...)
		if err != nil {
			return out
		}
	}
}

// A subscriber that stops reading during a 100k-token stream holds a
// bounded number of entries (its coalescing depth plus the must-deliver
// envelopes), and once it reads again it gets every character in order,
// every must-deliver envelope in order, and the terminal event last.
func TestBrokerStalledSubscriberStaysBounded(t *testing.T) {
	b := NewBroker()
	s := b.Subscribe("th-1", SubscribeOptions{})
	defer s.Close()
	const tokens = 100_000
	const every = 10_000 // a must-deliver envelope among the deltas
	var want strings.Builder
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewRunStarted("th-1", "run-1", "")})
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextStart("msg-1")})
	musts := 3 // run started, text start … run finished
	maxLen := 0
	for i := 0; i < tokens; i++ {
		tok := strconv.Itoa(i) + " "
		want.WriteString(tok)
		b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextContent("msg-1", tok)})
		if i%every == every-1 {
			b.Publish(Envelope{Name: "facade", ThreadID: "th-1", Data: i})
			musts++
		}
		// Another thread's traffic never reaches this subscription.
		if i%1000 == 0 {
			b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-2", Event: agui.NewTextContent("msg-2", "x")})
		}
		maxLen = max(maxLen, s.queuedLen())
	}
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextEnd("msg-1")})
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewRunFinished("th-1", "run-1", nil)})
	musts++
	maxLen = max(maxLen, s.queuedLen())
	// Each must-deliver envelope may start one more coalesced delta run.
	if bound := defaultCoalesce + 2*musts + 1; maxLen > bound {
		t.Fatalf("the stalled subscriber held %d entries, bound %d", maxLen, bound)
	}
	envs := drainNow(t, s)
	var got strings.Builder
	var facade []string
	for _, env := range envs {
		if env.ThreadID != "th-1" {
			t.Fatalf("envelope of %s delivered", env.ThreadID)
		}
		if env.Name == "facade" {
			facade = append(facade, fmt.Sprint(env.Data))
			continue
		}
		if c, ok := env.Event.(*agui.TextMessageContent); ok {
			got.WriteString(c.Delta)
		}
	}
	if got.String() != want.String() {
		t.Fatalf("text differs: got %d bytes, want %d", got.Len(), want.Len())
	}
	if strings.Join(facade, ",") != "9999,19999,29999,39999,49999,59999,69999,79999,89999,99999" {
		t.Fatalf("must-deliver envelopes %v", facade)
	}
	if last := envs[len(envs)-1]; last.Event == nil || last.Event.EventType() != agui.TypeRunFinished {
		t.Fatalf("last envelope %+v, want RUN_FINISHED", last)
	}
	// Sequence numbers only grow: a client resuming from any of them
	// misses nothing and sees nothing twice.
	for i := 1; i < len(envs); i++ {
		if envs[i].Seq <= envs[i-1].Seq {
			t.Fatalf("seq %d after %d", envs[i].Seq, envs[i-1].Seq)
		}
	}
}

// The broker's replay (app/hub_test.go's cases, on SubscribeSince and
// EventID): what a reconnecting client missed is queued first, then live
// envelopes follow; an id the broker cannot serve asks for a resync.
func TestBrokerReplaysWhatAReconnectingClientMissed(t *testing.T) {
	b := NewBroker()
	for i := 1; i <= 5; i++ {
		b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Data: i})
	}
	boot, _, _ := strings.Cut(b.EventID(Envelope{}), ".")
	cases := []struct {
		name, last string
		want       string
	}{
		{"fresh page: nothing replayed", "", ""},
		{"missed two", boot + ".3", "4 5"},
		{"missed nothing", boot + ".5", ""},
		{"server restarted: everything of this boot", "otherboot.42", "1 2 3 4 5"},
		{"an id from the future", boot + ".99", "resync"},
		{"garbage", "nonsense", "resync"},
	}
	for _, tc := range cases {
		s, complete := b.SubscribeSince("th-1", tc.last, SubscribeOptions{})
		got := strings.Join(seqs(b, drainNow(t, s), complete), " ")
		s.Close()
		if got != tc.want {
			t.Errorf("%s: replayed %q, want %q", tc.name, got, tc.want)
		}
	}
	// Live envelopes follow the replayed ones, in order.
	s, complete := b.SubscribeSince("th-1", boot+".4", SubscribeOptions{})
	defer s.Close()
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Data: 6})
	if got := strings.Join(seqs(b, drainNow(t, s), complete), " "); got != "5 6" {
		t.Fatalf("replay then live: %q", got)
	}
}

func TestBrokerAsksForAResyncWhenEnvelopesAreGone(t *testing.T) {
	b := NewBroker()
	for i := 0; i < ringSize+10; i++ {
		b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Data: i})
	}
	boot, _, _ := strings.Cut(b.EventID(Envelope{}), ".")
	s, complete := b.SubscribeSince("th-1", fmt.Sprintf("%s.%d", boot, 5), SubscribeOptions{})
	if got := seqs(b, drainNow(t, s), complete); len(got) != 1 || got[0] != "resync" {
		t.Fatalf("got %v", got)
	}
	s.Close()
	s, complete = b.SubscribeSince("th-1", "otherboot.1", SubscribeOptions{}) // restarted, but the new boot's first envelopes are gone
	if got := seqs(b, drainNow(t, s), complete); len(got) != 1 || got[0] != "resync" {
		t.Fatalf("after restart with a full ring: %v", got)
	}
	s.Close()
}

// seqs renders what a subscription got as the hub test did: "resync"
// when the replay was incomplete, then each envelope's sequence number
// (read back from its EventID).
func seqs(b *Broker, envs []Envelope, complete bool) []string {
	var out []string
	if !complete {
		out = append(out, "resync")
	}
	for _, e := range envs {
		id := b.EventID(e)
		out = append(out, id[strings.IndexByte(id, '.')+1:])
	}
	return out
}

// A NoDeltas subscription (how runs end, for the log) gets every
// must-deliver envelope in order and no delta, so a stream never wakes it
// once per token.
func TestBrokerNoDeltasSubscriptionSkipsDeltas(t *testing.T) {
	b := NewBroker()
	s := b.Subscribe("", SubscribeOptions{Coalesce: 1, NoDeltas: true})
	defer s.Close()
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextStart("msg-1")})
	for i := range 100 {
		b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextContent("msg-1", strconv.Itoa(i))})
	}
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextEnd("msg-1")})
	got := drainNow(t, s)
	var types []string
	for _, e := range got {
		types = append(types, string(e.Event.EventType()))
	}
	if want := []string{string(agui.TypeTextMessageStart), string(agui.TypeTextMessageEnd)}; fmt.Sprint(types) != fmt.Sprint(want) {
		t.Fatalf("got %v, want %v", types, want)
	}
}

// WaitMust sleeps through deltas (they are queued and merged, and do not
// wake the reader), returns at once when a must-deliver envelope is
// queued, and at its deadline otherwise; AppendQueued then hands the
// deltas over merged into the batch's last delta: the text whole and in
// order, the first part's offset, the newest Seq.
func TestBrokerWaitMustSleepsThroughDeltas(t *testing.T) {
	b := NewBroker()
	s := b.Subscribe("th-1", SubscribeOptions{Coalesce: 1})
	defer s.Close()
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextContent("msg-1", "a"), Offset: 0})
	batch, err := s.NextBatch(context.Background(), nil)
	if err != nil || len(batch) != 1 {
		t.Fatalf("first delta: %v, %d envelopes", err, len(batch))
	}

	// Deltas only: WaitMust returns at its deadline, the wake channel
	// holds nothing the deltas put there, and the deltas merge. (The
	// first delta's wake-up is still there: Next took it from the queue.)
	<-s.wake
	done := make(chan error, 1)
	go func() { done <- s.WaitMust(context.Background(), time.Now().Add(50*time.Millisecond)) }()
	for !s.isQuiet() {
		time.Sleep(time.Millisecond)
	}
	for i, tok := range []string{"b", "c", "dé"} {
		b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextContent("msg-1", tok), Offset: 1 + i})
	}
	if n := len(s.wake); n != 0 {
		t.Fatalf("deltas woke the quiet reader (%d)", n)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	batch = s.AppendQueued(batch)
	if len(batch) != 1 {
		t.Fatalf("%d envelopes, want the deltas merged into one", len(batch))
	}
	e := batch[0]
	if d := e.Event.(*agui.TextMessageContent).Delta; d != "abcdé" || e.Offset != 0 || e.Seq != b.LastSeq() {
		t.Fatalf("merged delta %q at offset %d seq %d (last %d)", d, e.Offset, e.Seq, b.LastSeq())
	}
	if !strings.Contains(string(e.EventJSON()), `"delta":"abcdé"`) {
		t.Fatalf("merged delta's JSON: %s", e.EventJSON())
	}

	// A must-deliver envelope ends the wait at once (the deadline is an
	// hour away) and is never merged.
	go func() { done <- s.WaitMust(context.Background(), time.Now().Add(time.Hour)) }()
	for !s.isQuiet() {
		time.Sleep(time.Millisecond)
	}
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextContent("msg-1", "f"), Offset: 5})
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewTextEnd("msg-1")})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	batch = s.AppendQueued(batch[:0])
	if len(batch) != 2 || batch[1].Event.EventType() != agui.TypeTextMessageEnd {
		t.Fatalf("after the end: %d envelopes", len(batch))
	}

	// A cancelled wait returns ctx's error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.WaitMust(ctx, time.Now().Add(time.Hour)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled wait: %v", err)
	}
}

// Deltas of different messages, threads or kinds are never merged.
func TestBrokerAppendQueuedMergesOnlyContinuations(t *testing.T) {
	b := NewBroker()
	s := b.Subscribe("", SubscribeOptions{Coalesce: 1 << 20}) // the queue merges nothing
	defer s.Close()
	pub := func(th string, ev agui.Event) { b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: th, Event: ev}) }
	pub("th-1", agui.NewTextContent("m1", "a"))
	pub("th-1", agui.NewTextContent("m1", "b"))
	pub("th-1", agui.NewReasoningContent("m1", "r"))
	pub("th-1", agui.NewTextContent("m2", "c"))
	pub("th-2", agui.NewTextContent("m2", "d"))
	pub("th-2", agui.NewToolCallArgs("c1", "{"))
	pub("th-2", agui.NewToolCallArgs("c1", "}"))
	got := s.AppendQueued(nil)
	var parts []string
	for _, e := range got {
		_, d, _ := deltaOf(e.Event)
		parts = append(parts, e.ThreadID+":"+d)
	}
	if want := "[th-1:ab th-1:r th-1:c th-2:d th-2:{}]"; fmt.Sprint(parts) != want {
		t.Fatalf("got %v, want %s", parts, want)
	}
}

// isQuiet reports whether a reader waits in WaitMust.
func (s *Subscription) isQuiet() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.quiet
}

// TestBrokerReplaysASnapshotAsItWasPublished: the ring keeps a
// MESSAGES_SNAPSHOT by its JSON alone (keptForm); a reconnecting client
// gets the same type and the same bytes, and a live subscriber still gets
// the typed event.
func TestBrokerReplaysASnapshotAsItWasPublished(t *testing.T) {
	b := NewBroker()
	live := b.Subscribe("th-1", SubscribeOptions{})
	defer live.Close()
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: agui.NewRunStarted("th-1", "run-1", "")})
	first := b.EventID(Envelope{Seq: b.LastSeq()})
	snap := agui.NewMessagesSnapshot([]agui.Message{
		{ID: "m1", Role: "user", Content: agui.TextContent("hello <b>&</b> \u2028 ✓")},
		{ID: "m2", Role: "assistant", ToolCalls: []agui.ToolCall{{ID: "c1", Type: "function", Function: agui.FunctionCall{Name: "read_file", Arguments: `{"path":"a.txt"}`}}}},
		{ID: "m3", Role: "tool", ToolCallID: "c1", Error: "denied"},
	})
	want, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: "th-1", Event: snap})

	got := drainNow(t, live)
	if len(got) != 2 || got[1].Event != agui.Event(snap) {
		t.Fatalf("the live subscriber got %v, want the typed snapshot", got)
	}
	s, complete := b.SubscribeSince("th-1", first, SubscribeOptions{})
	defer s.Close()
	replayed := drainNow(t, s)
	if !complete || len(replayed) != 1 {
		t.Fatalf("replay: complete %v, %d envelopes", complete, len(replayed))
	}
	r := replayed[0]
	if r.Event.EventType() != agui.TypeMessagesSnapshot || r.IsDelta() || r.Seq != got[1].Seq {
		t.Fatalf("replayed %s (seq %d), want MESSAGES_SNAPSHOT seq %d", r.Event.EventType(), r.Seq, got[1].Seq)
	}
	if j := r.EventJSON(); !bytes.Equal(j, want) {
		t.Fatalf("replayed JSON\n%s\nwant\n%s", j, want)
	}
	if j, _ := json.Marshal(r.Event); !bytes.Equal(j, want) {
		t.Fatalf("the replayed event marshals to\n%s\nwant\n%s", j, want)
	}
}

package broker

import (
	"context"
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

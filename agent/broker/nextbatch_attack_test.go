package broker

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/agui"
)

// TestBrokerNextBatchTailMerge drives NextBatch's two steps by hand (Next
// took the first envelope; more was published; AppendQueued takes the
// rest) so the merge of a delta published in between is deterministic:
// it merges only into a delta of the same stream and thread that is last
// in the batch, never across a must-deliver event, keeps the first
// part's Offset and the newest part's Seq, and a client that resumes
// from the merged delta's id misses nothing and sees nothing twice.
func TestBrokerNextBatchTailMerge(t *testing.T) {
	t.Parallel()
	type pub struct {
		thread string
		ev     agui.Event
		off    int
	}
	text := func(th, id, d string, off int) pub { return pub{th, agui.NewTextContent(id, d), off} }
	for _, tc := range []struct {
		name  string
		first pub   // taken by Next
		then  []pub // published after
		want  []string
	}{
		{"same message", text("a", "m1", "ab", 0), []pub{text("a", "m1", "cd", 2), text("a", "m1", "ef", 4)},
			[]string{"a/m1@0:abcdef"}},
		{"another message", text("a", "m1", "ab", 0), []pub{text("a", "m2", "cd", 0), text("a", "m1", "ef", 2)},
			[]string{"a/m1@0:ab", "a/m2@0:cd", "a/m1@2:ef"}},
		{"a must-deliver event between", text("a", "m1", "ab", 0), []pub{{"a", agui.NewToolCallStart("c1", "f", "m1"), 0}, text("a", "m1", "cd", 2)},
			[]string{"a/m1@0:ab", "a/TOOL_CALL_START", "a/m1@2:cd"}},
		{"another thread, same id", text("a", "m1", "ab", 0), []pub{text("b", "m1", "cd", 0)},
			[]string{"a/m1@0:ab", "b/m1@0:cd"}},
		{"reasoning of the same id", text("a", "m1", "ab", 0), []pub{{"a", agui.NewReasoningContent("m1", "cd"), 0}},
			[]string{"a/m1@0:ab", "a/REASONING_MESSAGE_CONTENT"}},
		{"a must-deliver first", pub{"a", agui.NewToolCallStart("c1", "f", "m1"), 0}, []pub{{"a", agui.NewToolCallArgs("c1", "{"), 0}, {"a", agui.NewToolCallArgs("c1", "}"), 1}},
			[]string{"a/TOOL_CALL_START", "a/c1@0:{}"}},
		{"a huge delta", text("a", "m1", strings.Repeat("x", 1<<20), 0), []pub{text("a", "m1", "y", 1<<20)},
			[]string{"a/m1@0:" + strings.Repeat("x", 1<<20) + "y"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBroker()
			s := b.Subscribe("", SubscribeOptions{Coalesce: 1})
			defer s.Close()
			publish := func(p pub) { b.Publish(Envelope{Name: EnvelopeAGUI, ThreadID: p.thread, Event: p.ev, Offset: p.off}) }
			publish(tc.first)
			first, err := s.Next(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range tc.then {
				publish(p)
			}
			batch := s.AppendQueued([]Envelope{first})
			var got []string
			for _, env := range batch {
				if k, d, ok := deltaOf(env.Event); ok && k.kind != 'r' {
					got = append(got, fmt.Sprintf("%s/%s@%d:%s", env.ThreadID, k.id, env.Offset, d))
				} else {
					got = append(got, env.ThreadID+"/"+env.Event.EventType())
				}
				if env.IsDelta() && env.EventJSON() == nil {
					t.Fatal("a merged delta without JSON")
				}
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("batch = %.200q, want %.200q", got, tc.want)
			}
			if last := batch[len(batch)-1]; last.Seq != b.LastSeq() {
				t.Fatalf("the batch's last Seq = %d, want the newest, %d", last.Seq, b.LastSeq())
			}
			// A client resuming after the batch misses nothing and gets nothing twice.
			r, complete := b.SubscribeSince("", b.EventID(batch[len(batch)-1]), SubscribeOptions{Coalesce: 1})
			defer r.Close()
			if !complete {
				t.Fatal("resume not complete")
			}
			if q := r.AppendQueued(nil); len(q) != 0 {
				t.Fatalf("resuming after the batch replays %d envelopes", len(q))
			}
			// ... and one resuming from the first part's id gets the rest.
			r2, _ := b.SubscribeSince("", b.EventID(first), SubscribeOptions{Coalesce: 1})
			defer r2.Close()
			if q := r2.AppendQueued(nil); len(q) == 0 && len(tc.then) > 0 {
				t.Fatal("resuming after the first part replays nothing")
			}
		})
	}
}

package agent_test

import (
	"context"
	"fmt"
	"iter"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/model"
)

// endlessModel answers every call with the same delta, made by next from
// its position, until the runtime stops reading or the test's own ceiling
// (ceiling deltas, far past every budget) is reached; then it finishes.
type endlessModel struct {
	next    func(i int) model.Delta
	ceiling int
	sent    atomic.Int64
}

func (m *endlessModel) Deltas(ctx context.Context, _ model.Request) iter.Seq2[model.Delta, error] {
	return func(yield func(model.Delta, error) bool) {
		for i := range m.ceiling {
			if ctx.Err() != nil {
				yield(model.Delta{}, ctx.Err())
				return
			}
			m.sent.Add(1)
			if !yield(m.next(i), nil) {
				return
			}
		}
		yield(model.Delta{FinishReason: "stop"}, nil)
	}
}

// TestEndlessAnswerIsCutAtItsBudget: an endpoint that never stops
// answering (text, reasoning, one call's arguments, or ever more calls)
// gets an answer cut at MaxAnswerBytes or MaxAnswerCalls, kept with an
// error that says so, and runs no tool; memory and the stored row stay
// bounded instead of growing until the person presses Stop.
func TestEndlessAnswerIsCutAtItsBudget(t *testing.T) {
	block := strings.Repeat("a", 64<<10)
	cases := []struct {
		name string
		next func(i int) model.Delta
		want string
	}{
		{"text", func(int) model.Delta { return model.Delta{Text: block} }, "answer passed"},
		{"reasoning", func(int) model.Delta { return model.Delta{Reasoning: block} }, "answer passed"},
		{"one call's arguments", func(i int) model.Delta {
			tc := model.ToolCallDelta{Index: 0, Arguments: block}
			if i == 0 {
				tc.ID, tc.Name = "c1", "read_file"
			}
			return model.Delta{ToolCalls: []model.ToolCallDelta{tc}}
		}, "answer passed"},
		{"ever more calls", func(i int) model.Delta {
			return model.Delta{ToolCalls: []model.ToolCallDelta{{Index: i, ID: fmt.Sprint("c", i), Name: "read_file", Arguments: `{}`}}}
		}, "tool calls"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := &endlessModel{next: tc.next, ceiling: 1 << 10} // 64 MiB of 64 KiB deltas, or 1,024 calls
			s := newScripted(t, newScriptedModel(), func(o *agent.Options) {
				o.Model = func(context.Context, string) (agent.Model, error) { return m, nil }
			})
			s.send("th-1", "hi")
			if re, ok := s.terminal().(*agui.RunError); !ok || !strings.Contains(re.Message, tc.want) {
				t.Fatalf("terminal %.300v, want RUN_ERROR saying %q", re, tc.want)
			}
			s.idle("th-1")
			msgs := s.messages("th-1")
			last := msgs[len(msgs)-1]
			size := len(last.Content) + len(last.Reasoning)
			for _, c := range last.ToolCalls {
				size += len(c.Arguments)
			}
			if last.Role != history.RoleAssistant || last.Status != history.StatusError || !strings.Contains(last.Error, tc.want) {
				t.Fatalf("last message %s %s error %.200q, want an error saying %q", last.Role, last.Status, last.Error, tc.want)
			}
			if size > agent.MaxAnswerBytes || len(last.ToolCalls) != 0 {
				t.Fatalf("stored %d bytes and %d calls, budget %d bytes and no call", size, len(last.ToolCalls), agent.MaxAnswerBytes)
			}
			if n := len(msgs); n != 2 {
				t.Fatalf("%d messages: a tool ran", n)
			}
			if sent := m.sent.Load(); sent*int64(len(block)) > 2*agent.MaxAnswerBytes && sent > 2*agent.MaxAnswerCalls {
				t.Fatalf("the model sent %d deltas before the runtime stopped reading", sent)
			}
		})
	}
}

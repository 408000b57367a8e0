package agent_test

import (
	"context"
	"errors"
	"iter"
	"sync"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/model"
	"github.com/juncture-app/juncture/agent/tools"
)

// The scripted model plugs in at the runtime's agent.Model seam, with no
// HTTP in between: each model call plays the next scripted reply. Its
// steps are text and reasoning deltas, tool-call fragments, a block that
// lasts until the runtime cancels the call (Stop), a gate the test opens,
// and a failure.

type sstep struct {
	delta model.Delta
	block bool            // wait until the call's ctx is done
	gate  <-chan struct{} // wait until closed (or ctx done)
	err   error           // end the call with this failure
}

func sText(s string) sstep      { return sstep{delta: model.Delta{Text: s}} }
func sReasoning(s string) sstep { return sstep{delta: model.Delta{Reasoning: s}} }
func sBlock() sstep             { return sstep{block: true} }
func sErr(err error) sstep      { return sstep{err: err} }

// sCall is one fragment of tool call number index (id and name may be
// repeated by servers that send them in every chunk).
func sCall(index int, id, name, args string) sstep {
	return sstep{delta: model.Delta{ToolCalls: []model.ToolCallDelta{{Index: index, ID: id, Name: name, Arguments: args}}}}
}

type sreply []sstep

func reply(steps ...sstep) sreply { return steps }

type scriptedModel struct {
	mu       sync.Mutex
	replies  []sreply
	fallback func(n int, req model.Request) sreply
	reqs     []model.Request
	ended    []error // how each call ended (nil: played to the end)
	called   chan int
}

func newScriptedModel(replies ...sreply) *scriptedModel {
	return &scriptedModel{replies: replies, called: make(chan int, 1024)}
}

func (m *scriptedModel) Enqueue(rs ...sreply) {
	m.mu.Lock()
	m.replies = append(m.replies, rs...)
	m.mu.Unlock()
}

// Calls is the number of model calls made so far.
func (m *scriptedModel) Calls() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.reqs)
}

func (m *scriptedModel) Requests() []model.Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]model.Request(nil), m.reqs...)
}

// Ended returns how each call ended so far (nil: played to the end).
func (m *scriptedModel) Ended() []error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]error(nil), m.ended...)
}

func (m *scriptedModel) Deltas(ctx context.Context, req model.Request) iter.Seq2[model.Delta, error] {
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	n := len(m.reqs)
	m.ended = append(m.ended, errors.New("still streaming"))
	var steps sreply
	switch {
	case len(m.replies) > 0:
		steps, m.replies = m.replies[0], m.replies[1:]
	case m.fallback != nil:
		steps = m.fallback(n, req)
	default:
		steps = reply(sErr(errors.New("scripted model: no reply left")))
	}
	m.mu.Unlock()
	select {
	case m.called <- n:
	default:
	}
	end := func(err error) {
		m.mu.Lock()
		m.ended[n-1] = err
		m.mu.Unlock()
	}
	return func(yield func(model.Delta, error) bool) {
		calls := false
		for _, st := range steps {
			if ctx.Err() != nil {
				end(ctx.Err())
				yield(model.Delta{}, ctx.Err())
				return
			}
			switch {
			case st.block:
				<-ctx.Done()
				end(ctx.Err())
				yield(model.Delta{}, ctx.Err())
				return
			case st.gate != nil:
				select {
				case <-st.gate:
				case <-ctx.Done():
					end(ctx.Err())
					yield(model.Delta{}, ctx.Err())
					return
				}
			case st.err != nil:
				end(st.err)
				yield(model.Delta{}, st.err)
				return
			default:
				calls = calls || len(st.delta.ToolCalls) > 0
				if !yield(st.delta, nil) {
					end(errors.New("the runtime stopped reading"))
					return
				}
			}
		}
		reason := "stop"
		if calls {
			reason = "tool_calls"
		}
		end(nil)
		yield(model.Delta{FinishReason: reason}, nil)
	}
}

// scripted is a harness (real SQLite store) whose runtime streams from a
// scripted model, with every tool: the built-ins (write tools on), the
// slow test tools, the client tools and gated_echo (always asks).
type scripted struct {
	*harness
	m   *scriptedModel
	reg *tools.Registry

	gmu   sync.Mutex
	gated []string // arguments of every gated_echo execution
}

func newScripted(t testing.TB, m *scriptedModel, opts ...harnessOpt) *scripted {
	t.Helper()
	s := &scripted{harness: newHarness(t), m: m}
	gated := gatedEcho(func(args string) {
		s.gmu.Lock()
		s.gated = append(s.gated, args)
		s.gmu.Unlock()
	})
	gated.OnStop = tools.MustComplete
	ts := tools.Builtins(tools.Workspace{Root: s.ws}, tools.BuiltinOptions{EnableWriteTools: true, KillGrace: 200 * time.Millisecond})
	ts = append(ts, s.testTools()...)
	ts = append(ts, tools.ClientTools()...)
	ts = append(ts, gated)
	reg, err := tools.NewRegistry(ts...)
	if err != nil {
		t.Fatal(err)
	}
	s.reg = reg
	all := append([]harnessOpt{func(o *agent.Options) {
		o.Model = func(context.Context, string) (agent.Model, error) { return m, nil }
		o.Tools = func(context.Context, string) *tools.Registry { return reg }
	}}, opts...)
	s.rebuild(all...)
	return s
}

func (s *scripted) gatedRuns() []string {
	s.gmu.Lock()
	defer s.gmu.Unlock()
	return append([]string(nil), s.gated...)
}

// allow remembers "Always allow" for a tool, so its calls are not asked
// about (client tools then go straight to the window).
func (h *harness) allow(tool string) {
	h.t.Helper()
	r := history.PermissionRule{ID: agent.NewID("rule"), Tool: tool, Scope: history.ScopeTool, CreatedAt: time.Now().UnixMilli()}
	if err := h.db.AddPermissionRule(context.Background(), r); err != nil {
		h.t.Fatal(err)
	}
}

// nextTerminal reads sub until a RUN_FINISHED or RUN_ERROR.
func nextTerminal(t testing.TB, sub *broker.Subscription) agui.Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		env, err := sub.Next(ctx)
		if err != nil {
			t.Fatalf("waiting for a terminal event: %v", err)
		}
		if env.Name != broker.EnvelopeAGUI {
			continue
		}
		switch env.Event.EventType() {
		case agui.TypeRunFinished, agui.TypeRunError:
			return env.Event
		}
	}
}

// finished asserts a RUN_FINISHED of the outcome type want.
func finished(t testing.TB, ev agui.Event, want string) *agui.RunFinished {
	t.Helper()
	rf, ok := ev.(*agui.RunFinished)
	if !ok {
		t.Fatalf("terminal %#v, want RUN_FINISHED %s", ev, want)
	}
	got := agui.OutcomeSuccess
	if rf.Outcome != nil {
		got = rf.Outcome.Type
	}
	if got != want {
		t.Fatalf("outcome %+v, want %s", rf.Outcome, want)
	}
	return rf
}

// waitingRuns returns the runs the thread's pending (answerable or
// client) items belong to.
func (h *harness) waitingRuns(threadID string) map[string]int {
	h.t.Helper()
	ctx := context.Background()
	its, err := h.db.PendingInterrupts(ctx, threadID)
	if err != nil {
		h.t.Fatal(err)
	}
	cs, err := h.db.PendingClientToolCalls(ctx, threadID)
	if err != nil {
		h.t.Fatal(err)
	}
	out := map[string]int{}
	for _, it := range its {
		out[it.RunID]++
	}
	for _, c := range cs {
		out[c.RunID]++
	}
	return out
}

// The scripted model itself: it streams through the runtime like an
// endpoint does.
func TestScriptedModelPlaysThroughTheRuntime(t *testing.T) {
	m := newScriptedModel(reply(sReasoning("hm"), sText("Hello "), sText("there.")))
	s := newScripted(t, m)
	s.send("th-1", "hi")
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th-1")
	msgs := s.messages("th-1")
	if last := msgs[len(msgs)-1]; last.Content != "Hello there." || last.Reasoning != "hm" || m.Calls() != 1 {
		t.Fatalf("stored %+v after %d calls", last, m.Calls())
	}
	validateAGUI(t, s.sse("th-1"))
}

type modelRequest = model.Request

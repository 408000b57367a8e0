package agent_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/agui/aguitest"
	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/model/openai"
	"github.com/juncture-app/juncture/agent/tools"
	"github.com/juncture-app/juncture/store"
)

func TestMain(m *testing.M) {
	attach.MaybeRunExtractor() // this binary parses PDFs and images in a child
	goleak.VerifyTestMain(m)
}

// rtStore is the runtime's view of the real SQLite store.
type rtStore struct {
	*store.DB
	cp *store.Checkpointer
}

func (s rtStore) Checkpoint(m history.Message) { s.cp.Update(m) }
func (s rtStore) PutMessage(ctx context.Context, m history.Message) error {
	return s.cp.Commit(ctx, m)
}

// harness is a runtime on a real SQLite file and the fake streaming server,
// with test tools next to the built-ins.
type harness struct {
	t      testing.TB
	srv    *fakellm.Server
	db     *store.DB
	rt     *agent.Runtime
	sub    *broker.Subscription
	ws     string
	tools  *tools.Registry
	mu     sync.Mutex
	events []broker.Envelope
	// slowStarted is signalled when a slow test tool starts.
	slowStarted chan string
	slowRuns    map[string]int
	// base is the runtime's options before the test's adjustments
	// (rebuild starts from it).
	base agent.Options
}

type harnessOpt func(*agent.Options)

func newHarness(t testing.TB, opts ...harnessOpt) *harness {
	t.Helper()
	h := &harness{t: t, srv: fakellm.Start(t), ws: t.TempDir(), slowStarted: make(chan string, 16), slowRuns: map[string]int{}}
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "juncture.db"))
	if err != nil {
		t.Fatal(err)
	}
	h.db = db
	cp := db.NewCheckpointer(20 * time.Millisecond)
	ts := append(tools.Builtins(tools.Workspace{Root: h.ws}, tools.BuiltinOptions{EnableWriteTools: true, KillGrace: 200 * time.Millisecond}), h.testTools()...)
	reg, err := tools.NewRegistry(ts...)
	if err != nil {
		t.Fatal(err)
	}
	h.tools = reg
	client := openai.New(openai.Config{BaseURL: h.srv.URL, Model: "fake-model"})
	o := agent.Options{
		Store:       rtStore{DB: db, cp: cp},
		Model:       func(context.Context, string) (agent.Model, error) { return client, nil },
		Tools:       func(context.Context, string) *tools.Registry { return reg },
		BackoffBase: 10 * time.Millisecond,
	}
	h.base = o
	for _, f := range opts {
		f(&o)
	}
	h.rt = agent.New(o)
	h.sub = h.rt.Subscribe("")
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := h.rt.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := cp.Close(); err != nil {
			t.Errorf("closing the checkpointer: %v", err)
		}
		if err := db.Close(); err != nil {
			t.Errorf("closing the store: %v", err)
		}
	})
	return h
}

// testTools are a slow MustComplete tool and a slow Abortable tool.
func (h *harness) testTools() []tools.Tool {
	schema := json.RawMessage(`{"type":"object","properties":{"ms":{"type":"integer"}},"additionalProperties":false}`)
	slow := func(abortable bool) func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
		return func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
			var a struct{ Ms int }
			_ = json.Unmarshal(args, &a)
			h.mu.Lock()
			name := "slow_finish"
			if abortable {
				name = "slow_abortable"
			}
			h.slowRuns[name]++
			h.mu.Unlock()
			h.slowStarted <- name
			select {
			case <-time.After(time.Duration(a.Ms) * time.Millisecond):
				return tools.Result{Content: "finished after " + time.Duration(a.Ms*int(time.Millisecond)).String()}, nil
			case <-ctx.Done():
				return tools.Result{Content: history.ResultInterruptedMidRun, IsError: true}, nil
			}
		}
	}
	return []tools.Tool{
		{Name: "slow_finish", Description: "waits, cannot be aborted", Schema: schema, OnStop: tools.MustComplete, Run: slow(false)},
		{Name: "slow_abortable", Description: "waits, can be aborted", Schema: schema, OnStop: tools.Abortable, Run: slow(true)},
	}
}

// next returns the next envelope of the thread, failing after d.
func (h *harness) next(d time.Duration) broker.Envelope {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return h.nextBy(ctx)
}

// nextBy returns the next envelope of the thread, failing once ctx ends.
func (h *harness) nextBy(ctx context.Context) broker.Envelope {
	h.t.Helper()
	env, err := h.sub.Next(ctx)
	if err != nil {
		h.t.Fatalf("waiting for an event: %v (seen %d)", err, len(h.events))
	}
	h.events = append(h.events, env)
	return env
}

// isTerminal reports whether env is a run's RUN_FINISHED or RUN_ERROR.
func isTerminal(env broker.Envelope) bool {
	if env.Name != broker.EnvelopeAGUI {
		return false
	}
	typ := env.Event.EventType()
	return typ == agui.TypeRunFinished || typ == agui.TypeRunError
}

// until reads events until one of type typ arrives and returns it.
func (h *harness) until(typ string) agui.Event {
	h.t.Helper()
	for {
		env := h.next(10 * time.Second)
		if env.Name == broker.EnvelopeAGUI && env.Event.EventType() == typ {
			return env.Event
		}
	}
}

// untilDelta reads events until a text delta of exactly text arrives.
func (h *harness) untilDelta(text string) {
	h.t.Helper()
	for {
		if tc, ok := h.until(agui.TypeTextMessageContent).(*agui.TextMessageContent); ok && tc.Delta == text {
			return
		}
	}
}

// terminal reads until the run's RUN_FINISHED or RUN_ERROR.
func (h *harness) terminal() agui.Event {
	h.t.Helper()
	return h.terminalWithin(10 * time.Second)
}

// terminalWithin is terminal with a longer wait between two events, for a
// turn that runs an extractor child (a race-built child decodes slowly).
func (h *harness) terminalWithin(gap time.Duration) agui.Event {
	h.t.Helper()
	for {
		if env := h.next(gap); isTerminal(env) {
			return env.Event
		}
	}
}

// untilDeadline is a context that ends shortly before the test binary's
// -timeout: a guard against a hang for waits whose length grows with the
// work (a 100k-token message is indexed at the end of its run), where a
// fixed wall-clock bound fails on a loaded machine while nothing is wrong.
func untilDeadline(t testing.TB) (context.Context, context.CancelFunc) {
	type deadliner interface{ Deadline() (time.Time, bool) }
	if d, ok := t.(deadliner); ok {
		if at, ok := d.Deadline(); ok {
			return context.WithDeadline(context.Background(), at.Add(-5*time.Second))
		}
	}
	return context.WithTimeout(context.Background(), 5*time.Minute)
}

// terminalBy reads until the run's RUN_FINISHED or RUN_ERROR, however long
// the events take, until ctx ends.
func (h *harness) terminalBy(ctx context.Context) agui.Event {
	h.t.Helper()
	for {
		if env := h.nextBy(ctx); isTerminal(env) {
			return env.Event
		}
	}
}

// idleBy waits until the thread has no running turn, until ctx ends.
func (h *harness) idleBy(ctx context.Context, threadID string) {
	h.t.Helper()
	for {
		if running, _ := h.rt.Running(threadID); !running {
			return
		}
		select {
		case <-ctx.Done():
			h.t.Fatalf("thread %s still running: %v", threadID, ctx.Err())
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// idle waits until the thread has no running turn (its state is saved).
func (h *harness) idle(threadID string) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h.idleBy(ctx, threadID)
}

func (h *harness) send(threadID, text string) {
	h.t.Helper()
	if _, err := h.rt.SendInput(context.Background(), threadID, text); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) messages(threadID string) []history.Message {
	h.t.Helper()
	msgs, err := h.db.Messages(context.Background(), threadID)
	if err != nil {
		h.t.Fatal(err)
	}
	return msgs
}

// assertValidHistory checks what the next model request would carry.
func (h *harness) assertValidHistory(threadID string) {
	h.t.Helper()
	assertValid(h.t, h.messages(threadID))
}

func assertValid(t testing.TB, msgs []history.Message) {
	t.Helper()
	out, _ := history.ForModel(msgs)
	open := map[string]bool{}
	for _, m := range out {
		switch m.Role {
		case history.RoleAssistant:
			if len(open) > 0 {
				t.Fatalf("assistant message %s follows unanswered tool calls %v", m.ID, open)
			}
			for _, c := range m.ToolCalls {
				if !json.Valid([]byte(c.Arguments)) {
					t.Fatalf("tool call %s has invalid arguments %q", c.ID, c.Arguments)
				}
				open[c.ID] = true
			}
		case history.RoleTool:
			if !open[m.ToolCallID] {
				t.Fatalf("tool result for %s answers no open call", m.ToolCallID)
			}
			delete(open, m.ToolCallID)
		default:
			if len(open) > 0 {
				t.Fatalf("%s message follows unanswered tool calls %v", m.Role, open)
			}
		}
	}
	if len(open) > 0 {
		t.Fatalf("tool calls without results: %v", open)
	}
}

// sse renders the recorded events of the thread as an AG-UI SSE stream.
func (h *harness) sse(threadID string) []byte {
	var out []byte
	for _, env := range h.events {
		if env.Name != broker.EnvelopeAGUI || env.ThreadID != threadID {
			continue
		}
		b, err := json.Marshal(env.Event)
		if err != nil {
			h.t.Fatal(err)
		}
		out = append(out, "data: "...)
		out = append(out, b...)
		out = append(out, "\n\n"...)
	}
	return out
}

func validateAGUI(t testing.TB, stream []byte) {
	t.Helper()
	aguitest.Validate(t, stream)
}

// resumeRun is the old Resume over Answer: a complete batch of resume
// entries for the paused run parent, continued as runID ("" = generated).
func resumeRun(rt *agent.Runtime, ctx context.Context, threadID, parent string, entries []agui.ResumeEntry, runID string) error {
	ias := make([]agent.InterruptAnswer, 0, len(entries))
	for _, e := range entries {
		ias = append(ias, agent.InterruptAnswer{ResumeEntry: e})
	}
	_, err := rt.Answer(ctx, threadID, agent.Answers{ParentRunID: parent, RunID: runID, Interrupts: ias, Complete: true})
	return err
}

// completeClient is the old CompleteClientTools over Answer: it returns
// the items still waiting (empty once the continuation started).
func completeClient(rt *agent.Runtime, ctx context.Context, threadID string, results []agent.ClientToolResult, runID string) ([]string, error) {
	out, err := rt.Answer(ctx, threadID, agent.Answers{RunID: runID, ClientResults: results})
	return out.Waiting, err
}

// rebuild replaces the runtime (same store, a fresh runtime) with the
// base options adjusted by opts, and subscribes again.
func (h *harness) rebuild(opts ...harnessOpt) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := h.rt.Shutdown(ctx); err != nil {
		h.t.Fatal(err)
	}
	o := h.base
	for _, f := range opts {
		f(&o)
	}
	h.rt = agent.New(o)
	h.sub = h.rt.Subscribe("")
	h.events = nil
}

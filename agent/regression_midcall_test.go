package agent_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
)

// Regressions of issue 20's mid-call questions (a parked call of an older
// MCP server, the asker tool here).

// raceStore runs a hook inside chosen store calls, to put Stop exactly
// where a race would.
type raceStore struct {
	agent.Store
	onLatestRun     func()
	onPutInterrupts func()
}

func (s raceStore) LatestRun(ctx context.Context, threadID string) (history.Run, error) {
	if s.onLatestRun != nil {
		s.onLatestRun()
	}
	return s.Store.LatestRun(ctx, threadID)
}

func (s raceStore) PutInterrupts(ctx context.Context, its []history.Interrupt) error {
	err := s.Store.PutInterrupts(ctx, its)
	if s.onPutInterrupts != nil {
		s.onPutInterrupts()
	}
	return err
}

func newHookedAskerHarness(t *testing.T, a *asker, hook func(*raceStore), replies ...sreply) (*harness, *scriptedModel) {
	t.Helper()
	m := newScriptedModel(replies...)
	reg, err := tools.NewRegistry(a.tool())
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, func(o *agent.Options) {
		rs := &raceStore{Store: o.Store}
		hook(rs)
		o.Store = *rs
		o.Model = func(context.Context, string) (agent.Model, error) { return m, nil }
		o.Tools = func(context.Context, string) *tools.Registry { return reg }
	})
	return h, m
}

// Bug 1: the person answers a server's question and presses Stop before
// the continuation reaches the call (an /agui client that disconnects
// right after resuming does the same). The call's stored result was ""
// (an empty success for the model) and the call stayed parked with its
// request open, catching the server's later questions.
func TestMidCallAnswerThenStopGivesTheCallItsResult(t *testing.T) {
	t.Parallel()
	a := &asker{}
	var armed atomic.Bool
	var rt atomic.Pointer[agent.Runtime]
	h, m := newHookedAskerHarness(t, a, func(s *raceStore) {
		s.onLatestRun = func() {
			if armed.CompareAndSwap(true, false) {
				rt.Load().Interrupt("th-1") // Stop, as the continuation starts
			}
		}
	}, reply(sCall(0, "call-1", "asker", `{}`)), reply(sText("unused")))
	rt.Store(h.rt)
	rf, it := pausedOn(t, h, "th-1")
	h.idle("th-1")
	armed.Store(true)
	if err := answerOne(t, h, "th-1", rf.RunID, agui.ResumeEntry{InterruptID: it.ID, Status: "resolved", Payload: json.RawMessage(`{"name":"Ada"}`)}); err != nil {
		t.Fatal(err)
	}
	finished(t, h.terminal(), agui.OutcomeCancelled)
	h.idle("th-1")
	res := storedResult(t, h, "th-1", "call-1")
	if res.Content == "" || !res.IsError || res.ToolState != string(contract.ToolInterruptedMidRn) {
		t.Fatalf("result %+v", res)
	}
	// The call is not left parked: it sees its question cancelled.
	waitFor(t, func() bool { _, c := a.got(); return c == 1 }, "the call to be cancelled")
	if m.Calls() != 1 || len(h.waitingRuns("th-1")) != 0 {
		t.Fatalf("model calls %d, waiting %v", m.Calls(), h.waitingRuns("th-1"))
	}
	h.assertValidHistory("th-1")
}

// Bug 2: Stop while the question is being saved. The card stayed pending
// for a call that went on to its result, the model could be called again
// after Stop, and a goroutine leaked (Shutdown hung for its timeout).
// The hook stops the run right after the question is stored; the race
// detector watches the rest.
func TestMidCallStopWhileTheQuestionIsSaved(t *testing.T) {
	t.Parallel()
	a := &asker{}
	var rt atomic.Pointer[agent.Runtime]
	h, m := newHookedAskerHarness(t, a, func(s *raceStore) {
		s.onPutInterrupts = func() { rt.Load().Interrupt("th-1") }
	}, reply(sCall(0, "call-1", "asker", `{}`)), reply(sText("never")))
	rt.Store(h.rt)
	h.send("th-1", "go")
	finished(t, h.terminal(), agui.OutcomeCancelled)
	h.idle("th-1")
	res := storedResult(t, h, "th-1", "call-1")
	if !res.IsError || res.ToolState != string(contract.ToolInterruptedMidRn) {
		t.Fatalf("result %+v", res)
	}
	if n := len(h.waitingRuns("th-1")); n != 0 {
		t.Fatalf("%d items still wait", n)
	}
	waitFor(t, func() bool { _, c := a.got(); return c == 1 }, "the call to be cancelled")
	if m.Calls() != 1 {
		t.Fatalf("model calls %d after Stop", m.Calls())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := h.rt.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	h.assertValidHistory("th-1")
}

// Bug 3: Delete all history (StopAllAndWait) while a question waits: the
// parked call was never cancelled, and the server's next question went
// to it.
func TestStopAllCancelsAParkedCall(t *testing.T) {
	t.Parallel()
	a := &asker{}
	h, _ := newAskerHarness(t, a, reply(sCall(0, "call-1", "asker", `{}`)))
	pausedOn(t, h, "th-1")
	h.idle("th-1")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := h.rt.StopAllAndWait(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { _, c := a.got(); return c == 1 }, "the parked call to be cancelled")
}

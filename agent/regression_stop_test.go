package agent_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
)

// Regression tests: Stop. Each names the bug it guards against.

// Bug 5: Stop during tool execution left a client call of the same answer
// pending (and a continuation could call the model). Nothing waits after
// Stop, and no model call follows.
func TestStopDuringToolsLeavesNoClientCallPending(t *testing.T) {
	for _, slow := range []string{"slow_finish", "slow_abortable"} {
		t.Run(slow, func(t *testing.T) {
			m := newScriptedModel(reply(
				sCall(0, "call-s", slow, `{"ms":300}`),
				sCall(1, "call-c", "copy_to_clipboard", `{"text":"x"}`),
				sCall(2, "call-g", "gated_echo", `{"text":"g"}`)))
			m.fallback = func(int, modelRequest) sreply { return reply(sText("should not be asked")) }
			s := newScripted(t, m)
			s.allow("copy_to_clipboard")
			s.send("th-1", "go")
			<-s.slowStarted
			s.rt.Interrupt("th-1")
			finished(t, s.terminal(), agui.OutcomeCancelled)
			s.idle("th-1")
			if runs := s.waitingRuns("th-1"); len(runs) != 0 {
				t.Fatalf("waiting after Stop: %v", runs)
			}
			msgs := s.messages("th-1")
			for _, id := range []string{"call-c", "call-g"} {
				if r := toolResultFor(t, msgs, id); r.Content != history.ResultInterrupted {
					t.Fatalf("%s result %q", id, r.Content)
				}
			}
			if _, err := s.rt.Answer(context.Background(), "th-1", agent.Answers{ClientResults: clientResults([]string{"call-c"}, "copied")}); !errors.Is(err, agent.ErrNoClientCall) {
				t.Fatalf("completing after Stop: %v", err)
			}
			time.Sleep(50 * time.Millisecond)
			if running, _ := s.rt.Running("th-1"); running || m.Calls() != 1 || len(s.gatedRuns()) != 0 {
				t.Fatalf("after Stop: running=%v, %d model calls, gated %v", running, m.Calls(), s.gatedRuns())
			}
			s.assertValidHistory("th-1")
			validateAGUI(t, s.sse("th-1"))
		})
	}
}

// Bug 8: Stop on a paused thread racing a concurrent approval vanished
// (the approval's continuation ran on). Either Stop wins (the tool never
// runs, no model call) or the approval's continuation is stopped.
func TestStopRacingApprovalNeverVanishes(t *testing.T) {
	m := newScriptedModel()
	s := newScripted(t, m)
	ctx := context.Background()
	wins := map[bool]int{}
	for i := 0; i < 30; i++ {
		tid := fmt.Sprintf("stop-%d", i)
		sub := s.rt.Subscribe(tid)
		// The continuation's model call, if it comes, streams until stopped.
		m.Enqueue(reply(sCall(0, "", "gated_echo", `{"text":"g"}`)), reply(sText("partial"), sBlock()))
		s.send(tid, "go")
		rf := finished(t, nextTerminal(t, sub), agui.OutcomeInterrupt)
		s.idle(tid)
		it := rf.Outcome.Interrupts[0]
		calls, gated := m.Calls(), len(s.gatedRuns())
		var wg sync.WaitGroup
		var answerErr error
		start := make(chan struct{})
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-start
			_, answerErr = s.rt.Answer(ctx, tid, agent.Answers{ParentRunID: rf.RunID, RunID: "cont-" + tid,
				Interrupts: []agent.InterruptAnswer{{ResumeEntry: entry(it.ID, "resolved", "true")}}, Complete: true})
		}()
		go func() {
			defer wg.Done()
			<-start
			s.rt.Interrupt(tid)
		}()
		close(start)
		wg.Wait()
		s.idle(tid)
		answered := answerErr == nil
		wins[answered]++
		var refused *agent.RefusedError
		if !answered && !errors.Is(answerErr, agent.ErrBusy) && !errors.Is(answerErr, agent.ErrTooLate) && !errors.As(answerErr, &refused) {
			t.Fatalf("approval: %v", answerErr)
		}
		if runs := s.waitingRuns(tid); len(runs) != 0 {
			t.Fatalf("still waiting: %v", runs)
		}
		latest, err := s.db.LatestRun(ctx, tid)
		if err != nil || latest.Status != history.RunCancelled {
			t.Fatalf("approval won=%v: the last run %+v %v, want cancelled (Stop vanished)", answered, latest, err)
		}
		if answered {
			if latest.ID != "cont-"+tid {
				t.Fatalf("the continuation %s was not the stopped run %s", "cont-"+tid, latest.ID)
			}
			if n := m.Calls() - calls; n > 1 {
				t.Fatalf("%d model calls after the approval", n)
			}
			for _, e := range m.Ended()[calls:] {
				if !errors.Is(e, context.Canceled) {
					t.Fatalf("the continuation's model call ended %v, want stopped", e)
				}
			}
		} else {
			if m.Calls() != calls || len(s.gatedRuns()) != gated {
				t.Fatalf("Stop won, yet %d model calls and %d runs followed", m.Calls()-calls, len(s.gatedRuns())-gated)
			}
			if r := toolResultFor(t, s.messages(tid), it.ToolCallID); r.Content != history.ResultInterrupted {
				t.Fatalf("result %q", r.Content)
			}
		}
		// An unused continuation reply must not answer the next thread.
		m.mu.Lock()
		m.replies = nil
		m.mu.Unlock()
		sub.Close()
		s.assertValidHistory(tid)
	}
	t.Logf("approval first %d times, Stop first %d times", wins[true], wins[false])
}

// hookStore calls afterClient once a client call is recorded pending.
type hookStore struct {
	agent.Store
	afterClient func(history.ClientToolCall)
}

func (s hookStore) PutClientToolCall(ctx context.Context, c history.ClientToolCall) error {
	err := s.Store.PutClientToolCall(ctx, c)
	if err == nil && s.afterClient != nil {
		s.afterClient(c)
	}
	return err
}

// Bug 5, the hand-off edge: Stop right after a call was handed to the
// window (before the walk reached the next call) left that call pending,
// without a result, behind a cancelled run.
func TestStopRightAfterAHandOffLeavesNothingPending(t *testing.T) {
	m := newScriptedModel(reply(
		sCall(0, "call-c", "copy_to_clipboard", `{"text":"x"}`),
		sCall(1, "call-l", "list_files", `{}`)))
	var s *scripted
	s = newScripted(t, m, func(o *agent.Options) {
		o.Store = hookStore{Store: o.Store, afterClient: func(c history.ClientToolCall) { s.rt.Interrupt(c.ThreadID) }}
	})
	s.allow("copy_to_clipboard")
	s.send("th-1", "go")
	finished(t, s.terminal(), agui.OutcomeCancelled)
	s.idle("th-1")
	if runs := s.waitingRuns("th-1"); len(runs) != 0 {
		t.Fatalf("waiting after Stop: %v", runs)
	}
	msgs := s.messages("th-1")
	for _, id := range []string{"call-c", "call-l"} {
		if r := toolResultFor(t, msgs, id); r.Content != history.ResultInterrupted {
			t.Fatalf("%s result %q", id, r.Content)
		}
	}
	if m.Calls() != 1 {
		t.Fatalf("%d model calls", m.Calls())
	}
	s.assertValidHistory("th-1")
	validateAGUI(t, s.sse("th-1"))
}

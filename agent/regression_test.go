package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
)

// Regression tests for the run protocol the runtime owns. Each names the
// bug it guards against.

// slowTitles keeps every thread's title, after a delay.
type slowTitles struct{ delay time.Duration }

func (s slowTitles) Thread(ctx context.Context, id string) (history.Thread, error) {
	time.Sleep(s.delay)
	return history.Thread{ID: id, Title: "kept"}, nil
}

func (slowTitles) RenameThread(context.Context, string, string) error { return nil }

func clientResults(ids []string, content string) []agent.ClientToolResult {
	out := make([]agent.ClientToolResult, 0, len(ids))
	for _, id := range ids {
		out = append(out, agent.ClientToolResult{ToolCallID: id, Content: content})
	}
	return out
}

// Bug 1: RUN_FINISHED went out before the run's last writes, so a client
// reacting to it at once (completing its client tools, starting a new
// run) got ErrBusy, and could read a store that still showed the run
// running. The terminal event is the last thing a run does.
func TestTerminalEventIsLastWrite(t *testing.T) {
	m := newScriptedModel()
	// The after-run work (naming the thread) takes a while: a caller
	// reacting to the terminal event meanwhile must still get through.
	s := newScripted(t, m, func(o *agent.Options) { o.Titles = slowTitles{delay: 20 * time.Millisecond} })
	s.allow("copy_to_clipboard")
	ctx := context.Background()
	for i := 0; i < 25; i++ {
		tid := fmt.Sprintf("th-%d", i)
		sub := s.rt.Subscribe(tid)
		m.Enqueue(reply(sCall(0, "", "copy_to_clipboard", `{"text":"x"}`)), reply(sText("Copied.")), reply(sText("Next.")))
		s.send(tid, "copy")
		rf := finished(t, nextTerminal(t, sub), agui.OutcomeSuccess)
		// Everything the run wrote is saved when its terminal event is out.
		run, err := s.db.Run(ctx, rf.RunID)
		if err != nil || run.Status != history.RunFinished || run.FinishedAt == 0 || run.Steps != 1 {
			t.Fatalf("run at RUN_FINISHED: %+v %v", run, err)
		}
		pend, err := s.db.PendingClientToolCalls(ctx, tid)
		if err != nil || len(pend) != 1 || len(rf.Outcome.PendingToolCallIDs) != 1 || pend[0].ToolCallID != rf.Outcome.PendingToolCallIDs[0] {
			t.Fatalf("pending at RUN_FINISHED: %+v %v (outcome %+v)", pend, err, rf.Outcome)
		}
		// Completing right away continues (never ErrBusy).
		out, err := s.rt.Answer(ctx, tid, agent.Answers{ClientResults: clientResults(rf.Outcome.PendingToolCallIDs, "copied")})
		if err != nil || !out.Continued {
			t.Fatalf("iteration %d: completing right after RUN_FINISHED: %+v %v", i, out, err)
		}
		rf2 := finished(t, nextTerminal(t, sub), agui.OutcomeSuccess)
		if rf2.RunID != out.RunID {
			t.Fatalf("continuation %s finished %s", out.RunID, rf2.RunID)
		}
		if run, err := s.db.Run(ctx, rf2.RunID); err != nil || run.Status != history.RunFinished {
			t.Fatalf("continuation at RUN_FINISHED: %+v %v", run, err)
		}
		msgs := s.messages(tid)
		if last := msgs[len(msgs)-1]; last.Content != "Copied." || last.Status != history.StatusComplete {
			t.Fatalf("last message at RUN_FINISHED %+v", last)
		}
		// A new run right away starts now (never ErrBusy).
		if err := s.rt.StartExclusive(ctx, agent.Input{ThreadID: tid, Text: "next"}); err != nil {
			t.Fatalf("iteration %d: a new run right after RUN_FINISHED: %v", i, err)
		}
		finished(t, nextTerminal(t, sub), agui.OutcomeSuccess)
		sub.Close()
		s.idle(tid)
		s.assertValidHistory(tid)
	}
}

// Bug 2: completing a client tool while an approval of the same run still
// waited started the model. A run continues only once every item it
// waits on is answered, and the items of two runs never wait at once.
func TestContinuationWaitsForEveryItemOfTheRun(t *testing.T) {
	ctx := context.Background()
	oneRun := func(s *scripted, tid string) {
		t.Helper()
		if runs := s.waitingRuns(tid); len(runs) > 1 {
			t.Fatalf("items of %d runs wait at once: %v", len(runs), runs)
		}
	}
	t.Run("client then approval", func(t *testing.T) {
		m := newScriptedModel(reply(
			sCall(0, "call-c", "copy_to_clipboard", `{"text":"x"}`),
			sCall(1, "call-g", "gated_echo", `{"text":"g"}`)))
		s := newScripted(t, m)
		s.allow("copy_to_clipboard")
		s.send("th-1", "go")
		rf := finished(t, s.terminal(), agui.OutcomeSuccess)
		if strings.Join(rf.Outcome.PendingToolCallIDs, ",") != "call-c" {
			t.Fatalf("outcome %+v", rf.Outcome)
		}
		s.idle("th-1")
		oneRun(s, "th-1")
		out, err := s.rt.Answer(ctx, "th-1", agent.Answers{ClientResults: clientResults([]string{"call-c"}, "copied")})
		if err != nil || !out.Continued {
			t.Fatalf("answer %+v %v", out, err)
		}
		rf2 := finished(t, s.terminal(), agui.OutcomeInterrupt)
		s.idle("th-1")
		if len(rf2.Outcome.Interrupts) != 1 || rf2.Outcome.Interrupts[0].ID != "approval_call-g" {
			t.Fatalf("interrupts %+v", rf2.Outcome.Interrupts)
		}
		if m.Calls() != 1 || len(s.gatedRuns()) != 0 {
			t.Fatalf("the model was called (%d) or the gated tool ran (%v) before the approval", m.Calls(), s.gatedRuns())
		}
		oneRun(s, "th-1")
		m.Enqueue(reply(sText("Done.")))
		if err := resumeRun(s.rt, ctx, "th-1", rf2.RunID, []agui.ResumeEntry{entry("approval_call-g", "resolved", "true")}, ""); err != nil {
			t.Fatal(err)
		}
		finished(t, s.terminal(), agui.OutcomeSuccess)
		s.idle("th-1")
		if m.Calls() != 2 || len(s.gatedRuns()) != 1 {
			t.Fatalf("%d model calls, gated %v", m.Calls(), s.gatedRuns())
		}
		s.assertValidHistory("th-1")
	})
	t.Run("approval, client approval, then a plain call", func(t *testing.T) {
		m := newScriptedModel(reply(
			sCall(0, "call-g", "gated_echo", `{"text":"g"}`),
			sCall(1, "call-c", "copy_to_clipboard", `{"text":"x"}`),
			sCall(2, "call-l", "list_files", `{}`)))
		s := newScripted(t, m)
		s.send("th-1", "go")
		rf := finished(t, s.terminal(), agui.OutcomeInterrupt)
		s.idle("th-1")
		var ids []string
		for _, it := range rf.Outcome.Interrupts {
			ids = append(ids, it.ID)
		}
		if strings.Join(ids, ",") != "approval_call-g,approval_call-c" {
			t.Fatalf("interrupts %v", ids)
		}
		if _, err := s.db.ToolExecution(ctx, "th-1", "call-l"); err == nil {
			t.Fatal("the call after the approvals ran before they were answered")
		}
		// A partial answer is kept; nothing runs.
		out, err := s.rt.Answer(ctx, "th-1", agent.Answers{ParentRunID: rf.RunID, Interrupts: []agent.InterruptAnswer{{ResumeEntry: entry("approval_call-g", "resolved", "true")}}})
		if err != nil || out.Continued || strings.Join(out.Waiting, ",") != "approval_call-c" {
			t.Fatalf("partial answer %+v %v", out, err)
		}
		if running, _ := s.rt.Running("th-1"); running || m.Calls() != 1 || len(s.gatedRuns()) != 0 {
			t.Fatal("a partial answer started something")
		}
		oneRun(s, "th-1")
		out, err = s.rt.Answer(ctx, "th-1", agent.Answers{ParentRunID: rf.RunID, Interrupts: []agent.InterruptAnswer{{ResumeEntry: entry("approval_call-c", "resolved", "true")}}})
		if err != nil || !out.Continued {
			t.Fatalf("last answer %+v %v", out, err)
		}
		rf2 := finished(t, s.terminal(), agui.OutcomeSuccess)
		s.idle("th-1")
		if strings.Join(rf2.Outcome.PendingToolCallIDs, ",") != "call-c" || len(s.gatedRuns()) != 1 || m.Calls() != 1 {
			t.Fatalf("outcome %+v gated %v calls %d", rf2.Outcome, s.gatedRuns(), m.Calls())
		}
		if _, err := s.db.ToolExecution(ctx, "th-1", "call-l"); err == nil {
			t.Fatal("the call after the window action ran before its result")
		}
		oneRun(s, "th-1")
		m.Enqueue(reply(sText("Done.")))
		if _, err := s.rt.Answer(ctx, "th-1", agent.Answers{ClientResults: clientResults([]string{"call-c"}, "copied")}); err != nil {
			t.Fatal(err)
		}
		finished(t, s.terminal(), agui.OutcomeSuccess)
		s.idle("th-1")
		if m.Calls() != 2 {
			t.Fatalf("%d model calls", m.Calls())
		}
		req := m.Requests()[1]
		got := map[string]string{}
		for _, msg := range req.Messages {
			if msg.Role == history.RoleTool {
				got[msg.ToolCallID] = msg.Content
			}
		}
		if got["call-g"] != "echo: g" || got["call-c"] != "copied" || got["call-l"] == "" {
			t.Fatalf("the model read %v", got)
		}
		s.assertValidHistory("th-1")
	})
}

// Bug 3: approving open_url with edited arguments handed the window the
// model's original arguments. The pending record and the pending-client
// event carry the edited ones (Edited set), and the model is told.
func TestEditedOpenURLArgumentsReachTheWindow(t *testing.T) {
	a := newQuestions(t)
	ctx := context.Background()
	rf := a.pause("th-1", "open it", fakellm.ToolCall(0, "call-u", "open_url", `{"url":"https://example.com/"}`))
	if err := a.resume("th-1", rf.RunID, entry("approval_call-u", "resolved", `{"approved":true,"editedArgs":{"url":"https://edited.example/"}}`)); err != nil {
		t.Fatal(err)
	}
	rf2 := a.finishedWith(agui.OutcomeSuccess)
	if strings.Join(rf2.Outcome.PendingToolCallIDs, ",") != "call-u" {
		t.Fatalf("outcome %+v", rf2.Outcome)
	}
	a.idle("th-1")
	const edited = `{"url":"https://edited.example/"}`
	pend, err := a.rt.PendingClientTools(ctx, "th-1")
	if err != nil || len(pend) != 1 || !jsonEqual(pend[0].Arguments, edited) {
		t.Fatalf("pending %+v %v", pend, err)
	}
	var ev *agent.ToolStateEvent
	for _, env := range a.events {
		if c, ok := env.Event.(*agui.Custom); ok && c.Name == agent.CustomToolState {
			var v agent.ToolStateEvent
			if err := json.Unmarshal(c.Value, &v); err != nil {
				t.Fatal(err)
			}
			if v.ToolCallID == "call-u" && v.State == agent.ToolPendingClient {
				ev = &v
			}
		}
	}
	if ev == nil || !ev.Edited || !jsonEqual(ev.Arguments, edited) || ev.ToolName != "open_url" {
		t.Fatalf("pending-client event %+v", ev)
	}
	a.srv.Enqueue(fakellm.Reply(fakellm.Text("Opened.")))
	if _, err := completeClient(a.rt, ctx, "th-1", []agent.ClientToolResult{{ToolCallID: "call-u", Content: "opened"}}, ""); err != nil {
		t.Fatal(err)
	}
	a.finishedWith(agui.OutcomeSuccess)
	a.idle("th-1")
	m := toolMessage(t, a.srv.Requests()[1], "call-u")
	if !strings.Contains(m.Content, "The person edited the arguments before approving") || !strings.Contains(m.Content, "edited.example") || !strings.HasSuffix(m.Content, "opened") {
		t.Fatalf("the model read %q", m.Content)
	}
	a.assertValidHistory("th-1")
	validateAGUI(t, a.sse("th-1"))
}

func jsonEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// Bug 4: an endpoint that numbers calls per response repeats ids
// ("functions.read_file:0") across turns and threads; the exactly-once
// record then replayed the first call's result for the second call. The
// second call really runs.
func TestEndpointCallIDsRepeatedAcrossTurnsRunAgain(t *testing.T) {
	h := newHarness(t)
	for name, text := range map[string]string{"a.txt": "alpha", "b.txt": "beta", "c.txt": "gamma"} {
		if err := os.WriteFile(filepath.Join(h.ws, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const id = "functions.read_file:0"
	turn := func(tid, file string) fakellm.Request {
		t.Helper()
		n := len(h.srv.Requests())
		h.srv.Enqueue(fakellm.Reply(fakellm.ToolCall(0, id, "read_file", `{"path":"`+file+`"}`)), fakellm.Reply(fakellm.Text("Read.")))
		h.send(tid, "read "+file)
		if got := outcome(t, h.terminal()); got != agui.OutcomeSuccess {
			t.Fatalf("outcome %s", got)
		}
		h.idle(tid)
		return h.srv.Requests()[n+1]
	}
	lastTool := func(req fakellm.Request) fakellm.RequestMessage {
		for i := len(req.Messages) - 1; i >= 0; i-- {
			if req.Messages[i].Role == "tool" {
				return req.Messages[i]
			}
		}
		t.Fatalf("no tool result in %+v", req.Messages)
		return fakellm.RequestMessage{}
	}
	first := lastTool(turn("th-1", "a.txt"))
	if first.ToolCallID != id || !strings.Contains(first.Content, "alpha") {
		t.Fatalf("first call: %+v", first)
	}
	second := lastTool(turn("th-1", "b.txt"))
	if second.ToolCallID == id || !strings.Contains(second.Content, "beta") || strings.Contains(second.Content, "alpha") {
		t.Fatalf("second call (a repeated id) read %+v", second)
	}
	// The same id in another thread is a first use there: it keeps its id
	// and runs.
	other := lastTool(turn("th-2", "c.txt"))
	if other.ToolCallID != id || !strings.Contains(other.Content, "gamma") {
		t.Fatalf("other thread: %+v", other)
	}
	h.assertValidHistory("th-1")
	h.assertValidHistory("th-2")
}

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

// Bug 6: the loop guard counted model calls per run, so a model looping
// on a client tool (each call a new continuation) was never asked about.
// It counts per turn across continuations; "keep going" counts afresh.
func TestLoopGuardCountsAcrossContinuations(t *testing.T) {
	m := newScriptedModel()
	m.fallback = func(n int, _ modelRequest) sreply {
		return reply(sCall(0, "", "copy_to_clipboard", fmt.Sprintf(`{"text":"%d"}`, n)))
	}
	s := newScripted(t, m, func(o *agent.Options) { o.LoopGuard = 3 })
	s.allow("copy_to_clipboard")
	ctx := context.Background()
	// loop completes the window's calls until the run pauses on a question.
	loop := func() *agui.RunFinished {
		t.Helper()
		for i := 0; i < 10; i++ {
			rf := s.terminal().(*agui.RunFinished)
			s.idle("th-1")
			if rf.Outcome.Type == agui.OutcomeInterrupt {
				return rf
			}
			if len(rf.Outcome.PendingToolCallIDs) != 1 {
				t.Fatalf("outcome %+v", rf.Outcome)
			}
			if _, err := s.rt.Answer(ctx, "th-1", agent.Answers{ClientResults: clientResults(rf.Outcome.PendingToolCallIDs, "copied")}); err != nil {
				t.Fatal(err)
			}
		}
		t.Fatalf("the loop guard never asked (%d model calls)", m.Calls())
		return nil
	}
	s.send("th-1", "loop")
	rf := loop()
	if it := rf.Outcome.Interrupts[0]; it.Reason != "loop_guard" || m.Calls() != 3 {
		t.Fatalf("asked %+v after %d model calls, want after 3", it, m.Calls())
	}
	// Keep going: three more model calls, then the guard asks again.
	if err := resumeRun(s.rt, ctx, "th-1", rf.RunID, []agui.ResumeEntry{entry(rf.Outcome.Interrupts[0].ID, "resolved", "true")}, ""); err != nil {
		t.Fatal(err)
	}
	rf = loop()
	if it := rf.Outcome.Interrupts[0]; it.Reason != "loop_guard" || m.Calls() != 6 {
		t.Fatalf("asked again %+v after %d model calls, want after 6", it, m.Calls())
	}
	if err := resumeRun(s.rt, ctx, "th-1", rf.RunID, []agui.ResumeEntry{entry(rf.Outcome.Interrupts[0].ID, "resolved", "false")}, ""); err != nil {
		t.Fatal(err)
	}
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th-1")
	msgs := s.messages("th-1")
	if last := msgs[len(msgs)-1]; last.Content != agent.LoopGuardNote || m.Calls() != 6 {
		t.Fatalf("stopped: %d calls, last %+v", m.Calls(), last)
	}
	s.assertValidHistory("th-1")
}

// Bug 7: a client-tool completion racing new input queued an extra
// answer (a continuation behind the input) or an empty queue entry.
// Either the completion continues first and the input queues behind it,
// or the input cancels the call and the completion is refused.
func TestClientCompletionRacingInputQueuesNothingExtra(t *testing.T) {
	m := newScriptedModel()
	m.fallback = func(int, modelRequest) sreply { return reply(sText("ok")) }
	s := newScripted(t, m)
	s.allow("copy_to_clipboard")
	ctx := context.Background()
	wins := map[bool]int{}
	for i := 0; i < 20; i++ {
		tid := fmt.Sprintf("race-%d", i)
		sub := s.rt.Subscribe(tid)
		m.Enqueue(reply(sCall(0, "", "copy_to_clipboard", `{"text":"x"}`)))
		s.send(tid, "copy")
		rf := finished(t, nextTerminal(t, sub), agui.OutcomeSuccess)
		s.idle(tid)
		before := m.Calls()
		var wg sync.WaitGroup
		var answerErr, inputErr error
		start := make(chan struct{})
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-start
			_, answerErr = s.rt.Answer(ctx, tid, agent.Answers{ClientResults: clientResults(rf.Outcome.PendingToolCallIDs, "copied")})
		}()
		go func() {
			defer wg.Done()
			<-start
			_, inputErr = s.rt.SendInput(ctx, tid, "new input")
		}()
		close(start)
		wg.Wait()
		if inputErr != nil {
			t.Fatal(inputErr)
		}
		answered := answerErr == nil
		if !answered && !errors.Is(answerErr, agent.ErrBusy) && !errors.Is(answerErr, agent.ErrTooLate) && !errors.Is(answerErr, agent.ErrNoClientCall) {
			t.Fatalf("completion: %v", answerErr)
		}
		wins[answered]++
		s.idle(tid)
		// Every queue the thread announced holds the input at most, never
		// an empty entry.
		for {
			cctx, cancel := context.WithTimeout(ctx, 5*time.Millisecond)
			env, err := sub.Next(cctx)
			cancel()
			if err != nil {
				break
			}
			if env.Name == agent.EnvelopeQueue && (len(env.Queued) > 1 || len(env.Queued) == 1 && env.Queued[0] != "new input") {
				t.Fatalf("queue %q", env.Queued)
			}
		}
		sub.Close()
		var users []string
		msgs := s.messages(tid)
		for _, msg := range msgs {
			if msg.Role == history.RoleUser {
				users = append(users, msg.Content)
			}
		}
		if strings.Join(users, "|") != "copy|new input" {
			t.Fatalf("person's messages %q", users)
		}
		want, result := 1, agent.ResultRepliedInChat // the input's model call
		if answered {
			want, result = 2, "copied" // the continuation's, then the input's
		}
		if got := m.Calls() - before; got != want {
			t.Fatalf("completion won=%v: %d model calls, want %d", answered, got, want)
		}
		if r := toolResultFor(t, msgs, rf.Outcome.PendingToolCallIDs[0]); r.Content != result {
			t.Fatalf("completion won=%v: result %q", answered, r.Content)
		}
		if q := s.rt.Queued(tid); len(q) != 0 || len(s.waitingRuns(tid)) != 0 {
			t.Fatalf("left queued %q, waiting %v", q, s.waitingRuns(tid))
		}
		s.assertValidHistory(tid)
	}
	t.Logf("completion first %d times, input first %d times", wins[true], wins[false])
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

// Bug 9: in [write_file (asks), read_file] the read ran before the person
// answered, reading the old content. Calls run in the model's order.
func TestReadAfterGatedWriteWaitsForTheAnswer(t *testing.T) {
	h := newHarness(t)
	path := filepath.Join(h.ws, "x.txt")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.srv.Enqueue(fakellm.Reply(
		fakellm.ToolCall(0, "call-w", "write_file", `{"path":"x.txt","content":"new"}`),
		fakellm.ToolCall(1, "call-r", "read_file", `{"path":"x.txt"}`)))
	h.send("th-1", "rewrite and read")
	rf, ok := h.terminal().(*agui.RunFinished)
	if !ok || rf.Outcome == nil || rf.Outcome.Type != agui.OutcomeInterrupt || len(rf.Outcome.Interrupts) != 1 || rf.Outcome.Interrupts[0].ID != "approval_call-w" {
		t.Fatalf("pause %+v", rf)
	}
	h.idle("th-1")
	for _, msg := range h.messages("th-1") {
		if msg.Role == history.RoleTool {
			t.Fatalf("a call ran before the answer: %+v", msg)
		}
	}
	for _, env := range h.events {
		if r, ok := env.Event.(*agui.ToolCallResult); ok {
			t.Fatalf("a result before the answer: %+v", r)
		}
	}
	h.srv.Enqueue(fakellm.Reply(fakellm.Text("Done.")))
	if err := resumeRun(h.rt, context.Background(), "th-1", rf.RunID, []agui.ResumeEntry{entry("approval_call-w", "resolved", "true")}, ""); err != nil {
		t.Fatal(err)
	}
	if got := outcome(t, h.terminal()); got != agui.OutcomeSuccess {
		t.Fatalf("outcome %s", got)
	}
	h.idle("th-1")
	var order []string
	for _, msg := range h.messages("th-1") {
		if msg.Role == history.RoleTool {
			order = append(order, msg.ToolCallID)
		}
	}
	if strings.Join(order, ",") != "call-w,call-r" {
		t.Fatalf("results in order %v", order)
	}
	if r := toolMessage(t, h.srv.Requests()[1], "call-r"); !strings.Contains(r.Content, "new") || strings.Contains(r.Content, "old") {
		t.Fatalf("the read saw %q", r.Content)
	}
	h.assertValidHistory("th-1")
	validateAGUI(t, h.sse("th-1"))
}

// Bug 10: a server that repeats the tool name (and id) in every chunk of
// a call produced "list_fileslist_files". The name is taken once.
func TestToolNameRepeatedInEveryChunkIsTakenOnce(t *testing.T) {
	check := func(t *testing.T, h *harness, reqTool func() string) {
		t.Helper()
		h.send("th-1", "list")
		if got := outcome(t, h.terminal()); got != agui.OutcomeSuccess {
			t.Fatalf("outcome %s", got)
		}
		h.idle("th-1")
		msgs := h.messages("th-1")
		var calls []history.ToolCall
		for _, msg := range msgs {
			calls = append(calls, msg.ToolCalls...)
		}
		if len(calls) != 1 || calls[0].Name != "list_files" || calls[0].ID != "call-1" || !jsonEqual(calls[0].Arguments, `{"path":"."}`) {
			t.Fatalf("calls %+v", calls)
		}
		if r := toolResultFor(t, msgs, "call-1"); r.IsError {
			t.Fatalf("the call failed: %q", r.Content)
		}
		for _, env := range h.events {
			if st, ok := env.Event.(*agui.ToolCallStart); ok && st.ToolCallName != "list_files" {
				t.Fatalf("TOOL_CALL_START %+v", st)
			}
		}
		if got := reqTool(); got != "list_files" {
			t.Fatalf("the model was sent the call as %q", got)
		}
		h.assertValidHistory("th-1")
		validateAGUI(t, h.sse("th-1"))
	}
	t.Run("over HTTP", func(t *testing.T) {
		h := newHarness(t)
		h.srv.Enqueue(fakellm.Reply(
			fakellm.ToolCall(0, "call-1", "list_files", `{"pa`),
			fakellm.ToolCall(0, "call-1", "list_files", `th":`),
			fakellm.ToolCall(0, "call-1", "list_files", `"."}`)),
			fakellm.Reply(fakellm.Text("Listed.")))
		check(t, h, func() string {
			for _, msg := range h.srv.Requests()[1].Messages {
				for _, c := range msg.ToolCalls {
					return c.Name
				}
			}
			return ""
		})
	})
	t.Run("scripted", func(t *testing.T) {
		m := newScriptedModel(reply(
			sCall(0, "call-1", "list_files", `{"pa`),
			sCall(0, "call-1", "list_files", `th":`),
			sCall(0, "call-1", "list_files", `"."}`)),
			reply(sText("Listed.")))
		s := newScripted(t, m)
		check(t, s.harness, func() string {
			for _, msg := range m.Requests()[1].Messages {
				for _, c := range msg.ToolCalls {
					return c.Name
				}
			}
			return ""
		})
	})
}

// Bug 11: new input and Stop cancelled unbound interrupts (written by
// someone else); they stay pending and listed until their owner settles
// them.
func TestUnboundInterruptsSurviveInputAndStop(t *testing.T) {
	m := newScriptedModel()
	s := newScripted(t, m)
	ctx := context.Background()
	m.Enqueue(reply(sText("Hello.")))
	s.send("th-1", "hi")
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th-1")
	desc := `{"id":"foreign-1","reason":"confirm","message":"No binding"}`
	if err := s.db.PutInterrupts(ctx, []history.Interrupt{{ID: "foreign-1", ThreadID: "th-1", RunID: "run-x",
		Kind: history.KindGeneric, Descriptor: json.RawMessage(desc), Status: history.InterruptPending, CreatedAt: 1}}); err != nil {
		t.Fatal(err)
	}
	unboundLeft := func(when string) {
		t.Helper()
		its, err := s.db.PendingInterrupts(ctx, "th-1")
		if err != nil {
			t.Fatal(err)
		}
		if len(its) != 1 || its[0].ID != "foreign-1" || its[0].Status != history.InterruptPending {
			t.Fatalf("%s: pending %+v", when, its)
		}
		items, err := s.rt.PendingItems(ctx, "th-1")
		if err != nil || len(items) != 1 || items[0].Kind != "unbound" {
			t.Fatalf("%s: items %+v %v", when, items, err)
		}
	}
	// Stop with only the unbound item waiting: no run at all.
	s.rt.Interrupt("th-1")
	if running, _ := s.rt.Running("th-1"); running {
		t.Fatal("Stop started a run for an unbound item")
	}
	unboundLeft("after Stop while idle")

	// New input cancels the thread's own approval, not the unbound item.
	m.Enqueue(reply(sCall(0, "call-1", "gated_echo", `{"text":"a"}`)))
	s.send("th-1", "echo")
	rf := finished(t, s.terminal(), agui.OutcomeInterrupt)
	s.idle("th-1")
	if len(rf.Outcome.Interrupts) != 1 || rf.Outcome.Interrupts[0].ID != "approval_call-1" {
		t.Fatalf("interrupts %+v", rf.Outcome.Interrupts)
	}
	m.Enqueue(reply(sText("OK.")))
	s.send("th-1", "never mind")
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th-1")
	if r := toolResultFor(t, s.messages("th-1"), "call-1"); r.Content != agent.ResultRepliedInChat {
		t.Fatalf("result %q", r.Content)
	}
	unboundLeft("after new input")

	// Stop cancels the thread's own approval, not the unbound item.
	m.Enqueue(reply(sCall(0, "call-2", "gated_echo", `{"text":"b"}`)))
	s.send("th-1", "echo again")
	finished(t, s.terminal(), agui.OutcomeInterrupt)
	s.idle("th-1")
	s.rt.Interrupt("th-1")
	finished(t, s.terminal(), agui.OutcomeCancelled)
	s.idle("th-1")
	if r := toolResultFor(t, s.messages("th-1"), "call-2"); r.Content != history.ResultInterrupted {
		t.Fatalf("result %q", r.Content)
	}
	unboundLeft("after Stop")
	if len(s.gatedRuns()) != 0 {
		t.Fatalf("gated ran %v", s.gatedRuns())
	}
	s.assertValidHistory("th-1")
}

// Bug 12: after a reload, denied calls and dismissed questions showed as
// failed (their result is an error). The stored state is what shows.
func TestToolStatesAfterReload(t *testing.T) {
	m := newScriptedModel(reply(
		sCall(0, "call-d", "gated_echo", `{"text":"deny me"}`),
		sCall(1, "call-q", "ask_user", `{"question":"Name?"}`),
		sCall(2, "call-x", "gated_echo", `{"text":"cancel me"}`),
		sCall(3, "call-ok", "list_files", `{}`),
		sCall(4, "call-bad", "read_file", `{"path":"missing.txt"}`)),
		reply(sText("Done.")))
	s := newScripted(t, m)
	ctx := context.Background()
	s.send("th-1", "go")
	rf := finished(t, s.terminal(), agui.OutcomeInterrupt)
	s.idle("th-1")
	var entries []agui.ResumeEntry
	for _, it := range rf.Outcome.Interrupts {
		switch it.ToolCallID {
		case "call-d":
			entries = append(entries, entry(it.ID, "resolved", `{"approved":false,"payload":{"reason":"no"}}`))
		default: // the question is dismissed, the other approval cancelled
			entries = append(entries, entry(it.ID, "cancelled", ""))
		}
	}
	if len(entries) != 3 {
		t.Fatalf("interrupts %+v", rf.Outcome.Interrupts)
	}
	if err := resumeRun(s.rt, ctx, "th-1", rf.RunID, entries, ""); err != nil {
		t.Fatal(err)
	}
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th-1")
	// A call stopped while it waited, and one the person replied past.
	m.Enqueue(reply(sCall(0, "call-s", "gated_echo", `{"text":"s"}`)))
	s.send("th-1", "again")
	finished(t, s.terminal(), agui.OutcomeInterrupt)
	s.idle("th-1")
	s.rt.Interrupt("th-1")
	finished(t, s.terminal(), agui.OutcomeCancelled)
	s.idle("th-1")
	m.Enqueue(reply(sCall(0, "call-r", "gated_echo", `{"text":"r"}`)), reply(sText("OK.")))
	s.send("th-1", "once more")
	finished(t, s.terminal(), agui.OutcomeInterrupt)
	s.idle("th-1")
	s.send("th-1", "never mind")
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th-1")

	// Reload: a fresh runtime reads the states back from the store.
	s.rebuild()
	msgs, err := s.db.Messages(ctx, "th-1")
	if err != nil {
		t.Fatal(err)
	}
	got := agent.ToolStatesOf(msgs, false)
	want := map[string]agent.ToolState{
		"call-d": agent.ToolDenied, "call-q": agent.ToolInterrupted, "call-x": agent.ToolInterrupted,
		"call-ok": agent.ToolDone, "call-bad": agent.ToolFailed,
		"call-s": agent.ToolInterrupted, "call-r": agent.ToolInterrupted,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("states after reload\n got %v\nwant %v", got, want)
	}
	s.assertValidHistory("th-1")
}

// A subscriber that stops reading during a 100k-token run holds a bounded
// number of entries, then gets every character in order and the
// terminal event.
func TestStalledSubscriberDuringA100kTokenRun(t *testing.T) {
	const tokens = 100_000
	steps := make(sreply, 0, tokens)
	var want strings.Builder
	for i := 0; i < tokens; i++ {
		tok := fmt.Sprintf("%d ", i)
		want.WriteString(tok)
		steps = append(steps, sText(tok))
	}
	m := newScriptedModel(steps)
	s := newScripted(t, m)
	stalled := s.rt.Subscribe("th-1")
	defer stalled.Close()
	s.send("th-1", "go")
	s.terminal()
	s.idle("th-1")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	batch, err := stalled.NextBatch(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(batch) > 300 { // the coalescing depth (256) and a few must-deliver envelopes
		t.Fatalf("the stalled subscriber held %d envelopes", len(batch))
	}
	var text strings.Builder
	var last agui.Event
	for _, env := range batch {
		if env.Name != agent.EnvelopeAGUI {
			continue
		}
		last = env.Event
		if c, ok := env.Event.(*agui.TextMessageContent); ok && c.Delta != "go" {
			text.WriteString(c.Delta)
		}
	}
	if text.String() != want.String() {
		t.Fatalf("got %d bytes of %d", text.Len(), want.Len())
	}
	if last == nil || last.EventType() != agui.TypeRunFinished {
		t.Fatalf("last event %#v, want RUN_FINISHED", last)
	}
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

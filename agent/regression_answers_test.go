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
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
)

// Regression tests: answers and the order calls run in. Each names the
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
	var ev *contract.ToolStateEvent
	for _, env := range a.events {
		if c, ok := env.Event.(*agui.Custom); ok && c.Name == contract.CustomToolState {
			var v contract.ToolStateEvent
			if err := json.Unmarshal(c.Value, &v); err != nil {
				t.Fatal(err)
			}
			if v.ToolCallID == "call-u" && v.State == contract.ToolPendingClient {
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
			if env.Name == broker.EnvelopeQueue && (len(env.Queued) > 1 || len(env.Queued) == 1 && env.Queued[0] != "new input") {
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

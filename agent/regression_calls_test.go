package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
)

// Regression tests: call ids, names, counts and states, and the event
// broker under a stalled subscriber. Each names the bug it guards against.

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
	want := map[string]contract.ToolState{
		"call-d": contract.ToolDenied, "call-q": contract.ToolInterrupted, "call-x": contract.ToolInterrupted,
		"call-ok": contract.ToolDone, "call-bad": contract.ToolFailed,
		"call-s": contract.ToolInterrupted, "call-r": contract.ToolInterrupted,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("states after reload\n got %v\nwant %v", got, want)
	}
	s.assertValidHistory("th-1")
}

// A subscriber that stops reading during a 100k-token run holds a bounded
// number of entries, then gets every character in order and the
// terminal event. The run reaching RUN_FINISHED while the stalled
// subscriber has read nothing is what shows it never blocked the run; the
// waits are bounded only by the test's own deadline, because the end of the
// run (storing and indexing 600 KB of text) takes seconds under -race and
// more on a loaded machine.
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
	ctx, cancel := untilDeadline(t)
	defer cancel()
	s.send("th-1", "go")
	finished(t, s.terminalBy(ctx), agui.OutcomeSuccess)
	s.idleBy(ctx, "th-1")
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
		if env.Name != broker.EnvelopeAGUI {
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

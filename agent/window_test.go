package agent_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
)

// Stop while an approval waits marks the answer interrupted in the store
// and tells the window at once (juncture.stopped), so Continue and
// Regenerate show without a reload.
func TestStopWhileAnApprovalWaitsTellsTheWindow(t *testing.T) {
	t.Parallel()
	m := newScriptedModel(reply(sText("I will echo."), sCall(0, "call-1", "gated_echo", `{"text":"hi"}`)))
	s := newScripted(t, m)
	s.send("th-1", "go")
	finished(t, s.terminal(), agui.OutcomeInterrupt)
	s.rt.Interrupt("th-1")
	var stopped *contract.StoppedEvent
	for stopped == nil {
		env := s.next(5e9)
		if c, ok := env.Event.(*agui.Custom); ok && c.Name == contract.CustomStopped {
			var ev contract.StoppedEvent
			if err := json.Unmarshal(c.Value, &ev); err != nil {
				t.Fatal(err)
			}
			stopped = &ev
		}
	}
	s.idle("th-1")
	var answer history.Message
	for _, msg := range s.messages("th-1") {
		if msg.Role == history.RoleAssistant {
			answer = msg
		}
	}
	if stopped.MessageID != answer.ID || answer.Status != history.StatusInterrupted {
		t.Fatalf("stopped %+v for %+v", stopped, answer)
	}
}

// A call the person edited before allowing runs with the edited arguments,
// and the window is told so (running state with the arguments, edited)
// and, after a reload, reads them from the thread state.
func TestEditedArgumentsAreWhatTheWindowShows(t *testing.T) {
	t.Parallel()
	m := newScriptedModel(reply(sCall(0, "call-1", "gated_echo", `{"text":"model"}`)), reply(sText("ok")))
	s := newScripted(t, m)
	s.send("th-1", "go")
	rf := finished(t, s.terminal(), agui.OutcomeInterrupt)
	it := rf.Outcome.Interrupts[0]
	if err := resumeRun(s.rt, t.Context(), "th-1", rf.RunID, []agui.ResumeEntry{{InterruptID: it.ID, Status: "resolved",
		Payload: json.RawMessage(`{"approved":true,"editedArgs":{"text":"person"}}`)}}, ""); err != nil {
		t.Fatal(err)
	}
	var running *contract.ToolStateEvent
	for running == nil {
		env := s.next(5e9)
		if c, ok := env.Event.(*agui.Custom); ok && c.Name == contract.CustomToolState {
			var ev contract.ToolStateEvent
			if json.Unmarshal(c.Value, &ev) == nil && ev.State == contract.ToolRunning {
				running = &ev
			}
		}
	}
	if !running.Edited || running.Arguments != `{"text":"person"}` {
		t.Fatalf("running state %+v", running)
	}
	s.idle("th-1")
	if got := agent.EditedArgsOf(s.messages("th-1")); got["call-1"] != `{"text":"person"}` || len(got) != 1 {
		t.Fatalf("edited args after a reload: %v", got)
	}
}

// Continue extends the interrupted answer in place: no message of the
// person, one assistant message whose text goes on (the mark removed), and
// the model read the answer so far and the instruction to go on.
func TestContinueExtendsTheInterruptedAnswerInPlace(t *testing.T) {
	t.Parallel()
	m := newScriptedModel(reply(sText("The first half, "), sBlock()), reply(sText("and the second half.")))
	s := newScripted(t, m)
	s.send("th-1", "write")
	for { // the answer's text, not the person's message
		if tc, ok := s.until(agui.TypeTextMessageContent).(*agui.TextMessageContent); ok && tc.Delta == "The first half, " {
			break
		}
	}
	s.rt.Interrupt("th-1")
	finished(t, s.terminal(), agui.OutcomeCancelled)
	s.idle("th-1")
	before := s.messages("th-1")
	if _, err := s.rt.ContinueAnswer(t.Context(), "th-1"); err != nil {
		t.Fatal(err)
	}
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th-1")
	after := s.messages("th-1")
	if len(after) != len(before) {
		t.Fatalf("%d messages before Continue, %d after", len(before), len(after))
	}
	last := after[len(after)-1]
	if last.ID != before[len(before)-1].ID || last.Content != "The first half, and the second half." || last.Status != history.StatusComplete {
		t.Fatalf("continued answer %+v", last)
	}
	req := m.Requests()[1]
	if got := req.Messages[len(req.Messages)-1]; got.Role != history.RoleUser || got.Content != agent.ContinueInstruction {
		t.Fatalf("the model's last message %+v", got)
	}
	// Nothing left to continue now.
	if _, err := s.rt.ContinueAnswer(t.Context(), "th-1"); !errors.Is(err, agent.ErrNothingToContinue) {
		t.Fatalf("a second Continue: %v", err)
	}
	s.assertValidHistory("th-1")
	validateAGUI(t, s.sse("th-1"))
}

// "Always allow in this chat" covers the tool in that conversation only;
// a call it lets through says which rule did.
func TestAlwaysAllowInThisChat(t *testing.T) {
	t.Parallel()
	m := newScriptedModel(
		reply(sCall(0, "call-1", "gated_echo", `{"text":"a"}`)), reply(sText("ok")),
		reply(sCall(0, "call-2", "gated_echo", `{"text":"b"}`)), reply(sText("ok")),
		reply(sCall(0, "call-3", "gated_echo", `{"text":"c"}`)),
	)
	s := newScripted(t, m)
	s.send("th-1", "go")
	rf := finished(t, s.terminal(), agui.OutcomeInterrupt)
	it := rf.Outcome.Interrupts[0]
	var offered []history.PermissionRule
	if raw, _ := json.Marshal(it.Metadata[agent.MetaSuggestedRules]); json.Unmarshal(raw, &offered) != nil || len(offered) != 2 ||
		offered[0].Scope != history.ScopeThread || offered[0].Pattern != "th-1" || offered[1].Scope != history.ScopeTool {
		t.Fatalf("offered %+v", offered)
	}
	if _, err := s.rt.Answer(t.Context(), "th-1", agent.Answers{ParentRunID: rf.RunID, Complete: true, Interrupts: []agent.InterruptAnswer{{
		ResumeEntry: agui.ResumeEntry{InterruptID: it.ID, Status: "resolved", Payload: json.RawMessage(`{"approved":true}`)},
		Remember:    &agent.Remember{Scope: history.ScopeThread, Pattern: "th-1"},
	}}}); err != nil {
		t.Fatal(err)
	}
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th-1")
	// The same chat: runs at once, and says which rule let it.
	s.send("th-1", "again")
	var allowed *history.PermissionRule
	for {
		env := s.next(5e9)
		if c, ok := env.Event.(*agui.Custom); ok && c.Name == contract.CustomToolState {
			var ev contract.ToolStateEvent
			if json.Unmarshal(c.Value, &ev) == nil && ev.ToolCallID == "call-2" && ev.State == contract.ToolRunning {
				allowed = ev.AllowedBy
			}
		}
		if env.Name == broker.EnvelopeAGUI && env.Event.EventType() == agui.TypeRunFinished {
			break
		}
	}
	if allowed == nil || allowed.Scope != history.ScopeThread || allowed.Pattern != "th-1" {
		t.Fatalf("allowed by %+v", allowed)
	}
	s.idle("th-1")
	// Another chat asks.
	s.send("th-2", "go")
	finished(t, s.terminal(), agui.OutcomeInterrupt)
	if got := s.gatedRuns(); len(got) != 2 {
		t.Fatalf("gated runs %v", got)
	}
}

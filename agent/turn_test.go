package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
)

func outcome(t *testing.T, ev agui.Event) string {
	t.Helper()
	rf, ok := ev.(*agui.RunFinished)
	if !ok {
		if re, ok := ev.(*agui.RunError); ok {
			t.Fatalf("run failed: %s (%s)", re.Message, re.Code)
		}
		t.Fatalf("terminal event is %T", ev)
	}
	if rf.Outcome == nil {
		return agui.OutcomeSuccess
	}
	return rf.Outcome.Type
}

func TestPlainAnswerStreamsAndIsSaved(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(fakellm.Reply(fakellm.Words("Hello there, how can I help you today?", 2)...))
	h.send("th-1", "hi")
	if got := outcome(t, h.terminal()); got != agui.OutcomeSuccess {
		t.Fatalf("outcome %q", got)
	}
	h.idle("th-1")
	msgs := h.messages("th-1")
	if len(msgs) != 2 || msgs[0].Content != "hi" || msgs[1].Content != "Hello there, how can I help you today?" || msgs[1].Status != history.StatusComplete {
		t.Fatalf("stored %+v", msgs)
	}
	var deltas int
	for _, e := range h.events {
		if e.Name == broker.EnvelopeAGUI && e.Event.EventType() == agui.TypeTextMessageContent {
			deltas++
		}
	}
	if deltas < 4 { // the user's message + several answer chunks: streamed, not in one piece
		t.Fatalf("only %d content events: not streamed", deltas)
	}
	req := h.srv.Requests()[0]
	if req.Messages[len(req.Messages)-1].Content != "hi" {
		t.Fatalf("model got %+v", req.Messages)
	}
	validateAGUI(t, h.sse("th-1"))
}

func TestStopWhileStreamingKeepsPartialTextAndDropsToolCalls(t *testing.T) {
	h := newHarness(t)
	steps := []fakellm.Step{fakellm.Reasoning("Let me think "), fakellm.Reasoning("about it."), fakellm.Text("Part one. "), fakellm.Text("Part two. "),
		fakellm.ToolCall(0, "call-a", "list_files", `{"path":`), fakellm.Stall()}
	h.srv.Enqueue(fakellm.Response{Steps: steps})
	h.send("th-1", "go")
	h.until(agui.TypeToolCallStart)
	for {
		ev := h.until(agui.TypeToolCallArgs)
		if ev.(*agui.ToolCallArgs).Delta != "" {
			break
		}
	}
	start := time.Now()
	h.rt.Interrupt("th-1")
	term := h.terminal()
	if took := time.Since(start); took > 100*time.Millisecond {
		t.Errorf("RUN_FINISHED took %v after Stop", took)
	}
	if got := outcome(t, term); got != agui.OutcomeCancelled {
		t.Fatalf("outcome %q", got)
	}
	h.idle("th-1")
	msgs := h.messages("th-1")
	a := msgs[len(msgs)-1]
	if a.Role != history.RoleAssistant || a.Status != history.StatusInterrupted {
		t.Fatalf("last message %+v", a)
	}
	if want := "Part one. Part two. \n\n" + history.InterruptMarker; a.Content != want {
		t.Fatalf("content %q, want %q", a.Content, want)
	}
	if len(a.ToolCalls) != 0 {
		t.Fatalf("tool calls kept: %+v", a.ToolCalls)
	}
	if a.Reasoning != "Let me think about it." {
		t.Fatalf("completed reasoning lost: %q", a.Reasoning)
	}
	h.assertValidHistory("th-1")
	validateAGUI(t, h.sse("th-1"))

	// The next turn is not affected by the Stop.
	h.srv.Enqueue(fakellm.Reply(fakellm.Text("Fresh answer.")))
	h.send("th-1", "again")
	if got := outcome(t, h.terminal()); got != agui.OutcomeSuccess {
		t.Fatalf("next turn outcome %q", got)
	}
	req := h.srv.Requests()[1]
	var sawMarker bool
	for _, m := range req.Messages {
		if strings.Contains(m.Content, history.InterruptMarker) {
			sawMarker = true
		}
		if len(m.ToolCalls) > 0 {
			t.Fatalf("dropped tool calls were sent to the model: %+v", m)
		}
	}
	if !sawMarker {
		t.Fatalf("the model was not told about the interruption: %+v", req.Messages)
	}
}

func TestStopDuringIncompleteReasoningDropsIt(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(fakellm.Response{Steps: []fakellm.Step{fakellm.ReasoningField("Hmm, the answer"), fakellm.Stall()}})
	h.send("th-1", "q")
	h.until(agui.TypeReasoningMessageContent)
	h.rt.Interrupt("th-1")
	if got := outcome(t, h.terminal()); got != agui.OutcomeCancelled {
		t.Fatalf("outcome %q", got)
	}
	h.idle("th-1")
	a := h.messages("th-1")[1]
	if a.Reasoning != "" || a.Content != history.InterruptMarker {
		t.Fatalf("stored %+v", a)
	}
	validateAGUI(t, h.sse("th-1"))
}

func TestStopReturnsQuicklyWhenTheEndpointStalls(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(fakellm.HeadersThenStall())
	h.send("th-1", "hello?")
	if err := h.srv.WaitRequests(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	start := time.Now()
	h.rt.Interrupt("th-1")
	if got := outcome(t, h.terminal()); got != agui.OutcomeCancelled {
		t.Fatalf("outcome %q", got)
	}
	if took := time.Since(start); took > 100*time.Millisecond {
		t.Fatalf("Stop took %v with a stalled endpoint", took)
	}
	h.idle("th-1")
	h.assertValidHistory("th-1")
}

func TestStopIsANoOpWhenIdleOrRepeated(t *testing.T) {
	h := newHarness(t)
	h.rt.Interrupt("th-1") // nothing ever ran
	h.srv.Enqueue(fakellm.Reply(fakellm.Text("one")))
	h.send("th-1", "a")
	h.terminal()
	h.idle("th-1")
	h.rt.Interrupt("th-1") // after the turn finished
	h.rt.Interrupt("th-1")
	h.srv.Enqueue(fakellm.Reply(fakellm.Text("two")))
	h.send("th-1", "b")
	if got := outcome(t, h.terminal()); got != agui.OutcomeSuccess {
		t.Fatalf("a stale Stop leaked into the next turn: %q", got)
	}
	h.idle("th-1")
	msgs := h.messages("th-1")
	if msgs[len(msgs)-1].Content != "two" {
		t.Fatalf("stored %+v", msgs)
	}
}

func TestDoubleStopAndStopThenSend(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(fakellm.Response{Steps: []fakellm.Step{fakellm.Text("x"), fakellm.Stall()}})
	h.send("th-1", "a")
	h.until(agui.TypeTextMessageContent) // user message
	h.until(agui.TypeTextMessageContent) // answer
	h.rt.Interrupt("th-1")
	h.rt.Interrupt("th-1")
	h.srv.Enqueue(fakellm.Reply(fakellm.Text("after stop")))
	h.send("th-1", "b") // sent immediately after Stop
	if got := outcome(t, h.terminal()); got != agui.OutcomeCancelled {
		t.Fatalf("first outcome %q", got)
	}
	if got := outcome(t, h.terminal()); got != agui.OutcomeSuccess {
		t.Fatalf("second outcome %q", got)
	}
	h.idle("th-1")
	msgs := h.messages("th-1")
	if msgs[len(msgs)-1].Content != "after stop" {
		t.Fatalf("stored %+v", msgs)
	}
	h.assertValidHistory("th-1")
}

func TestInputDuringARunIsQueuedAndRunsNext(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(fakellm.Reply(fakellm.Delay(100*time.Millisecond), fakellm.Text("first")))
	h.srv.Enqueue(fakellm.Reply(fakellm.Text("second")))
	h.srv.Enqueue(fakellm.Reply(fakellm.Text("third")))
	h.send("th-1", "one")
	queued, err := h.rt.SendInput(context.Background(), "th-1", "two")
	if err != nil || !queued {
		t.Fatalf("queued=%v err=%v", queued, err)
	}
	if _, err := h.rt.SendInput(context.Background(), "th-1", "drop me"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.rt.SendInput(context.Background(), "th-1", "three"); err != nil {
		t.Fatal(err)
	}
	if q := h.rt.Queued("th-1"); len(q) != 3 || q[1] != "drop me" {
		t.Fatalf("queue %v", q)
	}
	if err := h.rt.RemoveQueued("th-1", 1); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if got := outcome(t, h.terminal()); got != agui.OutcomeSuccess {
			t.Fatalf("turn %d outcome %q", i, got)
		}
	}
	h.idle("th-1")
	var texts []string
	for _, m := range h.messages("th-1") {
		texts = append(texts, m.Content)
	}
	if got := strings.Join(texts, "|"); got != "one|first|two|second|three|third" {
		t.Fatalf("history %s", got)
	}
}

func TestStopWhileToolsRun(t *testing.T) {
	cases := []struct {
		name      string
		first     string
		wantFirst string // prefix of the first tool's result
	}{
		{"must-complete tool finishes", "slow_finish", "finished after"},
		{"abortable tool is cancelled", "slow_abortable", history.ResultInterruptedMidRun},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Enqueue(fakellm.Reply(
				fakellm.ToolCall(0, "call-1", tc.first, `{"ms":300}`),
				fakellm.ToolCall(1, "call-2", "list_files", `{}`),
				fakellm.ToolCall(2, "call-3", "slow_finish", `{"ms":1}`),
			))
			h.send("th-1", "do things")
			<-h.slowStarted
			h.rt.Interrupt("th-1")
			if got := outcome(t, h.terminal()); got != agui.OutcomeCancelled {
				t.Fatalf("outcome %q", got)
			}
			h.idle("th-1")
			results := map[string]history.Message{}
			var answer history.Message
			for _, m := range h.messages("th-1") {
				if m.Role == history.RoleTool {
					results[m.ToolCallID] = m
				}
				if m.Role == history.RoleAssistant {
					answer = m
				}
			}
			if !strings.HasPrefix(results["call-1"].Content, tc.wantFirst) {
				t.Errorf("running tool result %q", results["call-1"].Content)
			}
			for _, id := range []string{"call-2", "call-3"} {
				if r := results[id]; r.Content != history.ResultInterrupted || !r.IsError {
					t.Errorf("%s not started, result %+v", id, r)
				}
			}
			if h.slowRuns["slow_finish"]+h.slowRuns["slow_abortable"] != 1 {
				t.Errorf("tools ran %v", h.slowRuns)
			}
			if !strings.HasSuffix(answer.Content, history.InterruptMarker) {
				t.Errorf("marker missing: %q", answer.Content)
			}
			if n := len(h.srv.Requests()); n != 1 {
				t.Errorf("%d model calls; no call may follow a Stop", n)
			}
			h.assertValidHistory("th-1")
			validateAGUI(t, h.sse("th-1"))
		})
	}
}

func TestToolRoundTripAndBadToolCalls(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(fakellm.Reply(
		fakellm.ToolCall(0, "call-1", "no_such_tool", `{}`),
		fakellm.ToolCall(1, "call-2", "read_file", `{"path": `), // not JSON
		fakellm.ToolCall(2, "call-3", "read_file", `{"path":"../../etc/passwd"}`),
		fakellm.ToolCall(3, "call-4", "list_files", ``), // empty arguments
	))
	h.srv.Enqueue(fakellm.Reply(fakellm.Text("Done.")))
	h.send("th-1", "try")
	if got := outcome(t, h.terminal()); got != agui.OutcomeSuccess {
		t.Fatalf("outcome %q", got)
	}
	h.idle("th-1")
	second := h.srv.Requests()[1]
	res := map[string]string{}
	for _, m := range second.Messages {
		if m.Role == "tool" {
			res[m.ToolCallID] = m.Content
		}
		for _, c := range m.ToolCalls {
			if c.ID == "call-4" && c.Arguments != "{}" {
				t.Errorf("empty arguments re-sent as %q", c.Arguments)
			}
		}
	}
	if !strings.Contains(res["call-1"], "no_such_tool") {
		t.Errorf("unknown tool result %q", res["call-1"])
	}
	if !strings.Contains(strings.ToLower(res["call-2"]), "json") {
		t.Errorf("bad JSON result %q", res["call-2"])
	}
	if !strings.Contains(res["call-3"], "outside the workspace") {
		t.Errorf("escape result %q", res["call-3"])
	}
	if strings.Contains(res["call-4"], "rror") {
		t.Errorf("list_files with empty args failed: %q", res["call-4"])
	}
	h.assertValidHistory("th-1")
	validateAGUI(t, h.sse("th-1"))
}

func TestStopInTheGapBeforeTheNextModelCall(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "call-1", "slow_finish", `{"ms":50}`)))
	h.send("th-1", "x")
	<-h.slowStarted
	h.until(agui.TypeToolCallResult) // not yet: Stop comes right after the tool
	h.rt.Interrupt("th-1")
	if got := outcome(t, h.terminal()); got != agui.OutcomeCancelled {
		// The next model call may have started; then it is cancelled while streaming.
		t.Fatalf("outcome %q", got)
	}
	h.idle("th-1")
	h.assertValidHistory("th-1")
}

func TestStreamingTextIsCheckpointedWhileTheModelPauses(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(fakellm.Reply(fakellm.Text("first "), fakellm.Text("second"), fakellm.Delay(2*time.Second), fakellm.Text(" third")))
	h.send("th-1", "go")
	for n := 0; n < 3; { // the person's message, then two answer chunks
		if h.until(agui.TypeTextMessageContent) != nil {
			n++
		}
	}
	// The 50 ms hand-over plus the store's 20 ms write, well within the
	// model's pause even on a loaded machine: poll rather than sleep.
	var msgs []history.Message
	for deadline := time.Now().Add(1500 * time.Millisecond); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if msgs = h.messages("th-1"); len(msgs) == 2 && msgs[1].Content == "first second" {
			break
		}
	}
	if len(msgs) != 2 || msgs[1].Content != "first second" || msgs[1].Status != history.StatusStreaming {
		t.Fatalf("while the model pauses, the store holds %+v", msgs)
	}
	if got := outcome(t, h.terminal()); got != agui.OutcomeSuccess {
		t.Fatalf("outcome %q", got)
	}
}

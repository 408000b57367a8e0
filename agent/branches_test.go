package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
)

// texts is "role:content" of each message the model was sent.
func texts(msgs []history.Message) string {
	var b []string
	for _, m := range msgs {
		b = append(b, string(m.Role)+":"+m.Content)
	}
	return strings.Join(b, " | ")
}

// pathOf is "content" of each message on the thread's active path.
func (h *harness) pathOf(threadID string) string {
	h.t.Helper()
	return texts(h.messages(threadID))
}

// sawPathChange reads events up to the next juncture.path_changed and
// returns it, checking a MESSAGES_SNAPSHOT came first when inRun.
func (h *harness) sawPathChange(inRun bool) contract.PathChangedEvent {
	h.t.Helper()
	snapshot := false
	for {
		env := h.next(10e9)
		if env.Name == broker.EnvelopePath {
			if inRun {
				h.t.Errorf("a path change in a run came as an envelope")
			}
			return env.Data.(contract.PathChangedEvent)
		}
		if env.Name != broker.EnvelopeAGUI {
			continue
		}
		switch ev := env.Event.(type) {
		case *agui.MessagesSnapshot:
			snapshot = true
		case *agui.Custom:
			if ev.Name != contract.CustomPathChanged {
				continue
			}
			if !inRun || !snapshot {
				h.t.Errorf("path_changed outside a run, or without a MESSAGES_SNAPSHOT before it")
			}
			var pc contract.PathChangedEvent
			if err := json.Unmarshal(ev.Value, &pc); err != nil {
				h.t.Fatalf("path_changed value %s: %v", ev.Value, err)
			}
			return pc
		}
	}
}

func TestEditMessageMakesASiblingTheModelReadsAlone(t *testing.T) {
	m := newScriptedModel(reply(sText("a1")), reply(sText("a2")), reply(sText("a1b")))
	s := newScripted(t, m)
	ctx := context.Background()
	s.send("th", "q1")
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.send("th", "q2")
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th")
	q1 := s.messages("th")[0]

	if _, err := s.rt.EditMessage(ctx, "th", q1.ID, "q1b"); err != nil {
		t.Fatal(err)
	}
	if pc := s.sawPathChange(true); pc.Reason != contract.PathEdit || pc.LeafID != "" || pc.ThreadID != "th" {
		t.Errorf("path change = %+v", pc)
	}
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th")

	if got := texts(m.Requests()[2].Messages); got != "user:q1b" {
		t.Errorf("the model read %q for the edited question; the old branch must not reach it", got)
	}
	path := s.messages("th")
	if texts(path) != "user:q1b | assistant:a1b" {
		t.Fatalf("active path = %s", texts(path))
	}
	if b := path[0].Branch; b == nil || b.Index != 2 || b.Count != 2 || b.Siblings[0] != q1.ID {
		t.Errorf("edited message branch = %+v", b)
	}
	if err := s.rt.SelectBranch(ctx, "th", q1.ID); err != nil {
		t.Fatal(err)
	}
	if pc := s.sawPathChange(false); pc.Reason != contract.PathBranch {
		t.Errorf("path change = %+v", pc)
	}
	if got := s.pathOf("th"); got != "user:q1 | assistant:a1 | user:q2 | assistant:a2" {
		t.Errorf("old version = %s", got)
	}
	s.assertValidHistory("th")
	validateAGUI(t, s.sse("th"))

	for _, c := range []struct {
		name string
		err  error
		want error
	}{
		{"edit an answer", func() error { _, err := s.rt.EditMessage(ctx, "th", path[1].ID, "x"); return err }(), agent.ErrNotEditable},
		{"edit to nothing", func() error { _, err := s.rt.EditMessage(ctx, "th", q1.ID, ""); return err }(), agent.ErrEmptyInput},
		{"regenerate a question", func() error { _, err := s.rt.Regenerate(ctx, "th", q1.ID); return err }(), agent.ErrNotRegenerable},
	} {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.want)
		}
	}
	if _, err := s.rt.EditMessage(ctx, "th", "no-such-message", "x"); err == nil {
		t.Error("editing an unknown message succeeded")
	}
}

func TestRegenerateAnswersTheSameQuestionAgain(t *testing.T) {
	m := newScriptedModel(
		reply(sCall(0, "c1", "slow_finish", `{"ms":1}`)), reply(sText("done")),
		reply(sText("second try")),
	)
	s := newScripted(t, m)
	ctx := context.Background()
	s.send("th", "do it")
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th")
	first := s.messages("th")
	if len(first) != 4 {
		t.Fatalf("first turn = %s", texts(first))
	}
	// Any answer of the turn regenerates from its question.
	if _, err := s.rt.Regenerate(ctx, "th", first[3].ID); err != nil {
		t.Fatal(err)
	}
	if pc := s.sawPathChange(true); pc.Reason != contract.PathRegenerate || pc.LeafID != first[0].ID {
		t.Errorf("path change = %+v", pc)
	}
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th")
	if got := texts(m.Requests()[2].Messages); got != "user:do it" {
		t.Errorf("the regenerate request read %q", got)
	}
	path := s.messages("th")
	if texts(path) != "user:do it | assistant:second try" {
		t.Fatalf("active path = %s", texts(path))
	}
	if b := path[1].Branch; b == nil || b.Index != 2 || b.Count != 2 || b.Siblings[0] != first[1].ID {
		t.Errorf("regenerated answer branch = %+v", b)
	}
	if path[0].Branch != nil || path[0].ID != first[0].ID {
		t.Errorf("the question was duplicated or moved: %+v", path[0])
	}
	all, err := s.db.AllMessages(ctx, "th")
	if err != nil || len(all) != 5 {
		t.Errorf("stored %d messages, %v; want 5 (no second question)", len(all), err)
	}
	// The tool ran once, and its call id is not reused on the new branch.
	if s.slowRuns["slow_finish"] != 1 {
		t.Errorf("slow_finish ran %d times", s.slowRuns["slow_finish"])
	}
}

func TestBranchChangesWaitForWhatWaits(t *testing.T) {
	m := newScriptedModel(reply(sText("a1")), reply(sCall(0, "g1", "gated_echo", `{"text":"x"}`)), reply(sText("after edit")))
	s := newScripted(t, m)
	ctx := context.Background()
	s.send("th", "q1")
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.send("th", "q2")
	finished(t, s.terminal(), agui.OutcomeInterrupt)
	s.idle("th")
	before := s.pathOf("th")
	q1, q2 := s.messages("th")[0], s.messages("th")[2]

	if err := s.rt.SelectBranch(ctx, "th", q1.ID); !errors.Is(err, agent.ErrBranchWaits) {
		t.Errorf("switching while an approval waits: %v", err)
	}
	if got := s.pathOf("th"); got != before {
		t.Errorf("a refused switch moved the path: %s", got)
	}
	if n := len(s.waitingRuns("th")); n != 1 {
		t.Errorf("the approval no longer waits after a refused switch")
	}
	// An edit is new input: what waited is settled on its own branch.
	if _, err := s.rt.EditMessage(ctx, "th", q2.ID, "q2b"); err != nil {
		t.Fatal(err)
	}
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th")
	if len(s.waitingRuns("th")) != 0 || len(s.gatedRuns()) != 0 {
		t.Errorf("after the edit: waiting %v, gated ran %v", s.waitingRuns("th"), s.gatedRuns())
	}
	if got := s.pathOf("th"); got != "user:q1 | assistant:a1 | user:q2b | assistant:after edit" {
		t.Errorf("path after the edit = %s", got)
	}
	old, err := s.db.PathTo(ctx, "th", q2.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.SelectBranch(ctx, "th", q2.ID); err != nil {
		t.Fatal(err)
	}
	oldPath := s.messages("th")
	if len(oldPath) != 5 || oldPath[4].Role != history.RoleTool || oldPath[4].Content != agent.ResultRepliedInChat || len(old) != 3 {
		t.Errorf("the old branch does not end with its cancelled call: %s", texts(oldPath))
	}
	assertValid(t, oldPath)

	// While a turn runs, every branch change is refused.
	m.Enqueue(reply(sBlock()))
	s.send("th", "q3")
	s.until(agui.TypeRunStarted)
	for name, err := range map[string]error{
		"select":     s.rt.SelectBranch(ctx, "th", q1.ID),
		"edit":       func() error { _, err := s.rt.EditMessage(ctx, "th", q1.ID, "x"); return err }(),
		"regenerate": func() error { _, err := s.rt.Regenerate(ctx, "th", oldPath[1].ID); return err }(),
	} {
		if !errors.Is(err, agent.ErrBusy) {
			t.Errorf("%s while running: %v", name, err)
		}
	}
	s.rt.Interrupt("th")
	finished(t, s.terminal(), agui.OutcomeCancelled)
}

func TestStopAndContinueOnABranch(t *testing.T) {
	m := newScriptedModel(reply(sText("a1")), reply(sText("half"), sBlock()), reply(sText(" and the rest")))
	s := newScripted(t, m)
	ctx := context.Background()
	s.send("th", "q1")
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th")
	q1 := s.messages("th")[0]
	if _, err := s.rt.EditMessage(ctx, "th", q1.ID, "q1b"); err != nil {
		t.Fatal(err)
	}
	s.until(agui.TypeTextMessageContent) // the question
	for {
		if ev, ok := s.until(agui.TypeTextMessageContent).(*agui.TextMessageContent); ok && ev.Delta == "half" {
			break
		}
	}
	s.rt.Interrupt("th")
	finished(t, s.terminal(), agui.OutcomeCancelled)
	s.idle("th")
	path := s.messages("th")
	if len(path) != 2 || path[1].Status != history.StatusInterrupted || !strings.HasPrefix(path[1].Content, "half") {
		t.Fatalf("stopped branch = %s", texts(path))
	}
	if _, err := s.rt.ContinueAnswer(ctx, "th"); err != nil {
		t.Fatal(err)
	}
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th")
	if got := s.pathOf("th"); got != "user:q1b | assistant:half and the rest" {
		t.Errorf("continued branch = %s", got)
	}
	if got := texts(m.Requests()[2].Messages); !strings.HasPrefix(got, "user:q1b | assistant:half") || strings.Contains(got, "a1") {
		t.Errorf("the continuation read %q", got)
	}
	// The first version is untouched.
	if old, err := s.db.PathTo(ctx, "th", q1.ID); err != nil || len(old) != 1 {
		t.Errorf("old version: %v %v", old, err)
	}
	if _, err := s.db.SelectBranch(ctx, "th", q1.ID); err != nil {
		t.Fatal(err)
	}
	if got := s.pathOf("th"); got != "user:q1 | assistant:a1" {
		t.Errorf("old version after the stop = %s", got)
	}
}

// Instructions are system messages in the tree: the model reads the last
// one on its path first, after Juncture's own text, and a branch made
// before keeps the instructions it ran with.
func TestInstructionsAreVersionedWithTheBranch(t *testing.T) {
	m := newScriptedModel(reply(sText("a1")), reply(sText("a2")), reply(sText("a1b")), reply(sText("a3")))
	s := newScripted(t, m, func(o *agent.Options) { o.System = "JUNCTURE TOOLS TEXT" })
	ctx := context.Background()
	if err := s.db.CreateThread(ctx, history.Thread{ID: "th"}); err != nil {
		t.Fatal(err)
	}
	if err := s.rt.SetInstructions(ctx, "th", "Be brief."); err != nil {
		t.Fatal(err)
	}
	if pc := s.sawPathChange(false); pc.Reason != contract.PathInstructions {
		t.Errorf("path change = %+v", pc)
	}
	s.send("th", "q1")
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th")
	if err := s.rt.SetInstructions(ctx, "th", "Be verbose."); err != nil {
		t.Fatal(err)
	}
	if err := s.rt.SetInstructions(ctx, "th", "Be verbose."); err != nil { // unchanged: no new version
		t.Fatal(err)
	}
	s.send("th", "q2")
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th")
	q1 := s.messages("th")[1]

	if _, err := s.rt.EditMessage(ctx, "th", q1.ID, "q1b"); err != nil {
		t.Fatal(err)
	}
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th")
	if err := s.rt.SetInstructions(ctx, "th", ""); err != nil { // cleared
		t.Fatal(err)
	}
	s.send("th", "q3")
	finished(t, s.terminal(), agui.OutcomeSuccess)

	reqs := m.Requests()
	for i, want := range []string{"JUNCTURE TOOLS TEXT\n\nBe brief.", "JUNCTURE TOOLS TEXT\n\nBe verbose.", "JUNCTURE TOOLS TEXT\n\nBe brief.", "JUNCTURE TOOLS TEXT"} {
		if reqs[i].System != want {
			t.Errorf("request %d system = %q, want %q", i+1, reqs[i].System, want)
		}
		for _, msg := range reqs[i].Messages {
			if msg.Role == history.RoleSystem {
				t.Errorf("request %d carries a system message in place: %q", i+1, msg.Content)
			}
		}
	}
	if got := texts(reqs[2].Messages); got != "user:q1b" {
		t.Errorf("edited request read %q", got)
	}
	all, err := s.db.AllMessages(ctx, "th")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, msg := range all {
		if msg.Role == history.RoleSystem {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d instruction versions stored, want 3 (brief, verbose, cleared)", n)
	}

	// Instructions saved while the model is asked sit between the question
	// and the answer; regenerating that answer keeps them. (The answer is
	// stored from its first word on, so the gate comes before it.)
	s.idle("th")
	gate := make(chan struct{})
	m.Enqueue(reply(sstep{gate: gate}, sText("mid"), sText("run")), reply(sText("again")))
	calls := m.Calls()
	s.send("th", "q4")
	for m.Calls() == calls {
		time.Sleep(time.Millisecond)
	}
	if err := s.rt.SetInstructions(ctx, "th", "Mid-run."); err != nil {
		t.Fatal(err)
	}
	close(gate)
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th")
	path := s.messages("th")
	last := path[len(path)-1]
	if _, err := s.rt.Regenerate(ctx, "th", last.ID); err != nil {
		t.Fatal(err)
	}
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.idle("th")
	reqs = m.Requests()
	if got := reqs[len(reqs)-1].System; got != "JUNCTURE TOOLS TEXT\n\nMid-run." {
		t.Errorf("regenerated answer ran with %q", got)
	}
	path = s.messages("th")
	if got := texts(path[len(path)-3:]); got != "user:q4 | system:Mid-run. | assistant:again" {
		t.Errorf("regenerated path ends %s", got)
	}
}

// Usage comes from the stream's usage chunk, through the real client and
// SSE; an endpoint that sends none leaves it nil (never estimated).
func TestAnswerUsageFromTheStream(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(fakellm.Reply(fakellm.Text("counted"), fakellm.Usage(42, 7)), fakellm.Reply(fakellm.Text("uncounted")))
	h.send("th", "one")
	finished(t, h.terminal(), agui.OutcomeSuccess)
	h.send("th", "two")
	finished(t, h.terminal(), agui.OutcomeSuccess)
	h.idle("th")
	msgs := h.messages("th")
	if u := msgs[1].Usage; u == nil || *u != (history.Usage{PromptTokens: 42, CompletionTokens: 7, TotalTokens: 49}) || msgs[1].Model != "fake-model" {
		t.Errorf("counted answer: usage %+v model %q", msgs[1].Usage, msgs[1].Model)
	}
	if msgs[3].Usage != nil {
		t.Errorf("an answer without a usage chunk got %+v", msgs[3].Usage)
	}
	u, err := h.db.ThreadUsage(context.Background(), "th")
	if err != nil || u.Total.TotalTokens != 49 || u.Answers != 2 || u.Unreported != 1 {
		t.Errorf("thread usage = %+v, %v", u, err)
	}
}

// The model is resolved per thread before every model call.
func TestModelResolvedPerThreadAndCall(t *testing.T) {
	a := newScriptedModel(reply(sCall(0, "c1", "slow_finish", `{"ms":1}`)))
	b := newScriptedModel(reply(sText("from b")), reply(sText("b for other")))
	s := newScripted(t, a)
	s.rebuild(func(o *agent.Options) {
		o.Model = func(_ context.Context, threadID string) (agent.Model, error) {
			if threadID == "other" || a.Calls() > 0 {
				return b, nil // switched mid-turn: applies from the next model call
			}
			return a, nil
		}
		o.Tools = func(context.Context, string) *tools.Registry { return s.reg }
	})
	s.send("th", "go")
	finished(t, s.terminal(), agui.OutcomeSuccess)
	s.send("other", "hi")
	finished(t, s.terminal(), agui.OutcomeSuccess)
	if a.Calls() != 1 || b.Calls() != 2 {
		t.Errorf("model a answered %d calls, b %d; want 1 and 2", a.Calls(), b.Calls())
	}
}

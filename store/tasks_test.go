package store

import (
	"errors"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

// TestTaskCallSurvivesRecovery: a call running as a task keeps its handle
// in its started record; recovery leaves it started (no "app stopped"
// result, no tool message) for the app to resume, while a plain call
// started beside it is finished as before; finishing the task call
// replaces the handle with the outcome.
func TestTaskCallSurvivesRecovery(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t, "t")
	mustPut(t, db,
		userMsg("t", "u1", "research"),
		assistantMsg("t", "a1", "",
			history.ToolCall{ID: "c-task", Name: "research", Arguments: "{}"},
			history.ToolCall{ID: "c-plain", Name: "list_dir", Arguments: "{}"}),
	)
	for _, id := range []string{"c-task", "c-plain"} {
		if _, err := db.BeginToolExecution(ctx, history.ToolExecution{ToolCallID: id, ThreadID: "t", RunID: "run", ToolName: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	handle := []byte(`{"task":{"server":"s","id":"T1","form":"2026-07-28"}}`)
	if err := db.RecordToolTask(ctx, "t", "c-task", []byte(`{"nottask":1}`)); err == nil {
		t.Error("a handle that is not {\"task\": …} was kept")
	}
	if err := db.RecordToolTask(ctx, "t", "c-task", handle); err != nil {
		t.Fatal(err)
	}
	if err := db.PutRun(ctx, history.Run{ID: "run", ThreadID: "t", Status: history.RunRunning, StartedAt: 1}); err != nil {
		t.Fatal(err)
	}
	// The task had asked a question (input_required): it goes with the
	// process; the resumed task asks again.
	if err := db.PutInterrupts(ctx, []history.Interrupt{{ID: "q", ThreadID: "t", ToolCallID: "c-task", Kind: history.KindGeneric, Descriptor: []byte(`{"id":"q","message":"which?"}`)}}); err != nil {
		t.Fatal(err)
	}
	rep, err := db.Recover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.ResumableTasks != 1 || rep.FinishedToolExecutions != 1 || rep.AddedToolResults != 1 || rep.EndedMidCallQuestions != 1 || rep.PendingInterrupts != 0 {
		t.Errorf("report = %+v, want one resumable task and one finished plain call", rep)
	}
	tasks, err := db.StartedToolTasks(ctx)
	if err != nil || len(tasks) != 1 || tasks[0].ToolCallID != "c-task" || tasks[0].Result != string(handle) {
		t.Fatalf("StartedToolTasks = %+v, %v", tasks, err)
	}
	for _, m := range mustMessages(t, db, "t") {
		if m.Role == history.RoleTool && m.ToolCallID == "c-task" {
			t.Errorf("recovery wrote a result for the task call: %q", m.Content)
		}
	}
	if err := db.FinishToolExecution(ctx, history.ToolExecution{ToolCallID: "c-task", ThreadID: "t", RunID: "run", ToolName: "x", Result: "done"}); err != nil {
		t.Fatal(err)
	}
	if tasks, _ := db.StartedToolTasks(ctx); len(tasks) != 0 {
		t.Errorf("a finished task call is still listed: %+v", tasks)
	}
	if err := db.RecordToolTask(ctx, "t", "c-task", handle); !errors.Is(err, ErrNotStarted) {
		t.Errorf("recording on a finished call: %v, want ErrNotStarted", err)
	}
}

package store

import (
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

func TestRecoverAfterCrash(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t, "t")
	before, _ := db.Thread(ctx, "t")

	// What a crash in the middle of a turn leaves behind.
	mustPut(t, db,
		userMsg("t", "u1", "clean up my downloads"),
		assistantMsg("t", "a1", "Listing first.",
			history.ToolCall{ID: "c-ran", Name: "list_dir", Arguments: "{}"},
			history.ToolCall{ID: "c-answered", Name: "list_dir", Arguments: "{}"}),
		toolMsg("t", "t1", "c-answered", "list_dir", "a.zip b.zip"),
		history.Message{ID: "a2", ThreadID: "t", Role: history.RoleAssistant, Content: "I will now dele",
			Reasoning: "half a thought", ToolCalls: []history.ToolCall{{ID: "c-half", Name: "delete", Arguments: `{"pa`}},
			Status: history.StatusStreaming, CreatedAt: 500},
	)
	for _, e := range []history.ToolExecution{
		{ToolCallID: "c-ran", ThreadID: "t", RunID: "run", ToolName: "list_dir", Arguments: "{}"},
		{ToolCallID: "c-answered", ThreadID: "t", RunID: "run", ToolName: "list_dir", Arguments: "{}"},
	} {
		if _, err := db.BeginToolExecution(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.PutRun(ctx, history.Run{ID: "run", ThreadID: "t", Status: history.RunRunning, StartedAt: 1}); err != nil {
		t.Fatal(err)
	}
	if err := db.PutRun(ctx, history.Run{ID: "old", ThreadID: "t", Status: history.RunFinished, StartedAt: 0, FinishedAt: 1}); err != nil {
		t.Fatal(err)
	}
	if err := db.PutInterrupts(ctx, []history.Interrupt{{ID: "ask", ThreadID: "t", Kind: history.KindGeneric, Descriptor: []byte(`{"id":"ask"}`)}}); err != nil {
		t.Fatal(err)
	}
	if err := db.PutClientToolCall(ctx, history.ClientToolCall{ToolCallID: "clip", ThreadID: "t", ToolName: "copy_to_clipboard"}); err != nil {
		t.Fatal(err)
	}
	touched, _ := db.Thread(ctx, "t")

	rep, err := db.Recover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := RecoveryReport{InterruptedMessages: 1, DroppedToolCalls: 1, FinishedToolExecutions: 2, AddedToolResults: 1,
		CancelledRuns: 1, PendingInterrupts: 1, PendingClientToolCalls: 1}
	if rep != want {
		t.Errorf("report = %+v, want %+v", rep, want)
	}

	msgs := mustMessages(t, db, "t")
	if ids(msgs[:4]) != "u1,a1,t1,a2" || len(msgs) != 5 {
		t.Fatalf("messages = %s", ids(msgs))
	}
	a2 := msgs[3]
	if a2.Status != history.StatusInterrupted || a2.Content != history.WithMarker("I will now dele") || a2.Reasoning != "" || len(a2.ToolCalls) != 0 {
		t.Errorf("streaming message after recovery = %+v", a2)
	}
	added := msgs[4]
	if added.Role != history.RoleTool || added.ToolCallID != "c-ran" || added.Content != history.ResultAppStoppedMidRun || !added.IsError || added.ToolName != "list_dir" || added.RunID != "run" {
		t.Errorf("added tool result = %+v", added)
	}
	for id, wantResult := range map[string]string{"c-ran": history.ResultAppStoppedMidRun, "c-answered": history.ResultAppStoppedMidRun} {
		e, _ := db.ToolExecution(ctx, "t", id)
		if e.State != history.ToolFinished || e.Result != wantResult || !e.IsError || e.FinishedAt == 0 {
			t.Errorf("tool execution %s = %+v", id, e)
		}
	}
	if r, _ := db.Run(ctx, "run"); r.Status != history.RunCancelled || r.FinishedAt == 0 {
		t.Errorf("run = %+v", r)
	}
	if r, _ := db.Run(ctx, "old"); r.Status != history.RunFinished {
		t.Errorf("a finished run was changed: %+v", r)
	}
	if p, _ := db.PendingInterrupts(ctx, "t"); len(p) != 1 || p[0].ID != "ask" {
		t.Errorf("pending interrupts = %+v", p)
	}
	if p, _ := db.PendingClientToolCalls(ctx, "t"); len(p) != 1 || p[0].ToolCallID != "clip" {
		t.Errorf("pending client tools = %+v", p)
	}
	// The transcript is valid for the model as stored: no repair needed.
	if _, repaired := history.ForModel(msgs); repaired {
		t.Error("recovered history needs repair before it can be sent")
	}
	// Repairs are not activity.
	if th, _ := db.Thread(ctx, "t"); th.UpdatedAt != touched.UpdatedAt || th.UpdatedAt <= before.UpdatedAt {
		t.Errorf("thread activity: before %d, after setup %d, after recovery %d", before.UpdatedAt, touched.UpdatedAt, th.UpdatedAt)
	}
	if hits := search(t, db, "dele"); len(hits) != 1 || hits[0].MessageID != "a2" {
		t.Errorf("recovered text not searchable: %+v", hits)
	}

	// Running it again finds nothing more to do.
	rep, err = db.Recover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := (RecoveryReport{PendingInterrupts: 1, PendingClientToolCalls: 1}); rep != want {
		t.Errorf("second recovery = %+v, want %+v", rep, want)
	}
	if got := mustMessages(t, db, "t"); len(got) != 5 {
		t.Errorf("second recovery added messages: %s", ids(got))
	}
}

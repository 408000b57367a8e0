package store

import (
	"errors"
	"sync"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

// A call between two round trips: its questions and state are stored
// with the move to awaiting_input, survive a recovery untouched, are
// claimed by exactly one retry, and a deleted thread takes them along.
func TestRoundTripPauseTakeAndRecover(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t, "t")
	mustPut(t, db, userMsg("t", "u1", "go"), assistantMsg("t", "a1", "", history.ToolCall{ID: "c1", Name: "edge__elicit", Arguments: "{}"}))
	rt := history.RoundTrip{ThreadID: "t", ToolCallID: "c1", State: []byte(`{"requestState":"s1"}`), Keys: map[string]string{"q1": "edge"}, Rounds: 1}
	q := history.Interrupt{ID: "q1", ThreadID: "t", RunID: "run", Kind: history.KindGeneric, ToolCallID: "c1", Descriptor: []byte(`{"id":"q1"}`)}
	// Not started: nothing is stored.
	if err := db.PauseRoundTrip(ctx, rt, []history.Interrupt{q}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("pause of a call that is not running: %v", err)
	}
	if p, _ := db.PendingInterrupts(ctx, "t"); len(p) != 0 {
		t.Fatalf("a question was stored anyway: %+v", p)
	}
	if _, err := db.BeginToolExecution(ctx, history.ToolExecution{ToolCallID: "c1", ThreadID: "t", RunID: "run", ToolName: "edge__elicit"}); err != nil {
		t.Fatal(err)
	}
	if err := db.PauseRoundTrip(ctx, rt, []history.Interrupt{q}); err != nil {
		t.Fatal(err)
	}
	rep, err := db.Recover(ctx)
	if err != nil || rep.FinishedToolExecutions != 0 || rep.EndedMidCallQuestions != 0 || rep.PendingInterrupts != 1 {
		t.Fatalf("recovery touched the waiting call: %+v (%v)", rep, err)
	}
	// Two retries race for the call: one wins.
	var wg sync.WaitGroup
	got := make(chan history.RoundTrip, 2)
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r, err := db.TakeRoundTrip(ctx, "t", "c1", "run2"); err == nil {
				got <- r
			} else if !errors.Is(err, ErrNotFound) {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	close(got)
	var wins []history.RoundTrip
	for r := range got {
		wins = append(wins, r)
	}
	if len(wins) != 1 || string(wins[0].State) != `{"requestState":"s1"}` || wins[0].Keys["q1"] != "edge" || wins[0].Rounds != 1 {
		t.Fatalf("claims %+v", wins)
	}
	if e, _ := db.ToolExecution(ctx, "t", "c1"); e.State != history.ToolStarted || e.RunID != "run2" {
		t.Fatalf("execution after the claim %+v", e)
	}
	// Paused again, then ended without a retry.
	q.ID, rt.Keys, rt.Rounds = "q2", map[string]string{"q2": "edge"}, 2
	if err := db.PauseRoundTrip(ctx, rt, []history.Interrupt{q}); err != nil {
		t.Fatal(err)
	}
	if err := db.EndRoundTrip(ctx, history.ToolExecution{ThreadID: "t", ToolCallID: "c1", Result: "stopped", IsError: true}); err != nil {
		t.Fatal(err)
	}
	if e, _ := db.ToolExecution(ctx, "t", "c1"); e.State != history.ToolFinished || e.Result != "stopped" {
		t.Fatalf("execution after the end %+v", e)
	}
	if _, err := db.TakeRoundTrip(ctx, "t", "c1", "run3"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an ended call was claimed: %v", err)
	}
	if err := db.DeleteAllHistory(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.r.QueryRowContext(ctx, "SELECT count(*) FROM tool_round_trips").Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d round trips left (%v)", n, err)
	}
}

package store

import (
	"encoding/json"
	"errors"
	"reflect"
	"sync"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

func TestRuns(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t, "t", "other")
	if _, err := db.LatestRun(ctx, "t"); !isNotFound(err) {
		t.Errorf("LatestRun of a thread without runs = %v, want ErrNotFound", err)
	}
	// Inserted later = latest, whatever the timestamps say.
	r1 := history.Run{ID: "r1", ThreadID: "t", Status: history.RunRunning, StartedAt: 500}
	r2 := history.Run{ID: "r2", ThreadID: "t", ParentRunID: "r1", Generation: 1, Status: history.RunRunning, StartedAt: 400}
	for _, r := range []history.Run{r1, r2} {
		if err := db.PutRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	r1.Status, r1.FinishedAt, r1.Outcome = history.RunInterrupted, 600, json.RawMessage(`{"type":"interrupt", "x": [1, 2]}`)
	if err := db.PutRun(ctx, r1); err != nil {
		t.Fatal(err)
	}
	if got, err := db.Run(ctx, "r1"); err != nil || !reflect.DeepEqual(got, r1) {
		t.Errorf("Run(r1) = %+v, %v; want %+v", got, err, r1)
	}
	if got, err := db.LatestRun(ctx, "t"); err != nil || got.ID != "r2" {
		t.Errorf("LatestRun = %+v, %v; want r2", got, err)
	}
	if _, err := db.Run(ctx, "nope"); !isNotFound(err) {
		t.Errorf("Run(nope) = %v", err)
	}
	if err := db.PutRun(ctx, history.Run{ID: "r1", ThreadID: "other", Status: history.RunFinished}); err == nil {
		t.Error("a run moved to another thread")
	}
	if err := db.PutRun(ctx, history.Run{ID: "r9", ThreadID: "t", Outcome: json.RawMessage("{oops")}); err == nil {
		t.Error("invalid outcome JSON accepted")
	}
}

func TestToolExecutionRunsOnce(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t, "t")
	e := history.ToolExecution{ToolCallID: "call", ThreadID: "t", RunID: "r", ToolName: "run_command", Arguments: `{"cmd":"rm x"}`, StartedAt: 10}

	// Many concurrent attempts: exactly one may run the tool.
	var wg sync.WaitGroup
	var mu sync.Mutex
	winners, priors := 0, 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			prior, err := db.BeginToolExecution(ctx, e)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				t.Error(err)
			case prior == nil:
				winners++
			case prior.State == history.ToolStarted && prior.Arguments == e.Arguments:
				priors++
			default:
				t.Errorf("prior = %+v", prior)
			}
		}()
	}
	wg.Wait()
	if winners != 1 || priors != 7 {
		t.Fatalf("winners = %d, priors = %d; want 1 and 7", winners, priors)
	}

	done := e
	done.Result, done.IsError, done.FinishedAt = "removed", false, 20
	if err := db.FinishToolExecution(ctx, done); err != nil {
		t.Fatal(err)
	}
	done.State = history.ToolFinished
	if got, err := db.ToolExecution(ctx, "t", "call"); err != nil || !reflect.DeepEqual(got, done) {
		t.Errorf("ToolExecution = %+v, %v; want %+v", got, err, done)
	}
	// After it finished, a retry still must not run it again.
	prior, err := db.BeginToolExecution(ctx, e)
	if err != nil || prior == nil || prior.State != history.ToolFinished || prior.Result != "removed" {
		t.Errorf("Begin after finish = %+v, %v", prior, err)
	}
	if _, err := db.ToolExecution(ctx, "t", "nope"); !isNotFound(err) {
		t.Errorf("ToolExecution(nope) = %v", err)
	}
}

func TestInterrupts(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t, "t", "other")
	desc := json.RawMessage(`{ "id":"i1",  "reason" : "tool-approval", "metadata": {"z":1,"a":2} }`) // bytes kept as emitted
	its := []history.Interrupt{
		{ID: "i1", ThreadID: "t", RunID: "r", Generation: 2, Kind: history.KindToolApproval, ToolCallID: "c1", Descriptor: desc, Status: history.InterruptPending, CreatedAt: 1},
		{ID: "i2", ThreadID: "t", RunID: "r", Generation: 2, Kind: history.KindGeneric, Descriptor: json.RawMessage(`{"id":"i2"}`), Status: history.InterruptPending, CreatedAt: 2},
		{ID: "i3", ThreadID: "other", RunID: "r3", Kind: history.KindGeneric, Descriptor: json.RawMessage(`{}`), Status: history.InterruptPending, CreatedAt: 3},
	}
	if err := db.PutInterrupts(ctx, its); err != nil {
		t.Fatal(err)
	}
	pending, err := db.PendingInterrupts(ctx, "t")
	if err != nil || !reflect.DeepEqual(pending, its[:2]) {
		t.Fatalf("PendingInterrupts = %+v, %v", pending, err)
	}

	// All or nothing: i2 of another thread's request, unknown ids.
	for _, c := range []struct {
		name string
		res  []Resolution
		bad  []string
	}{
		{"other thread", []Resolution{{ID: "i1", Status: history.InterruptResolved}, {ID: "i3", Status: history.InterruptResolved}}, []string{"i3"}},
		{"unknown", []Resolution{{ID: "i1", Status: history.InterruptResolved}, {ID: "zz", Status: history.InterruptCancelled}}, []string{"zz"}},
		{"twice", []Resolution{{ID: "i1", Status: history.InterruptResolved}, {ID: "i1", Status: history.InterruptCancelled}}, []string{"i1"}},
	} {
		err := db.ResolveInterrupts(ctx, "t", c.res)
		var conflict *ConflictError
		if !errors.As(err, &conflict) || !reflect.DeepEqual(conflict.IDs, c.bad) {
			t.Errorf("%s: ResolveInterrupts = %v, want conflict on %v", c.name, err, c.bad)
		}
		if p, _ := db.PendingInterrupts(ctx, "t"); len(p) != 2 {
			t.Errorf("%s: a failed resolve changed something: %d pending", c.name, len(p))
		}
	}

	resp := json.RawMessage(`{"approved":true}`)
	if err := db.ResolveInterrupts(ctx, "t", []Resolution{{ID: "i1", Status: history.InterruptResolved, Response: resp}}); err != nil {
		t.Fatal(err)
	}
	got, _ := db.Interrupt(ctx, "i1")
	if got.Status != history.InterruptResolved || string(got.Response) != string(resp) || got.ResolvedAt == 0 || string(got.Descriptor) != string(desc) {
		t.Errorf("resolved interrupt = %+v", got)
	}
	// First answer wins: a second answer for i1 conflicts, i2 is untouched.
	err = db.ResolveInterrupts(ctx, "t", []Resolution{{ID: "i2", Status: history.InterruptCancelled}, {ID: "i1", Status: history.InterruptCancelled}})
	var conflict *ConflictError
	if !errors.As(err, &conflict) || !reflect.DeepEqual(conflict.IDs, []string{"i1"}) {
		t.Errorf("second answer = %v, want conflict on i1", err)
	}
	if p, _ := db.PendingInterrupts(ctx, "t"); len(p) != 1 || p[0].ID != "i2" {
		t.Errorf("pending after conflict = %+v", p)
	}
	if _, err := db.Interrupt(ctx, "nope"); !isNotFound(err) {
		t.Errorf("Interrupt(nope) = %v", err)
	}
	if err := db.ResolveInterrupts(ctx, "t", []Resolution{{ID: "i2", Status: history.InterruptPending}}); err == nil {
		t.Error("resolving to pending accepted")
	}
}

func TestClientToolCalls(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t, "t")
	a := history.ClientToolCall{ToolCallID: "a", ThreadID: "t", RunID: "r", ToolName: "open_url", Arguments: `{"url":"https://x"}`, State: history.ClientToolPending, CreatedAt: 5}
	b := history.ClientToolCall{ToolCallID: "b", ThreadID: "t", RunID: "r", ToolName: "copy_to_clipboard", Arguments: `{}`, State: history.ClientToolPending, CreatedAt: 1}
	for _, c := range []history.ClientToolCall{a, b} {
		if err := db.PutClientToolCall(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	if p, err := db.PendingClientToolCalls(ctx, "t"); err != nil || !reflect.DeepEqual(p, []history.ClientToolCall{a, b}) {
		t.Errorf("pending = %+v, %v", p, err)
	}
	a.State, a.Result = history.ClientToolDone, "opened"
	if err := db.PutClientToolCall(ctx, a); err != nil {
		t.Fatal(err)
	}
	if p, _ := db.PendingClientToolCalls(ctx, "t"); len(p) != 1 || p[0].ToolCallID != "b" {
		t.Errorf("pending after done = %+v", p)
	}
	if got, err := db.ClientToolCall(ctx, "t", "a"); err != nil || !reflect.DeepEqual(got, a) {
		t.Errorf("ClientToolCall(a) = %+v, %v", got, err)
	}
	if _, err := db.ClientToolCall(ctx, "t", "nope"); !isNotFound(err) {
		t.Errorf("ClientToolCall(nope) = %v", err)
	}
}

func TestPermissionRules(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	rules := []history.PermissionRule{
		{ID: "r1", Tool: "run_command", Scope: history.ScopeCommandPrefix, Pattern: "git status", CreatedAt: 1},
		{ID: "r2", Tool: "read_file", Scope: history.ScopeFolder, Pattern: "/home/me/src", CreatedAt: 2},
	}
	for _, r := range append(rules, history.PermissionRule{ID: "dup", Tool: "read_file", Scope: history.ScopeFolder, Pattern: "/home/me/src"}) {
		if err := db.AddPermissionRule(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	for i := range rules { // stored with the defaults: allow, until revoked
		rules[i].Effect, rules[i].Duration = history.EffectAllow, history.DurationForever
	}
	if got, err := db.PermissionRules(ctx); err != nil || !reflect.DeepEqual(got, rules) {
		t.Errorf("rules = %+v, %v; want %+v (duplicate ignored)", got, err, rules)
	}
	if err := db.RevokePermissionRule(ctx, "r1", history.TransportWindow); err != nil {
		t.Fatal(err)
	}
	if err := db.RevokePermissionRule(ctx, "r1", history.TransportWindow); !isNotFound(err) {
		t.Errorf("second revoke = %v, want ErrNotFound", err)
	}
	if got, _ := db.PermissionRules(ctx); len(got) != 1 || got[0].ID != "r2" {
		t.Errorf("after revoke = %+v", got)
	}
}

func TestSettings(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	if s, err := db.Settings(ctx); err != nil || len(s) != 0 {
		t.Errorf("initial settings = %v, %v", s, err)
	}
	if err := db.SaveSettings(ctx, map[string]string{"model": "a", "theme": "dark"}); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveSettings(ctx, map[string]string{"model": "b", "baseUrl": "http://localhost:11434/v1"}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"model": "b", "theme": "dark", "baseUrl": "http://localhost:11434/v1"}
	if s, err := db.Settings(ctx); err != nil || !reflect.DeepEqual(s, want) {
		t.Errorf("settings = %v, %v; want %v", s, err, want)
	}
}

func TestPendingCounts(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	for _, id := range []string{"a", "b", "c", "d"} {
		mustThread(t, db, id, "")
	}
	desc := json.RawMessage(`{"id":"x"}`)
	its := []history.Interrupt{
		{ID: "a1", ThreadID: "a", RunID: "r", Kind: history.KindToolApproval, Descriptor: desc},
		{ID: "a2", ThreadID: "a", RunID: "r", Kind: history.KindGeneric, Descriptor: desc},
		{ID: "b1", ThreadID: "b", RunID: "r", Kind: history.KindGeneric, Descriptor: desc, Status: history.InterruptResolved},
		{ID: "d1", ThreadID: "d", RunID: "r", Kind: history.KindGeneric, Descriptor: desc},
	}
	if err := db.PutInterrupts(ctx, its); err != nil {
		t.Fatal(err)
	}
	for _, c := range []history.ClientToolCall{
		{ToolCallID: "ca", ThreadID: "a", RunID: "r", ToolName: "open_url"},
		{ToolCallID: "cb", ThreadID: "b", RunID: "r", ToolName: "open_url"},
		{ToolCallID: "cc", ThreadID: "c", RunID: "r", ToolName: "open_url", State: history.ClientToolDone},
	} {
		if err := db.PutClientToolCall(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	// d is waiting but not asked about; "nope" is unknown; "a" is listed twice.
	got, err := db.PendingCounts(ctx, []string{"a", "b", "c", "nope", "a"})
	if want := map[string]int{"a": 3, "b": 1}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("PendingCounts = %v, %v; want %v", got, err, want)
	}
	if got, err := db.PendingCounts(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("PendingCounts(nil) = %v, %v", got, err)
	}
	// Answering the last items empties the count.
	if err := db.ResolveInterrupts(ctx, "d", []Resolution{{ID: "d1", Status: history.InterruptCancelled}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.PendingCounts(ctx, []string{"d"}); len(got) != 0 {
		t.Errorf("after resolving d1: %v", got)
	}
}

package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

// The store's sentinels are the runtime's: errors from one package are
// recognised with the other's names.
func TestErrorsAreHistorys(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	if _, err := db.Thread(ctx, "nope"); !errors.Is(err, history.ErrNotFound) || !errors.Is(err, ErrNotFound) {
		t.Errorf("Thread(nope) = %v, want history.ErrNotFound", err)
	}
	mustThread(t, db, "t", "")
	err := db.ResolveInterrupts(ctx, "t", []Resolution{{ID: "zz", Status: history.InterruptCancelled}})
	var conflict *history.ConflictError
	if !errors.As(err, &conflict) || !reflect.DeepEqual(conflict.IDs, []string{"zz"}) {
		t.Fatalf("ResolveInterrupts(zz) = %v, want *history.ConflictError", err)
	}
	if want := "history: items not pending: zz"; err.Error() != want {
		t.Errorf("conflict message = %q, want %q", err.Error(), want)
	}
}

// settleFixture: thread t with two pending interrupts, one resolved, two
// pending client calls and one done; thread other with a pending interrupt
// and a pending client call that reuses t's call id c1. Every pending item
// of t has a staged answer.
func settleFixture(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	mustThread(t, db, "t", "")
	mustThread(t, db, "other", "")
	desc := json.RawMessage(`{"id":"x"}`)
	if err := db.PutInterrupts(ctx, []history.Interrupt{
		{ID: "i1", ThreadID: "t", RunID: "r", Kind: history.KindToolApproval, ToolCallID: "w1", Descriptor: desc},
		{ID: "i2", ThreadID: "t", RunID: "r", Kind: history.KindGeneric, Descriptor: desc},
		{ID: "i-done", ThreadID: "t", RunID: "r0", Kind: history.KindGeneric, Descriptor: desc, Status: history.InterruptResolved},
		{ID: "o1", ThreadID: "other", RunID: "ro", Kind: history.KindGeneric, Descriptor: desc},
	}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []history.ClientToolCall{
		{ToolCallID: "c1", ThreadID: "t", RunID: "r", ToolName: "copy_to_clipboard"},
		{ToolCallID: "c2", ThreadID: "t", RunID: "r", ToolName: "open_url", Arguments: `{"url":"https://x"}`},
		{ToolCallID: "c-done", ThreadID: "t", RunID: "r0", ToolName: "open_url", State: history.ClientToolDone, Result: "opened"},
		{ToolCallID: "c1", ThreadID: "other", RunID: "ro", ToolName: "copy_to_clipboard"},
	} {
		if err := db.PutClientToolCall(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.StageAnswers(ctx, "t", []history.StagedAnswer{
		{ItemID: "i1", Payload: json.RawMessage(`{"approved":true}`)},
		{ItemID: "i2", Payload: json.RawMessage(`{"answer":"blue"}`)},
		{ItemID: "c1", Payload: json.RawMessage(`{"result":"copied"}`)},
		{ItemID: "c2", Payload: json.RawMessage(`{"result":"opened"}`)},
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.StageAnswers(ctx, "other", []history.StagedAnswer{{ItemID: "c1", Payload: json.RawMessage(`1`)}}); err != nil {
		t.Fatal(err)
	}
}

// settleState is everything Settle may change, to compare before and after.
type settleState struct {
	Interrupts  []history.Interrupt
	ClientCalls []history.ClientToolCall
	Rules       []history.PermissionRule
	Staged      map[string][]history.StagedAnswer
}

func snapshotSettle(t *testing.T, db *DB) settleState {
	t.Helper()
	ctx := context.Background()
	var s settleState
	rows, err := db.r.QueryContext(ctx, "SELECT "+interruptCols+" FROM interrupts ORDER BY seq")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		it, err := scanInterrupt(rows)
		if err != nil {
			t.Fatal(err)
		}
		s.Interrupts = append(s.Interrupts, it)
	}
	rows.Close()
	rows, err = db.r.QueryContext(ctx, "SELECT "+clientToolCols+" FROM client_tool_calls ORDER BY seq")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		c, err := scanClientTool(rows)
		if err != nil {
			t.Fatal(err)
		}
		s.ClientCalls = append(s.ClientCalls, c)
	}
	rows.Close()
	if s.Rules, err = db.PermissionRules(ctx); err != nil {
		t.Fatal(err)
	}
	s.Staged = map[string][]history.StagedAnswer{}
	for _, th := range []string{"t", "other"} {
		if s.Staged[th], err = db.StagedAnswers(ctx, th); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func stagedIDs(t *testing.T, db *DB, thread string) string {
	t.Helper()
	staged, err := db.StagedAnswers(context.Background(), thread)
	if err != nil {
		t.Fatal(err)
	}
	s := ""
	for i, a := range staged {
		if i > 0 {
			s += ","
		}
		s += a.ItemID
	}
	return s
}

func TestSettleAllOrNothing(t *testing.T) {
	t.Parallel()
	resolve := func(id string) history.Resolution {
		return history.Resolution{ID: id, Status: history.InterruptResolved, Response: json.RawMessage(`{"ok":1}`)}
	}
	done := func(id string) history.ClientToolCall {
		return history.ClientToolCall{ToolCallID: id, State: history.ClientToolDone, Result: "r"}
	}
	rule := history.PermissionRule{Tool: "write_file", Scope: history.ScopeFolder, Pattern: "/w"}
	for _, c := range []struct {
		name string
		s    history.Settlement
		bad  []string
	}{
		{"answered interrupt", history.Settlement{Interrupts: []history.Resolution{resolve("i1"), resolve("i-done")}}, []string{"i-done"}},
		{"unknown interrupt", history.Settlement{Interrupts: []history.Resolution{resolve("zz"), resolve("i1")}}, []string{"zz"}},
		{"interrupt of another thread", history.Settlement{Interrupts: []history.Resolution{resolve("o1")}}, []string{"o1"}},
		{"interrupt twice", history.Settlement{Interrupts: []history.Resolution{resolve("i2"), resolve("i2")}}, []string{"i2"}},
		{"done client call", history.Settlement{ClientCalls: []history.ClientToolCall{done("c1"), done("c-done")}}, []string{"c-done"}},
		{"unknown client call", history.Settlement{ClientCalls: []history.ClientToolCall{done("c9")}}, []string{"c9"}},
		{"client call twice", history.Settlement{ClientCalls: []history.ClientToolCall{done("c2"), done("c2")}}, []string{"c2"}},
		{"every late item listed", history.Settlement{
			Interrupts:  []history.Resolution{resolve("i1"), resolve("i-done"), resolve("o1")},
			ClientCalls: []history.ClientToolCall{done("c1"), done("c-done"), done("nope")},
		}, []string{"i-done", "o1", "c-done", "nope"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			db, ctx := openFixture(t)
			settleFixture(t, db)
			before := snapshotSettle(t, db)
			c.s.ThreadID = "t"
			c.s.Rules = []history.PermissionRule{rule}
			err := db.Settle(ctx, c.s)
			var conflict *ConflictError
			if !errors.As(err, &conflict) || !reflect.DeepEqual(conflict.IDs, c.bad) {
				t.Fatalf("Settle = %v, want a conflict on %v", err, c.bad)
			}
			if after := snapshotSettle(t, db); !reflect.DeepEqual(after, before) {
				t.Errorf("a conflicting Settle changed something:\nbefore %+v\nafter  %+v", before, after)
			}
			if rules, _ := db.PermissionRules(ctx); len(rules) != 0 {
				t.Errorf("a conflicting Settle wrote rules: %+v", rules)
			}
		})
	}
}

func TestSettleRejectsInvalid(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	settleFixture(t, db)
	before := snapshotSettle(t, db)
	ok := history.Resolution{ID: "i1", Status: history.InterruptResolved}
	for _, c := range []struct {
		name string
		s    history.Settlement
	}{
		{"no thread", history.Settlement{Interrupts: []history.Resolution{ok}}},
		{"interrupt to pending", history.Settlement{ThreadID: "t", Interrupts: []history.Resolution{{ID: "i1", Status: history.InterruptPending}}}},
		{"interrupt without status", history.Settlement{ThreadID: "t", Interrupts: []history.Resolution{{ID: "i1"}}}},
		{"response not JSON", history.Settlement{ThreadID: "t", Interrupts: []history.Resolution{{ID: "i1", Status: history.InterruptResolved, Response: json.RawMessage("{oops")}}}},
		{"client call to pending", history.Settlement{ThreadID: "t", ClientCalls: []history.ClientToolCall{{ToolCallID: "c1", State: history.ClientToolPending}}}},
		{"client call without id", history.Settlement{ThreadID: "t", ClientCalls: []history.ClientToolCall{{State: history.ClientToolDone}}}},
		{"client call of another thread", history.Settlement{ThreadID: "t", ClientCalls: []history.ClientToolCall{{ToolCallID: "c1", ThreadID: "other", State: history.ClientToolDone}}}},
		{"rule without tool", history.Settlement{ThreadID: "t", Interrupts: []history.Resolution{ok}, Rules: []history.PermissionRule{{Scope: history.ScopeTool}}}},
		{"rule without scope", history.Settlement{ThreadID: "t", Interrupts: []history.Resolution{ok}, Rules: []history.PermissionRule{{Tool: "read_file"}}}},
	} {
		err := db.Settle(ctx, c.s)
		var conflict *ConflictError
		if err == nil || errors.As(err, &conflict) {
			t.Errorf("%s: Settle = %v, want a validation error", c.name, err)
		}
	}
	if after := snapshotSettle(t, db); !reflect.DeepEqual(after, before) {
		t.Errorf("an invalid Settle changed something:\nbefore %+v\nafter  %+v", before, after)
	}
}

func TestSettleWritesEverything(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	settleFixture(t, db)
	existing := history.PermissionRule{ID: "keep", Tool: "run_command", Scope: history.ScopeCommandPrefix, Pattern: "git status", CreatedAt: 7}
	if err := db.AddPermissionRule(ctx, existing); err != nil {
		t.Fatal(err)
	}
	rules := []history.PermissionRule{
		{Tool: "write_file", Scope: history.ScopeFolder, Pattern: "/work"},                           // id and time filled
		{ID: "again", Tool: "run_command", Scope: history.ScopeCommandPrefix, Pattern: "git status"}, // same as "keep"
		{ID: "tool", Tool: "open_url", Scope: history.ScopeTool, CreatedAt: 9},
		{ID: "tool-dup", Tool: "open_url", Scope: history.ScopeTool}, // twice in one settlement
	}
	callerRules := append([]history.PermissionRule(nil), rules...)
	resp := json.RawMessage(`{"approved": true}`)
	err := db.Settle(ctx, history.Settlement{
		ThreadID: "t",
		Interrupts: []history.Resolution{
			{ID: "i1", Status: history.InterruptResolved, Response: resp},
			{ID: "i2", Status: history.InterruptCancelled},
		},
		ClientCalls: []history.ClientToolCall{{ToolCallID: "c1", ThreadID: "t", State: history.ClientToolDone, Result: "copied"}},
		Rules:       rules,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rules, callerRules) {
		t.Errorf("Settle modified the caller's rules: %+v", rules)
	}
	i1, _ := db.Interrupt(ctx, "i1")
	if i1.Status != history.InterruptResolved || string(i1.Response) != string(resp) || i1.ResolvedAt == 0 {
		t.Errorf("i1 = %+v", i1)
	}
	if i2, _ := db.Interrupt(ctx, "i2"); i2.Status != history.InterruptCancelled || i2.Response != nil || i2.ResolvedAt == 0 {
		t.Errorf("i2 = %+v", i2)
	}
	if p, _ := db.PendingInterrupts(ctx, "t"); len(p) != 0 {
		t.Errorf("pending interrupts after Settle = %+v", p)
	}
	if c, _ := db.ClientToolCall(ctx, "t", "c1"); c.State != history.ClientToolDone || c.Result != "copied" || c.ToolName != "copy_to_clipboard" {
		t.Errorf("c1 = %+v", c)
	}
	// The other thread's c1 and this thread's c2 are untouched.
	if c, _ := db.ClientToolCall(ctx, "other", "c1"); c.State != history.ClientToolPending {
		t.Errorf("other's c1 = %+v", c)
	}
	if p, _ := db.PendingClientToolCalls(ctx, "t"); len(p) != 1 || p[0].ToolCallID != "c2" {
		t.Errorf("pending client calls = %+v", p)
	}
	got, _ := db.PermissionRules(ctx)
	// Stored with the defaults: allow, until revoked.
	stored := func(r history.PermissionRule) history.PermissionRule {
		r.Effect, r.Duration = history.EffectAllow, history.DurationForever
		return r
	}
	if len(got) != 3 || got[0] != stored(existing) || got[1].ID == "" || got[1].CreatedAt == 0 || got[1].Pattern != "/work" ||
		got[2] != stored(history.PermissionRule{ID: "tool", Tool: "open_url", Scope: history.ScopeTool, CreatedAt: 9}) {
		t.Errorf("rules = %+v", got)
	}
	// Staged answers of the settled items are gone, the others kept.
	if s := stagedIDs(t, db, "t"); s != "c2" {
		t.Errorf("staged answers of t = %s, want c2", s)
	}
	if s := stagedIDs(t, db, "other"); s != "c1" {
		t.Errorf("staged answers of other = %s, want c1", s)
	}
	// Settled is settled.
	err = db.Settle(ctx, history.Settlement{ThreadID: "t", Interrupts: []history.Resolution{{ID: "i1", Status: history.InterruptCancelled}}})
	var conflict *ConflictError
	if !errors.As(err, &conflict) || !reflect.DeepEqual(conflict.IDs, []string{"i1"}) {
		t.Errorf("second Settle of i1 = %v", err)
	}
	// Rules alone can be settled.
	if err := db.Settle(ctx, history.Settlement{ThreadID: "t", Rules: []history.PermissionRule{{Tool: "read_file", Scope: history.ScopeTool}}}); err != nil {
		t.Errorf("Settle of a rule alone: %v", err)
	}
	if got, _ := db.PermissionRules(ctx); len(got) != 4 {
		t.Errorf("rules after a rule-only Settle = %+v", got)
	}
}

// Two answers to the same item race: exactly one wins, the others are told
// they were late, and only the winner's rule is written.
func TestSettleFirstResolverWins(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"interrupt", "client call"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			db, ctx := openFixture(t)
			settleFixture(t, db)
			const racers = 6
			var wg sync.WaitGroup
			errs := make([]error, racers)
			for n := range racers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					s := history.Settlement{ThreadID: "t", Rules: []history.PermissionRule{
						{Tool: "write_file", Scope: history.ScopeFolder, Pattern: fmt.Sprintf("/racer-%d", n)},
					}}
					if kind == "interrupt" {
						s.Interrupts = []history.Resolution{{ID: "i1", Status: history.InterruptResolved, Response: json.RawMessage(fmt.Sprint(n))}}
					} else {
						s.ClientCalls = []history.ClientToolCall{{ToolCallID: "c1", State: history.ClientToolDone, Result: fmt.Sprint(n)}}
					}
					errs[n] = db.Settle(ctx, s)
				}()
			}
			wg.Wait()
			winner := -1
			for n, err := range errs {
				var conflict *ConflictError
				switch {
				case err == nil && winner == -1:
					winner = n
				case err == nil:
					t.Errorf("racers %d and %d both settled the item", winner, n)
				case !errors.As(err, &conflict) || len(conflict.IDs) != 1:
					t.Errorf("racer %d: %v, want a conflict", n, err)
				}
			}
			if winner == -1 {
				t.Fatal("nobody settled the item")
			}
			rules, _ := db.PermissionRules(ctx)
			if len(rules) != 1 || rules[0].Pattern != fmt.Sprintf("/racer-%d", winner) {
				t.Errorf("rules = %+v, want only racer %d's", rules, winner)
			}
			if kind == "interrupt" {
				if it, _ := db.Interrupt(ctx, "i1"); string(it.Response) != fmt.Sprint(winner) {
					t.Errorf("i1 answered by %s, want racer %d", it.Response, winner)
				}
			} else if c, _ := db.ClientToolCall(ctx, "t", "c1"); c.Result != fmt.Sprint(winner) {
				t.Errorf("c1 completed by %s, want racer %d", c.Result, winner)
			}
		})
	}
}

func TestStageAnswers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("order and upsert", func(t *testing.T) {
		t.Parallel()
		db := openTest(t)
		settleFixture(t, db) // stages i1, i2, c1, c2 in that order
		got, err := db.StagedAnswers(ctx, "t")
		if err != nil || len(got) != 4 || got[0].ItemID != "i1" || got[0].ThreadID != "t" || string(got[0].Payload) != `{"approved":true}` || got[0].CreatedAt == 0 {
			t.Fatalf("StagedAnswers = %+v, %v", got, err)
		}
		// Re-staging replaces the payload and keeps the place.
		if err := db.StageAnswers(ctx, "t", []history.StagedAnswer{{ThreadID: "t", ItemID: "i1", Payload: json.RawMessage(`{"approved":false}`)}}); err != nil {
			t.Fatal(err)
		}
		again, _ := db.StagedAnswers(ctx, "t")
		if stagedIDs(t, db, "t") != "i1,i2,c1,c2" || string(again[0].Payload) != `{"approved":false}` || again[0].CreatedAt != got[0].CreatedAt {
			t.Errorf("after re-staging i1: %+v", again)
		}
		// Order is CreatedAt first, then staging order.
		db2 := openTest(t)
		settleFixture(t, db2)
		if err := db2.DeleteThread(ctx, "other"); err != nil {
			t.Fatal(err)
		}
		if _, err := db2.w.ExecContext(ctx, "DELETE FROM staged_answers"); err != nil {
			t.Fatal(err)
		}
		if err := db2.StageAnswers(ctx, "t", []history.StagedAnswer{
			{ItemID: "c2", Payload: json.RawMessage(`2`), CreatedAt: 50},
			{ItemID: "i2", Payload: json.RawMessage(`2`), CreatedAt: 10},
			{ItemID: "c1", Payload: json.RawMessage(`2`), CreatedAt: 50},
			{ItemID: "i1", Payload: json.RawMessage(`2`), CreatedAt: 10},
		}); err != nil {
			t.Fatal(err)
		}
		if s := stagedIDs(t, db2, "t"); s != "i2,i1,c2,c1" {
			t.Errorf("staging order = %s, want i2,i1,c2,c1", s)
		}
		if s, err := db2.StagedAnswers(ctx, "nope"); err != nil || s == nil || len(s) != 0 {
			t.Errorf("StagedAnswers of an unknown thread = %#v, %v", s, err)
		}
	})
	for _, c := range []struct {
		name    string
		answers []history.StagedAnswer
		bad     []string // nil: a validation error, not a conflict
	}{
		{"resolved interrupt", []history.StagedAnswer{{ItemID: "i1", Payload: json.RawMessage(`3`)}, {ItemID: "i-done", Payload: json.RawMessage(`3`)}}, []string{"i-done"}},
		{"done client call", []history.StagedAnswer{{ItemID: "c-done", Payload: json.RawMessage(`3`)}, {ItemID: "c1", Payload: json.RawMessage(`3`)}}, []string{"c-done"}},
		{"unknown item", []history.StagedAnswer{{ItemID: "zz", Payload: json.RawMessage(`3`)}, {ItemID: "zz", Payload: json.RawMessage(`4`)}}, []string{"zz"}},
		{"item of another thread", []history.StagedAnswer{{ItemID: "o1", Payload: json.RawMessage(`3`)}}, []string{"o1"}},
		{"tool call id of an approval", []history.StagedAnswer{{ItemID: "w1", Payload: json.RawMessage(`3`)}}, []string{"w1"}},
		{"every late item", []history.StagedAnswer{{ItemID: "o1", Payload: json.RawMessage(`3`)}, {ItemID: "i2", Payload: json.RawMessage(`3`)}, {ItemID: "c-done", Payload: json.RawMessage(`3`)}}, []string{"o1", "c-done"}},
		{"payload not JSON", []history.StagedAnswer{{ItemID: "i1", Payload: json.RawMessage(`{oops`)}}, nil},
		{"empty payload", []history.StagedAnswer{{ItemID: "i1"}}, nil},
		{"empty item id", []history.StagedAnswer{{Payload: json.RawMessage(`3`)}}, nil},
		{"answer of another thread", []history.StagedAnswer{{ThreadID: "other", ItemID: "i1", Payload: json.RawMessage(`3`)}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			db := openTest(t)
			settleFixture(t, db)
			before := snapshotSettle(t, db)
			err := db.StageAnswers(ctx, "t", c.answers)
			var conflict *ConflictError
			if c.bad == nil {
				if err == nil || errors.As(err, &conflict) {
					t.Errorf("StageAnswers = %v, want a validation error", err)
				}
			} else if !errors.As(err, &conflict) || !reflect.DeepEqual(conflict.IDs, c.bad) {
				t.Errorf("StageAnswers = %v, want a conflict on %v", err, c.bad)
			}
			if after := snapshotSettle(t, db); !reflect.DeepEqual(after, before) {
				t.Errorf("a refused StageAnswers changed something:\nbefore %+v\nafter  %+v", before, after)
			}
		})
	}
}

// Staged answers are on disk: they survive closing and reopening, and go
// when their item stops being pending, whichever way it stops.
func TestStagedAnswersSurviveReopenAndGoWhenSettled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "juncture.db")
	db := mustOpen(t, ctx, path)
	settleFixture(t, db)
	want, _ := db.StagedAnswers(ctx, "t")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db = mustOpen(t, ctx, path)
	defer db.Close()
	if got, err := db.StagedAnswers(ctx, "t"); err != nil || !reflect.DeepEqual(got, want) || len(got) != 4 {
		t.Fatalf("after reopening: %+v, %v; want %+v", got, err, want)
	}
	if _, err := db.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	if s := stagedIDs(t, db, "t"); s != "i1,i2,c1,c2" {
		t.Errorf("recovery dropped staged answers: %s", s)
	}

	steps := []struct {
		name   string
		do     func() error
		staged string
	}{
		{"Settle", func() error {
			return db.Settle(ctx, history.Settlement{ThreadID: "t", Interrupts: []history.Resolution{{ID: "i1", Status: history.InterruptResolved}}})
		}, "i2,c1,c2"},
		{"ResolveInterrupts cancel", func() error {
			return db.ResolveInterrupts(ctx, "t", []Resolution{{ID: "i2", Status: history.InterruptCancelled}})
		}, "c1,c2"},
		{"PutClientToolCall cancelled", func() error {
			return db.PutClientToolCall(ctx, history.ClientToolCall{ToolCallID: "c1", ThreadID: "t", ToolName: "copy_to_clipboard", State: history.ClientToolCancelled})
		}, "c2"},
		{"PutClientToolCall still pending", func() error {
			return db.PutClientToolCall(ctx, history.ClientToolCall{ToolCallID: "c2", ThreadID: "t", ToolName: "open_url", State: history.ClientToolPending})
		}, "c2"},
		{"PutClientToolCall done", func() error {
			return db.PutClientToolCall(ctx, history.ClientToolCall{ToolCallID: "c2", ThreadID: "t", ToolName: "open_url", State: history.ClientToolDone, Result: "opened"})
		}, ""},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := stagedIDs(t, db, "t"); got != s.staged {
			t.Errorf("after %s staged answers = %q, want %q", s.name, got, s.staged)
		}
	}
	if s := stagedIDs(t, db, "other"); s != "c1" {
		t.Errorf("the other thread's staged answer = %q, want c1", s)
	}

	// An interrupt stored again as no longer pending loses its answer too.
	if err := db.StageAnswers(ctx, "other", []history.StagedAnswer{{ItemID: "o1", Payload: json.RawMessage(`true`)}}); err != nil {
		t.Fatal(err)
	}
	o1, _ := db.Interrupt(ctx, "o1")
	o1.Status = history.InterruptCancelled
	if err := db.PutInterrupts(ctx, []history.Interrupt{o1}); err != nil {
		t.Fatal(err)
	}
	if s := stagedIDs(t, db, "other"); s != "c1" {
		t.Errorf("after PutInterrupts(o1 cancelled) staged = %q, want c1", s)
	}
}

// Two threads may use the same tool call id (endpoints number calls per
// response): each thread has its own execution and its own client call.
func TestSameToolCallIDInTwoThreads(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	const id = "functions.read_file:0"
	mustThread(t, db, "a", "")
	mustThread(t, db, "b", "")
	execIn := func(thread, args string) history.ToolExecution {
		return history.ToolExecution{ToolCallID: id, ThreadID: thread, RunID: "run-" + thread, ToolName: "read_file", Arguments: args, StartedAt: 10}
	}

	for _, c := range []struct {
		name      string
		e         history.ToolExecution
		wantPrior string // "" = the caller may run the tool; else the prior's thread
	}{
		{"first in a", execIn("a", `{"path":"a.txt"}`), ""},
		{"first in b", execIn("b", `{"path":"b.txt"}`), ""},
		{"again in a", execIn("a", `{"path":"a.txt"}`), "a"},
		{"again in b", execIn("b", `{"path":"other"}`), "b"},
	} {
		prior, err := db.BeginToolExecution(ctx, c.e)
		switch {
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.wantPrior == "" && prior != nil:
			t.Errorf("%s: got prior %+v, want a fresh execution", c.name, prior)
		case c.wantPrior != "" && (prior == nil || prior.ThreadID != c.wantPrior || prior.Arguments != `{"path":"`+c.wantPrior+`.txt"}`):
			t.Errorf("%s: prior = %+v, want %s's record", c.name, prior, c.wantPrior)
		}
	}
	fin := execIn("b", `{"path":"b.txt"}`)
	fin.Result, fin.FinishedAt = "b contents", 20
	if err := db.FinishToolExecution(ctx, fin); err != nil {
		t.Fatal(err)
	}
	if a, err := db.ToolExecution(ctx, "a", id); err != nil || a.State != history.ToolStarted || a.Result != "" || a.RunID != "run-a" {
		t.Errorf("a's execution = %+v, %v", a, err)
	}
	if b, err := db.ToolExecution(ctx, "b", id); err != nil || b.State != history.ToolFinished || b.Result != "b contents" {
		t.Errorf("b's execution = %+v, %v", b, err)
	}
	if _, err := db.ToolExecution(ctx, "c", id); !isNotFound(err) {
		t.Errorf("ToolExecution of a thread without it = %v, want ErrNotFound", err)
	}

	// Recovery finishes a's (still started) in a's thread only.
	mustPut(t, db, assistantMsg("a", "a-asst", "", history.ToolCall{ID: id, Name: "read_file", Arguments: "{}"}))
	mustPut(t, db, assistantMsg("b", "b-asst", "", history.ToolCall{ID: id, Name: "read_file", Arguments: "{}"}), toolMsg("b", "b-tool", id, "read_file", "b contents"))
	rep, err := db.Recover(ctx)
	if err != nil || rep.FinishedToolExecutions != 1 || rep.AddedToolResults != 1 {
		t.Errorf("Recover = %+v, %v", rep, err)
	}
	if a, _ := db.ToolExecution(ctx, "a", id); a.State != history.ToolFinished || a.Result != history.ResultAppStoppedMidRun {
		t.Errorf("a's execution after recovery = %+v", a)
	}
	if b, _ := db.ToolExecution(ctx, "b", id); b.Result != "b contents" {
		t.Errorf("b's execution changed by a's recovery: %+v", b)
	}
	if got := ids(mustMessages(t, db, "b")); got != "b-asst,b-tool" {
		t.Errorf("b's messages after recovery = %s", got)
	}

	// Client tool calls: the same id, two independent calls.
	for _, th := range []string{"a", "b"} {
		if err := db.PutClientToolCall(ctx, history.ClientToolCall{ToolCallID: "call_0", ThreadID: th, RunID: "run-" + th, ToolName: "open_url"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.PutClientToolCall(ctx, history.ClientToolCall{ToolCallID: "call_0", ThreadID: "a", RunID: "run-a", ToolName: "open_url", State: history.ClientToolDone, Result: "opened"}); err != nil {
		t.Fatal(err)
	}
	if c, err := db.ClientToolCall(ctx, "a", "call_0"); err != nil || c.State != history.ClientToolDone || c.Result != "opened" {
		t.Errorf("a's call_0 = %+v, %v", c, err)
	}
	if c, err := db.ClientToolCall(ctx, "b", "call_0"); err != nil || c.State != history.ClientToolPending || c.RunID != "run-b" {
		t.Errorf("b's call_0 = %+v, %v", c, err)
	}
	if got, _ := db.PendingCounts(ctx, []string{"a", "b"}); !reflect.DeepEqual(got, map[string]int{"b": 1}) {
		t.Errorf("PendingCounts = %v", got)
	}
	// Settling b's call_0 leaves a's alone (and a's is not pending any more).
	if err := db.Settle(ctx, history.Settlement{ThreadID: "b", ClientCalls: []history.ClientToolCall{{ToolCallID: "call_0", State: history.ClientToolCancelled}}}); err != nil {
		t.Fatal(err)
	}
	if c, _ := db.ClientToolCall(ctx, "a", "call_0"); c.State != history.ClientToolDone || c.Result != "opened" {
		t.Errorf("a's call_0 after settling b's = %+v", c)
	}
	err = db.Settle(ctx, history.Settlement{ThreadID: "a", ClientCalls: []history.ClientToolCall{{ToolCallID: "call_0", State: history.ClientToolCancelled}}})
	var conflict *ConflictError
	if !errors.As(err, &conflict) || !reflect.DeepEqual(conflict.IDs, []string{"call_0"}) {
		t.Errorf("Settle of a's done call_0 = %v, want a conflict", err)
	}
}

func TestToolStateAndStepsRoundTrip(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t, "t")
	for _, c := range []struct {
		name  string
		state string
	}{
		{"empty", ""},
		{"done", "done"},
		{"denied", "denied"},
		{"changed", "interrupted-mid-run"},
	} {
		m := toolMsg("t", "tool-1", "call-1", "run_command", "result of "+c.name)
		m.ToolState = c.state
		mustPut(t, db, m)
		if got, err := db.Message(ctx, "tool-1"); err != nil || !reflect.DeepEqual(got, m) {
			t.Errorf("%s: Message = %+v, %v; want %+v", c.name, got, err, m)
		}
		if msgs := mustMessages(t, db, "t"); len(msgs) != 1 || msgs[0].ToolState != c.state {
			t.Errorf("%s: Messages = %+v", c.name, msgs)
		}
	}
	// Streaming snapshots keep it too.
	cp := db.NewCheckpointer(0)
	snap := history.Message{ID: "asst", ThreadID: "t", Role: history.RoleAssistant, Content: "x", ToolState: "running", Status: history.StatusStreaming, CreatedAt: 1}
	cp.Update(snap)
	if err := cp.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Message(ctx, "asst"); got.ToolState != "running" {
		t.Errorf("snapshot ToolState = %q", got.ToolState)
	}
	if err := cp.Close(); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name string
		run  history.Run
	}{
		{"no steps", history.Run{ID: "r1", ThreadID: "t", Status: history.RunRunning, StartedAt: 1}},
		{"steps", history.Run{ID: "r1", ThreadID: "t", Status: history.RunInterrupted, Steps: 7, StartedAt: 1, FinishedAt: 2}},
		{"continuation", history.Run{ID: "r2", ThreadID: "t", ParentRunID: "r1", Generation: 1, Status: history.RunFinished, Steps: 25, StartedAt: 3, FinishedAt: 4}},
	} {
		if err := db.PutRun(ctx, c.run); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got, err := db.Run(ctx, c.run.ID); err != nil || !reflect.DeepEqual(got, c.run) {
			t.Errorf("%s: Run = %+v, %v; want %+v", c.name, got, err, c.run)
		}
		if got, err := db.LatestRun(ctx, "t"); err != nil || !reflect.DeepEqual(got, c.run) {
			t.Errorf("%s: LatestRun = %+v, %v; want %+v", c.name, got, err, c.run)
		}
	}
	if err := db.PutRun(ctx, history.Run{ID: "r3", ThreadID: "t", Status: history.RunRunning, Steps: -1}); err == nil {
		t.Error("a negative step count was accepted")
	}
}

package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/history"
)

func allowAll(history.PermissionRule) bool { return true }

// TestGrantExpiresBetweenTwoCallsOfOneTurn: a 15-minute grant decides the
// first call; the clock passes its end before the second call of the same
// turn, which no rule decides (the person is asked) and the ledger says
// the rule expired.
func TestGrantExpiresBetweenTwoCallsOfOneTurn(t *testing.T) {
	db, ctx := openFixture(t)
	start := time.UnixMilli(10_000_000)
	exp, err := history.ExpiresFor(history.Duration15m, start)
	if err != nil {
		t.Fatal(err)
	}
	r := history.PermissionRule{ID: "r1", Tool: "run_command", Scope: history.ScopeTool, Duration: history.Duration15m,
		ExpiresAt: exp, CreatedAt: start.UnixMilli()}
	if err := db.AddPermissionRule(ctx, r); err != nil {
		t.Fatal(err)
	}
	q := RuleQuery{Now: start.Add(14*time.Minute + 59*time.Second).UnixMilli(), ThreadID: "t", TurnID: "u1", Tool: "run_command", CallID: "c1"}
	if got, ok, err := db.DecideByRule(ctx, q, allowAll); err != nil || !ok || got.ID != "r1" {
		t.Fatalf("first call: %+v %v %v; want decided by r1", got, ok, err)
	}
	q.Now, q.CallID = exp, "c2" // the very millisecond it ends
	if got, ok, err := db.DecideByRule(ctx, q, allowAll); err != nil || ok {
		t.Fatalf("second call: %+v %v %v; want asked", got, ok, err)
	}
	if rules, _ := db.PermissionRules(ctx); len(rules) != 0 {
		t.Errorf("rules after expiry = %+v; want none", rules)
	}
	kinds := ledgerKinds(t, db)
	want := []string{history.LedgerRuleCreated, history.LedgerAllowedByRule, history.LedgerRuleExpired}
	if !equalStrings(kinds, want) {
		t.Errorf("ledger = %v; want %v", kinds, want)
	}
}

// TestTurnGrantEndsWithItsTurn: a "this turn" rule decides calls of its
// turn only, and is recorded as expired once the chat's next turn asks.
func TestTurnGrantEndsWithItsTurn(t *testing.T) {
	db, ctx := openFixture(t)
	r := history.PermissionRule{ID: "r1", Tool: "read_file", Scope: history.ScopeTool, Duration: history.DurationTurn,
		ThreadID: "t", TurnID: "u1"}
	if err := db.AddPermissionRule(ctx, r); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		thread, turn string
		want         bool
	}{{"t", "u1", true}, {"other", "x", false}, {"t", "u2", false}, {"t", "u1", false}} {
		_, ok, err := db.DecideByRule(ctx, RuleQuery{Now: 5, ThreadID: tc.thread, TurnID: tc.turn, Tool: "read_file"}, allowAll)
		if err != nil || ok != tc.want {
			t.Errorf("%s/%s: decided %v, %v; want %v", tc.thread, tc.turn, ok, err, tc.want)
		}
	}
}

// TestDenyRuleBeatsAllowRule: an allow rule made first and a deny rule
// covering the same call: the deny rule decides, with its reason.
func TestDenyRuleBeatsAllowRule(t *testing.T) {
	db, ctx := openFixture(t)
	for _, r := range []history.PermissionRule{
		{ID: "allow", Tool: "run_command", Scope: history.ScopeTool},
		{ID: "deny", Tool: "run_command", Scope: history.ScopeCommandPrefix, Pattern: "rm -rf", Effect: history.EffectDeny, Reason: "never rm -rf anything"},
	} {
		if err := db.AddPermissionRule(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	got, ok, err := db.DecideByRule(ctx, RuleQuery{Now: 1, Tool: "run_command"}, allowAll)
	if err != nil || !ok || got.ID != "deny" || !got.IsDeny() || got.Reason != "never rm -rf anything" {
		t.Fatalf("decided by %+v %v %v; want the deny rule", got, ok, err)
	}
	rules, _ := db.PermissionRules(ctx)
	for _, r := range rules {
		if r.ID == "deny" && (r.Uses != 1 || r.LastUsedAt != 1) {
			t.Errorf("deny rule use = %d at %d; want 1 at 1", r.Uses, r.LastUsedAt)
		}
	}
}

func TestRuleChangesAreRecorded(t *testing.T) {
	db, ctx := openFixture(t)
	r := history.PermissionRule{ID: "r1", Tool: "run_command", Scope: history.ScopeCommandPrefix, Pattern: "git status", ThreadID: "t", Duration: history.DurationChat}
	if err := db.AddPermissionRule(ctx, r); err != nil {
		t.Fatal(err)
	}
	r.ID, r.Duration = "r2", history.DurationForever // the same rule again: a change
	if err := db.AddPermissionRule(ctx, r); err != nil {
		t.Fatal(err)
	}
	if err := db.SetRuleDuration(ctx, "r1", history.Duration1h, 1000, history.TransportWindow); err != nil {
		t.Fatal(err)
	}
	if err := db.SetRuleDuration(ctx, "r1", "a week", 1000, history.TransportWindow); err == nil {
		t.Error("an unknown duration was accepted")
	}
	rules, _ := db.PermissionRules(ctx)
	if len(rules) != 1 || rules[0].Duration != history.Duration1h || rules[0].ExpiresAt != 1000+3600_000 {
		t.Errorf("rules = %+v", rules)
	}
	if err := db.RevokePermissionRule(ctx, "r1", history.TransportWindow); err != nil {
		t.Fatal(err)
	}
	if err := db.RevokePermissionRule(ctx, "r1", history.TransportWindow); !errors.Is(err, ErrNotFound) {
		t.Errorf("second revoke: %v", err)
	}
	want := []string{history.LedgerRuleCreated, history.LedgerRuleChanged, history.LedgerRuleChanged, history.LedgerRuleRevoked}
	if kinds := ledgerKinds(t, db); !equalStrings(kinds, want) {
		t.Errorf("ledger = %v; want %v", kinds, want)
	}
}

func ledgerKinds(t *testing.T, db *DB) []string {
	t.Helper()
	es, err := db.Ledger(context.Background(), history.LedgerFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for i := len(es) - 1; i >= 0; i-- {
		kinds = append(kinds, es[i].Kind)
	}
	return kinds
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

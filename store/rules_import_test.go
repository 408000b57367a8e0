package store

import (
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

// TestAddPermissionRulesAllOrNothing: rules added together are added in
// one transaction: one the database refuses (here an effect its CHECK
// refuses) leaves none of the others, and no ledger entry for them.
func TestAddPermissionRulesAllOrNothing(t *testing.T) {
	db, ctx := openFixture(t)
	rules := []history.PermissionRule{
		{ID: "r1", Tool: "run_command", Scope: history.ScopeCommandPrefix, Pattern: "ls"},
		{ID: "r2", Tool: "read_file", Scope: history.ScopeTool},
		{ID: "r3", Tool: "write_file", Scope: history.ScopeTool, Effect: "maybe"},
	}
	if err := db.AddPermissionRules(ctx, rules, history.TransportWindow); err == nil {
		t.Fatal("a batch with a refused rule was added")
	}
	if got, _ := db.PermissionRules(ctx); len(got) != 0 {
		t.Errorf("rules after a refused batch = %+v; want none", got)
	}
	if kinds := ledgerKinds(t, db); len(kinds) != 0 {
		t.Errorf("ledger after a refused batch = %v; want nothing", kinds)
	}
	if err := db.AddPermissionRules(ctx, rules[:2], history.TransportWindow); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.PermissionRules(ctx); len(got) != 2 {
		t.Errorf("rules = %+v; want 2", got)
	}
}

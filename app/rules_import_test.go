package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

// rulesFile is an ExportRules text of n command rules with long patterns.
func rulesFile(t *testing.T, prefix string, n int) string {
	t.Helper()
	rules := make([]history.PermissionRule, n)
	for i := range rules {
		rules[i] = history.PermissionRule{Tool: "run_command", Scope: history.ScopeCommandPrefix,
			Pattern: fmt.Sprintf("%s %d %s", prefix, i, strings.Repeat("x", 3000))}
	}
	b, err := json.Marshal(rules)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestImportRulesAllOrNothing: an import the disk has room for only part
// of adds nothing (it used to keep the rules written before the failure
// while reporting 0 imported).
func TestImportRulesAllOrNothing(t *testing.T) {
	f := newFixture(t, nil)
	var n int
	if e := f.call(&n, "ImportRules", rulesFile(t, "first", 40)); e != nil || n != 40 {
		t.Fatalf("ImportRules = %d %v", n, e)
	}
	// Clearing the ledger frees its pages: a capped database has room
	// for some of the next rules, not all.
	if e := f.call(nil, "ClearLedger", "clear"); e != nil {
		t.Fatal(e)
	}
	db := f.svc.app.db
	ctx := context.Background()
	if err := db.LimitSize(ctx, 1); err != nil {
		t.Fatal(err)
	}
	defer db.LimitSize(ctx, 0)
	if e := f.call(&n, "ImportRules", rulesFile(t, "second", 80)); e == nil {
		t.Fatalf("an import past the disk's room succeeded (%d)", n)
	}
	db.LimitSize(ctx, 0)
	var rules []RuleView
	if e := f.call(&rules, "ListRules"); e != nil || len(rules) != 40 {
		t.Fatalf("after a failed import: %d rules, %v; want the first 40 only", len(rules), e)
	}
}

package app

import (
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

// TestRuleChangesRecordTheirTransport: a rule added, imported, given a new
// duration and revoked from a browser is recorded in the ledger as the
// browser's doing, not the desktop window's.
func TestRuleChangesRecordTheirTransport(t *testing.T) {
	f := newFixture(t, nil) // browser mode
	var added history.PermissionRule
	if e := f.call(&added, "AddRule", history.PermissionRule{Tool: "run_command", Scope: history.ScopeCommandPrefix,
		Pattern: "git push", Effect: history.EffectDeny}); e != nil {
		t.Fatal(e)
	}
	if e := f.call(nil, "SetRuleDuration", added.ID, history.Duration15m); e != nil {
		t.Fatal(e)
	}
	var n int
	if e := f.call(&n, "ImportRules", `[{"tool":"read_file","scope":"tool"}]`); e != nil || n != 1 {
		t.Fatalf("ImportRules = %d %v", n, e)
	}
	if e := f.call(nil, "RevokePermissionRule", added.ID); e != nil {
		t.Fatal(e)
	}
	var es []history.LedgerEntry
	if e := f.call(&es, "ListLedger", history.LedgerFilter{}); e != nil || len(es) != 4 {
		t.Fatalf("ListLedger = %+v %v; want 4 entries", es, e)
	}
	for _, e := range es {
		if e.Transport != history.TransportBrowser {
			t.Errorf("%s recorded by %q; want %q", e.Kind, e.Transport, history.TransportBrowser)
		}
	}
}

package app

import (
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/store"
)

// TestRulesAndLedgerMethods: a "Never" rule made in Settings, listed in
// words; its duration changed; rules exported and imported again (a bad
// import adds nothing); the ledger listed, verified, and cleared only
// with the confirmation.
func TestRulesAndLedgerMethods(t *testing.T) {
	f := newFixture(t, nil)
	var added history.PermissionRule
	if e := f.call(&added, "AddRule", history.PermissionRule{Tool: "run_command", Scope: history.ScopeCommandPrefix,
		Pattern: "rm -rf", Effect: history.EffectDeny, Reason: "never rm -rf"}); e != nil || added.ID == "" {
		t.Fatalf("AddRule = %+v %v", added, e)
	}
	f.must(nil, "SetRuleDuration", added.ID, history.Duration1h)
	var rules []RuleView
	if e := f.call(&rules, "ListRules"); e != nil || len(rules) != 1 || rules[0].Duration != history.Duration1h ||
		rules[0].ExpiresAt == 0 || !strings.HasPrefix(rules[0].Description, "Never allow run_command") {
		t.Fatalf("ListRules = %+v %v", rules, e)
	}
	var exported string
	f.must(&exported, "ExportRules")
	var n int
	bad := `[{"tool":"run_command","scope":"command-prefix","pattern":"ls"},{"tool":"x","scope":"everything"}]`
	if e := f.call(&n, "ImportRules", bad); e == nil {
		t.Fatal("an import with an unknown scope was accepted")
	}
	if e := f.call(&rules, "ListRules"); e != nil || len(rules) != 1 {
		t.Fatalf("a refused import added rules: %+v", rules)
	}
	if e := f.call(&n, "ImportRules", strings.Replace(exported, "rm -rf", "rm -fr", 1)); e != nil || n != 1 {
		t.Fatalf("ImportRules = %d %v", n, e)
	}
	var es []LedgerEntryView
	if e := f.call(&es, "ListLedger", history.LedgerFilter{Kind: history.LedgerRuleCreated}); e != nil || len(es) != 2 {
		t.Fatalf("ListLedger = %+v %v", es, e)
	}
	// A rule's entry carries the rule in Go's words, the sentence Settings shows.
	if es[1].Rule != rules[0].Description || es[0].Rule != `Never allow run_command when the command starts with "rm -fr"` {
		t.Fatalf("the ledger's rule words %q, %q; Settings says %q", es[1].Rule, es[0].Rule, rules[0].Description)
	}
	var rep store.LedgerReport
	if e := f.call(&rep, "VerifyLedger"); e != nil || !rep.OK || rep.Entries != 3 { // created, changed, imported
		t.Fatalf("VerifyLedger = %+v %v", rep, e)
	}
	if e := f.call(nil, "ClearLedger", ""); e == nil {
		t.Fatal("the ledger was cleared without the confirmation")
	}
	f.must(nil, "ClearLedger", "clear")
	if e := f.call(&es, "ListLedger", history.LedgerFilter{}); e != nil || len(es) != 1 || es[0].Kind != history.LedgerCleared {
		t.Fatalf("after clear: %+v %v", es, e)
	}
}

package rules

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/store"
)

// TestLedgerViewsOfADeletedChatCarryNoWords: a chat's rule outlives its
// chat; revoking or expiring it afterwards writes an entry of the deleted
// chat, which (like the chat's other entries) keeps only its shape: no
// rule words, no pattern.
func TestLedgerViewsOfADeletedChatCarryNoWords(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	const secret = "curl -H 'Authorization: Bearer sk-live-0123'"
	if err := db.CreateThread(ctx, history.Thread{ID: "th", Title: "t", CreatedAt: 1, UpdatedAt: 1}); err != nil {
		t.Fatal(err)
	}
	for i, d := range []string{history.DurationChat, history.DurationTurn} {
		r := history.PermissionRule{ID: []string{"r-chat", "r-turn"}[i], Tool: "run_command", Scope: history.ScopeCommandPrefix,
			Pattern: secret + d, CreatedAt: 1, Duration: d, ThreadID: "th", TurnID: "tu", ExpiresAt: 0}
		if d == history.DurationChat {
			r.TurnID = ""
		}
		if err := db.AddPermissionRule(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.DeleteThread(ctx, "th"); err != nil {
		t.Fatal(err)
	}
	if err := db.RevokePermissionRule(ctx, "r-chat", history.TransportWindow); err != nil {
		t.Fatal(err)
	}
	if err := db.RevokePermissionRule(ctx, "r-turn", history.TransportWindow); err != nil {
		t.Fatal(err)
	}
	es, err := db.Ledger(ctx, history.LedgerFilter{ThreadID: "th"})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range LedgerViews(es) {
		if strings.Contains(v.Rule, "sk-live") || strings.Contains(v.Arguments, "sk-live") {
			t.Errorf("entry %d (%s) of the deleted chat carries its rule: words %q, arguments %q", v.Seq, v.Kind, v.Rule, v.Arguments)
		}
	}
	if rep, err := db.VerifyLedger(ctx); err != nil || !rep.OK {
		t.Fatalf("VerifyLedger = %+v %v", rep, err)
	}
}

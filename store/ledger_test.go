package store

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

// scriptLedger records a small conversation's decisions.
func scriptLedger(t *testing.T, db *DB, thread string) {
	t.Helper()
	ctx := context.Background()
	mustThread(t, db, thread, "chat")
	if err := db.AddPermissionRule(ctx, history.PermissionRule{ID: "rule-" + thread, Tool: "run_command", Scope: history.ScopeCommandPrefix, Pattern: "git status"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.DecideByRule(ctx, RuleQuery{Now: 2, ThreadID: thread, Tool: "run_command", CallID: "c1", Arguments: `{"command":"git status"}`}, allowAll); err != nil {
		t.Fatal(err)
	}
	err := db.AppendLedger(ctx,
		history.LedgerEntry{Kind: history.LedgerApproved, ThreadID: thread, CallID: "c2", Tool: "write_file", Arguments: `{"path":"a.txt","content":"hello"}`, Transport: history.TransportWindow},
		history.LedgerEntry{Kind: history.LedgerOutcome, ThreadID: thread, CallID: "c2", Tool: "write_file", Outcome: "ran"},
		history.LedgerEntry{Kind: history.LedgerApprovedEdited, ThreadID: thread, CallID: "c3", Tool: "run_command", Arguments: `{"command":"ls -la"}`, Diff: "-ls\n+ls -la"},
		history.LedgerEntry{Kind: history.LedgerDenied, ThreadID: thread, CallID: "c4", Tool: "run_command", Arguments: `{"command":"curl x"}`, Reason: "LEDGER-MARKER-reason-no-network"},
		history.LedgerEntry{Kind: history.LedgerAnswered, ThreadID: thread, CallID: "c5", Tool: "ask_user", Arguments: string(history.RedactSecrets([]byte(`{"user":"ann","password":"hunter2"}`), nil))},
		history.LedgerEntry{Kind: history.LedgerStopped, ThreadID: thread, CallID: "c6", Tool: "run_command"},
	)
	if err != nil {
		t.Fatal(err)
	}
}

// TestScriptedConversationLedgerVerifies: a conversation's decisions make
// a chain that verifies, and a secret answer is stored redacted.
func TestScriptedConversationLedgerVerifies(t *testing.T) {
	db, ctx := openFixture(t)
	scriptLedger(t, db, "t1")
	rep, err := db.VerifyLedger(ctx)
	if err != nil || !rep.OK || rep.Entries != 8 || rep.HeadHash == "" {
		t.Fatalf("verify = %+v, %v; want 8 entries, ok", rep, err)
	}
	es, _ := db.Ledger(ctx, history.LedgerFilter{Kind: history.LedgerAnswered})
	if len(es) != 1 || strings.Contains(es[0].Arguments, "hunter2") || !strings.Contains(es[0].Arguments, "ann") {
		t.Errorf("answered entry = %+v; want the password redacted, the user kept", es)
	}
	if es, _ := db.Ledger(ctx, history.LedgerFilter{Search: "no-network"}); len(es) != 1 || es[0].Kind != history.LedgerDenied {
		t.Errorf("search = %+v", es)
	}
}

// TestLedgerVerifyFindsOneEditedByte edits one byte of a ledger row in the
// database file itself and expects verify to name that row.
func TestLedgerVerifyFindsOneEditedByte(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "juncture.db")
	db := mustOpen(t, ctx, path)
	scriptLedger(t, db, "t1")
	es, _ := db.Ledger(ctx, history.LedgerFilter{Kind: history.LedgerDenied})
	if len(es) != 1 {
		t.Fatalf("denied entries = %+v", es)
	}
	want := es[0].Seq
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	marker := []byte("LEDGER-MARKER-reason-no-network")
	if bytes.Count(raw, marker) != 1 {
		t.Fatalf("the marker is in the file %d times; want once (is the WAL checkpointed?)", bytes.Count(raw, marker))
	}
	i := bytes.Index(raw, marker)
	raw[i+len("LEDGER-MARKER-")] = 'R' // "reason" becomes "Reason"
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	db = mustOpen(t, ctx, path)
	defer db.Close()
	rep, err := db.VerifyLedger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK || rep.BrokenSeq != want {
		t.Fatalf("verify = %+v; want entry %d broken", rep, want)
	}
}

// TestDeletedChatKeepsItsLedgerAsShapes: deleting a chat keeps its entries,
// arguments reduced to their shape, and the chain still verifies.
func TestDeletedChatKeepsItsLedgerAsShapes(t *testing.T) {
	db, ctx := openFixture(t)
	scriptLedger(t, db, "t1")
	if err := db.DeleteThread(ctx, "t1"); err != nil {
		t.Fatal(err)
	}
	es, _ := db.Ledger(ctx, history.LedgerFilter{ThreadID: "t1"})
	if len(es) != 8 { // the rule is no chat's: its entry is not among them
		t.Fatalf("entries of the deleted chat = %d; want 8", len(es))
	}
	for _, e := range es {
		if strings.Contains(e.Arguments, "hello") || strings.Contains(e.Arguments, "git status") || strings.Contains(e.Diff, "ls -la") {
			t.Errorf("entry %d kept its arguments: %q %q", e.Seq, e.Arguments, e.Diff)
		}
	}
	if es[0].Kind != history.LedgerChatDeleted {
		t.Errorf("newest entry = %s; want chat-deleted", es[0].Kind)
	}
	if rep, err := db.VerifyLedger(ctx); err != nil || !rep.OK {
		t.Fatalf("verify after delete = %+v, %v", rep, err)
	}
	// Only redaction may change a row.
	if _, err := db.w.ExecContext(ctx, "UPDATE ledger SET reason = 'x' WHERE seq = 1"); err == nil {
		t.Error("a ledger row was changed by an UPDATE")
	}
}

func TestClearLedgerIsRecorded(t *testing.T) {
	db, ctx := openFixture(t)
	scriptLedger(t, db, "t1")
	if err := db.ClearLedger(ctx, history.TransportWindow); err != nil {
		t.Fatal(err)
	}
	es, _ := db.Ledger(ctx, history.LedgerFilter{})
	if len(es) != 1 || es[0].Kind != history.LedgerCleared || es[0].Reason != "8 entries cleared" || es[0].PrevHash == "" {
		t.Fatalf("after clear = %+v", es)
	}
	if err := db.AppendLedger(ctx, history.LedgerEntry{Kind: history.LedgerApproved, Tool: "x"}); err != nil {
		t.Fatal(err)
	}
	if rep, err := db.VerifyLedger(ctx); err != nil || !rep.OK || rep.Entries != 2 {
		t.Fatalf("verify after clear = %+v, %v", rep, err)
	}
}

func TestExportLedger(t *testing.T) {
	db, ctx := openFixture(t)
	scriptLedger(t, db, "t1")
	if err := db.AppendLedger(ctx, history.LedgerEntry{Kind: history.LedgerDenied, Tool: "run_command", Reason: "=HYPERLINK(\"x\")"}); err != nil {
		t.Fatal(err)
	}
	var j, c bytes.Buffer
	if err := db.ExportLedger(ctx, &j, LedgerJSONL); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(j.String(), "\n"); n != 9 {
		t.Errorf("jsonl lines = %d; want 9", n)
	}
	if err := db.ExportLedger(ctx, &c, LedgerCSV); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&c).ReadAll()
	if err != nil || len(recs) != 10 {
		t.Fatalf("csv = %d records, %v", len(recs), err)
	}
	if got := recs[9][14]; got != `'=HYPERLINK("x")` {
		t.Errorf("formula cell = %q; want it quoted", got)
	}
	if err := db.ExportLedger(ctx, &c, "xml"); err == nil {
		t.Error("an unknown format was accepted")
	}
}

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/store"
)

// TestLedgerVerifyCommandFindsAnEditedByte: `juncture ledger verify` says
// ok for a recorded conversation, and names the entry whose byte was
// changed in the database file; export and clear work from the command
// line too.
func TestLedgerVerifyCommandFindsAnEditedByte(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "juncture.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	err = db.AppendLedger(ctx,
		history.LedgerEntry{Kind: history.LedgerApproved, ThreadID: "t", CallID: "c1", Tool: "run_command", Arguments: `{"command":"ls"}`},
		history.LedgerEntry{Kind: history.LedgerDenied, ThreadID: "t", CallID: "c2", Tool: "run_command", Reason: "CLI-MARKER-not-that"},
		history.LedgerEntry{Kind: history.LedgerOutcome, ThreadID: "t", CallID: "c1", Outcome: "ran"},
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	run := func(in string, args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := ledgerCmd(args, path, strings.NewReader(in), &out, &errb)
		return code, out.String() + errb.String()
	}
	if code, out := run("", "verify"); code != 0 || !strings.Contains(out, "ok: 3 entries") {
		t.Fatalf("verify = %d %q", code, out)
	}
	if code, out := run("", "export", "--format", "csv"); code != 0 || strings.Count(out, "\n") != 4 {
		t.Fatalf("export csv = %d %q", code, out)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(raw, []byte("CLI-MARKER-not-that"))
	if i < 0 {
		t.Fatal("the marker is not in the database file")
	}
	raw[i] = 'c'
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out := run("", "verify"); code != 2 || !strings.Contains(out, "BROKEN at entry 2 of 3") {
		t.Fatalf("verify after the edit = %d %q", code, out)
	}
	if code, _ := run("no\n", "clear"); code != 1 {
		t.Fatalf("clear without yes = %d", code)
	}
	if code, out := run("yes\n", "clear"); code != 0 {
		t.Fatalf("clear = %d %q", code, out)
	}
	if code, out := run("", "verify"); code != 0 || !strings.Contains(out, "ok: 1 entries") {
		t.Fatalf("verify after clear = %d %q", code, out)
	}
}

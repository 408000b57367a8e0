package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/history"
)

// The ledger is exported (CSV, JSONL) and kept after a chat is gone from
// view: an approved or denied call whose arguments hold a secret by field
// name (password, api_key, token) should have it redacted there as answers
// are (history.RedactSecrets).
func TestLedgerRedactsSecretArguments(t *testing.T) {
	ds := []decision{
		{call: history.ToolCall{ID: "c1", Name: "login", Arguments: `{"user":"me","password":"hunter2-secret"}`}, approved: true},
		{call: history.ToolCall{ID: "c2", Name: "fetch", Arguments: `{"api_key":"sk-live-secret"}`}, state: "denied", result: "no"},
	}
	for _, e := range (&Runtime{opts: Options{Now: time.Now}}).ledgerOf(context.Background(), "t", "r", &waiting{}, ds) {
		if strings.Contains(e.Arguments, "secret") {
			t.Errorf("%s %s: ledger keeps %s", e.Kind, e.Tool, e.Arguments)
		}
	}
}

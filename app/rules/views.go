package rules

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
	"github.com/juncture-app/juncture/store"
)

// Store is the rules and the ledger as the window's calls read them
// (*store.DB has it).
type Store interface {
	ExpireRules(ctx context.Context, now int64) (int, error)
	PermissionRules(ctx context.Context) ([]history.PermissionRule, error)
	ExportLedger(ctx context.Context, w io.Writer, format string) error
}

// RuleView is a rule as Settings lists it: the rule (scope, duration,
// end, last use, count), what it covers in words, and one call it would
// not cover.
type RuleView struct {
	history.PermissionRule
	Description string `json:"description"`
	Refuses     string `json:"refuses,omitempty"`
}

// InForce lists every rule in force, after recording the ones that ended
// as expired (a read-only copy records nothing).
func InForce(ctx context.Context, db Store, now time.Time) ([]RuleView, error) {
	if _, err := db.ExpireRules(ctx, now.UnixMilli()); err != nil && !errors.Is(err, store.ErrReadOnly) {
		return nil, err
	}
	rules, err := db.PermissionRules(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]RuleView, 0, len(rules))
	for _, r := range rules {
		v := RuleView{PermissionRule: r, Description: tools.Describe(r)}
		if !r.IsDeny() {
			v.Refuses = tools.RefusedExample(r)
		}
		out = append(out, v)
	}
	return out, nil
}

// Export is every rule as JSON (their use counts included): what
// ParseImport reads.
func Export(ctx context.Context, db Store) (string, error) {
	rules, err := db.PermissionRules(ctx)
	if err != nil {
		return "", err
	}
	b, err := json.MarshalIndent(rules, "", "  ")
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// maxLedgerExport bounds the ledger the window receives (the command
// line exports any size).
const maxLedgerExport = 64 << 20

// ExportLedger is the ledger as JSON lines or CSV, within 64 MiB.
func ExportLedger(ctx context.Context, db Store, format string) (string, error) {
	var buf bytes.Buffer
	if err := db.ExportLedger(ctx, &buf, format); err != nil {
		return "", err
	}
	if buf.Len() > maxLedgerExport {
		return "", errors.New("the ledger is over 64 MiB: export it with `juncture ledger export`")
	}
	return buf.String(), nil
}

// LedgerEntryView is a ledger entry as Activity lists it: the entry, and
// for a change of a rule (rule-created, -changed, -expired, -revoked) what
// the rule covers in the words Settings shows (tools.Describe), so the
// window never words a rule itself.
type LedgerEntryView struct {
	history.LedgerEntry
	Rule string `json:"rule,omitempty"`
}

// LedgerViews gives each entry its rule's words (none when its arguments
// are not a rule: another kind, or a deleted chat's redacted shape).
func LedgerViews(es []history.LedgerEntry) []LedgerEntryView {
	out := make([]LedgerEntryView, len(es))
	for i, e := range es {
		out[i] = LedgerEntryView{LedgerEntry: e}
		if !strings.HasPrefix(e.Kind, "rule-") || e.Redacted {
			continue
		}
		var r history.PermissionRule
		if json.Unmarshal([]byte(e.Arguments), &r) == nil && r.Tool != "" && r.Scope != "" {
			out[i].Rule = tools.Describe(r)
		}
	}
	return out
}

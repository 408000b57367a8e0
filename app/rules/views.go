package rules

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
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

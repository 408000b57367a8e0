package app

import (
	"errors"
	"time"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/app/rules"
	"github.com/juncture-app/juncture/store"
)

// RuleView is a rule as Settings lists it (rules.RuleView).
type RuleView = rules.RuleView

// ListRules lists every rule in force, after recording the ones that
// ended as expired.
func (a *App) ListRules() ([]RuleView, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	views, err := rules.InForce(ctx, a.db, time.Now())
	return views, asErrorOrNil(err)
}

// SetRuleDuration gives a rule a new duration counted from now.
func (a *App) SetRuleDuration(id, duration string) error {
	ctx, cancel := a.ctx()
	defer cancel()
	return asErrorOrNil(a.db.SetRuleDuration(ctx, id, duration, time.Now().UnixMilli(), a.transport()))
}

// AddRule adds a rule made in Settings (a "Never" rule, or an allow rule
// typed by the person); it returns it with its id.
func (a *App) AddRule(r history.PermissionRule) (history.PermissionRule, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	r, err := rules.Check(r, time.Now())
	if err != nil {
		return history.PermissionRule{}, asError(err)
	}
	if err := a.db.AddPermissionRules(ctx, []history.PermissionRule{r}, a.transport()); err != nil {
		return history.PermissionRule{}, asError(err)
	}
	return r, nil
}

// ExportRules returns every rule as JSON (their use counts included).
func (a *App) ExportRules() (string, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	text, err := rules.Export(ctx, a.db)
	return text, asErrorOrNil(err)
}

// ImportRules adds the rules of an ExportRules text, all or nothing
// (rules.ParseImport checks each as one made in Settings).
func (a *App) ImportRules(text string) (int, error) {
	rs, err := rules.ParseImport(text, time.Now())
	if err != nil {
		return 0, asError(err)
	}
	ctx, cancel := a.ctx()
	defer cancel()
	if err := a.db.AddPermissionRules(ctx, rs, a.transport()); err != nil { // all or nothing
		return 0, asError(err)
	}
	return len(rs), nil
}

// LedgerEntryView is a ledger entry as Activity lists it, a rule's change
// with the rule's words (rules.LedgerEntryView).
type LedgerEntryView = rules.LedgerEntryView

// ListLedger returns a page of the decision ledger, newest first.
func (a *App) ListLedger(f history.LedgerFilter) ([]LedgerEntryView, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	es, err := a.db.Ledger(ctx, f)
	if err != nil {
		return nil, asError(err)
	}
	return rules.LedgerViews(es), nil
}

// VerifyLedger checks every link of the ledger's chain.
func (a *App) VerifyLedger() (store.LedgerReport, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	rep, err := a.db.VerifyLedger(ctx)
	if err != nil {
		return store.LedgerReport{}, asError(err)
	}
	return rep, nil
}

// ExportLedger returns the ledger as JSON lines or CSV (at most 64 MiB).
func (a *App) ExportLedger(format string) (string, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	text, err := rules.ExportLedger(ctx, a.db, format)
	return text, asErrorOrNil(err)
}

// ClearLedger deletes the ledger; confirm must be "clear" (the window
// asked the person). The clear is the new ledger's first entry.
func (a *App) ClearLedger(confirm string) error {
	if confirm != "clear" {
		return asError(errors.New("clearing the ledger needs the person's confirmation"))
	}
	ctx, cancel := a.ctx()
	defer cancel()
	return asErrorOrNil(a.db.ClearLedger(ctx, a.transport()))
}

// transport names how this App is reached, for the ledger.
func (a *App) transport() string {
	if a.cfg.Mode == "browser" {
		return history.TransportBrowser
	}
	return history.TransportWindow
}

// ListPermissionRules lists the remembered "Always allow" rules.
func (a *App) ListPermissionRules() ([]history.PermissionRule, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	rules, err := a.db.PermissionRules(ctx)
	if err != nil {
		return nil, asError(err)
	}
	if rules == nil {
		rules = []history.PermissionRule{}
	}
	return rules, nil
}

// RevokePermissionRule deletes a remembered rule.
func (a *App) RevokePermissionRule(id string) error {
	ctx, cancel := a.ctx()
	defer cancel()
	return asErrorOrNil(a.db.RevokePermissionRule(ctx, id, a.transport()))
}

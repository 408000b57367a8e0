package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
	"github.com/juncture-app/juncture/store"
)

// RuleView is a rule as Settings lists it: the rule (scope, duration,
// end, last use, count), what it covers in words, and one call it would
// not cover.
type RuleView struct {
	history.PermissionRule
	Description string `json:"description"`
	Refuses     string `json:"refuses,omitempty"`
}

// ListRules lists every rule in force, after recording the ones that
// ended as expired.
func (a *App) ListRules() ([]RuleView, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	if _, err := a.db.ExpireRules(ctx, time.Now().UnixMilli()); err != nil && !errors.Is(err, store.ErrReadOnly) {
		return nil, asError(err)
	}
	rules, err := a.db.PermissionRules(ctx)
	if err != nil {
		return nil, asError(err)
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
	r, err := checkedRule(r, time.Now())
	if err != nil {
		return history.PermissionRule{}, asError(err)
	}
	if err := a.db.AddPermissionRules(ctx, []history.PermissionRule{r}, a.transport()); err != nil {
		return history.PermissionRule{}, asError(err)
	}
	return r, nil
}

// checkedRule validates a rule from outside (Settings, an import) and
// gives it a new id, its end and no use yet.
func checkedRule(r history.PermissionRule, now time.Time) (history.PermissionRule, error) {
	if r.Tool == "" || len(r.Tool) > 256 || len(r.Pattern) > 4096 || len(r.Glob) > 1024 || len(r.Arg) > 256 || len(r.Reason) > 2000 {
		return r, fmt.Errorf("%w: a rule needs a tool, and its fields have limits", agent.ErrBadRule)
	}
	switch r.Scope {
	case history.ScopeTool, history.ScopeCommandPrefix, history.ScopeCommandGlob, history.ScopeFolder, history.ScopeFile,
		history.ScopeFolderGlob, history.ScopeHost, history.ScopeArgEquals, history.ScopeArgPrefix, history.ScopeServer,
		history.ScopeServerTools, history.ScopeToolIdentity, history.ScopeThread:
	default:
		return r, fmt.Errorf("%w: unknown scope %q", agent.ErrBadRule, r.Scope)
	}
	if r.Effect != "" && r.Effect != history.EffectAllow && r.Effect != history.EffectDeny {
		return r, fmt.Errorf("%w: unknown effect %q", agent.ErrBadRule, r.Effect)
	}
	if r.Scope != history.ScopeTool && r.Pattern == "" {
		return r, fmt.Errorf("%w: the %s scope needs a pattern", agent.ErrBadRule, r.Scope)
	}
	if r.Duration == history.DurationTurn || (r.Duration == history.DurationChat && r.ThreadID == "") {
		return r, fmt.Errorf("%w: a rule made in Settings lasts for a time or until revoked", agent.ErrBadRule)
	}
	exp, err := history.ExpiresFor(r.Duration, now)
	if err != nil {
		return r, fmt.Errorf("%w: %w", agent.ErrBadRule, err)
	}
	r.ID, r.CreatedAt, r.ExpiresAt, r.TurnID, r.Uses, r.LastUsedAt = agent.NewID("rule"), now.UnixMilli(), exp, "", 0, 0
	return r, nil
}

// ExportRules returns every rule as JSON (their use counts included).
func (a *App) ExportRules() (string, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	rules, err := a.db.PermissionRules(ctx)
	if err != nil {
		return "", asError(err)
	}
	b, err := json.MarshalIndent(rules, "", "  ")
	if err != nil {
		return "", asError(err)
	}
	return string(b), nil
}

// maxRulesImport bounds an import: 1 MiB of JSON, 1000 rules.
const maxRulesImport, maxRulesImported = 1 << 20, 1000

// ImportRules adds the rules of an ExportRules text; each is checked as
// one made in Settings (new id, duration counted from now, "this turn"
// refused). Nothing is added unless every rule is valid.
func (a *App) ImportRules(text string) (int, error) {
	if len(text) > maxRulesImport {
		return 0, asError(fmt.Errorf("%w: the rules file is over 1 MiB", agent.ErrBadRule))
	}
	var rules []history.PermissionRule
	if err := json.Unmarshal([]byte(text), &rules); err != nil {
		return 0, asError(fmt.Errorf("%w: not a rules file: %w", agent.ErrBadRule, err))
	}
	if len(rules) > maxRulesImported {
		return 0, asError(fmt.Errorf("%w: over %d rules", agent.ErrBadRule, maxRulesImported))
	}
	now := time.Now()
	for i, r := range rules {
		if r.Duration == history.DurationChat {
			r.Duration = history.DurationForever // a chat rule leaves its chat as a plain rule only if it names it
			if r.ThreadID != "" {
				r.Duration = history.DurationChat
			}
		}
		c, err := checkedRule(r, now)
		if err != nil {
			return 0, asError(fmt.Errorf("rule %d: %w", i+1, err))
		}
		rules[i] = c
	}
	ctx, cancel := a.ctx()
	defer cancel()
	if err := a.db.AddPermissionRules(ctx, rules, a.transport()); err != nil { // all or nothing
		return 0, asError(err)
	}
	return len(rules), nil
}

// ListLedger returns a page of the decision ledger, newest first.
func (a *App) ListLedger(f history.LedgerFilter) ([]history.LedgerEntry, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	es, err := a.db.Ledger(ctx, f)
	if err != nil {
		return nil, asError(err)
	}
	return es, nil
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

// maxLedgerExport bounds what the window receives (the command line
// exports any size).
const maxLedgerExport = 64 << 20

// ExportLedger returns the ledger as JSON lines or CSV.
func (a *App) ExportLedger(format string) (string, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	var buf bytes.Buffer
	if err := a.db.ExportLedger(ctx, &buf, format); err != nil {
		return "", asError(err)
	}
	if buf.Len() > maxLedgerExport {
		return "", asError(errors.New("the ledger is over 64 MiB: export it with `juncture ledger export`"))
	}
	return buf.String(), nil
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

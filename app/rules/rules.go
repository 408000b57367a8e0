// Package rules is the permission rules and the ledger as Settings sees them.
//
// A rule from outside the runtime (made in Settings, imported) gets a new
// id, its end counted from now and no use yet; an import is all or
// nothing within 1 MiB and 1,000 rules; the window receives at most
// 64 MiB of ledger.
package rules

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/history"
)

// Check validates a rule from outside (Settings, an import) and gives it
// a new id, its end and no use yet.
func Check(r history.PermissionRule, now time.Time) (history.PermissionRule, error) {
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

// maxImport bounds an import: 1 MiB of JSON, 1000 rules.
const maxImport, maxImported = 1 << 20, 1000

// ParseImport reads the rules of an export (the facade's ExportRules);
// each is checked as one made in Settings (new id, duration counted from
// now, "this turn" refused). Any invalid rule refuses them all.
func ParseImport(text string, now time.Time) ([]history.PermissionRule, error) {
	if len(text) > maxImport {
		return nil, fmt.Errorf("%w: the rules file is over 1 MiB", agent.ErrBadRule)
	}
	var rules []history.PermissionRule
	if err := json.Unmarshal([]byte(text), &rules); err != nil {
		return nil, fmt.Errorf("%w: not a rules file: %w", agent.ErrBadRule, err)
	}
	if len(rules) > maxImported {
		return nil, fmt.Errorf("%w: over %d rules", agent.ErrBadRule, maxImported)
	}
	for i, r := range rules {
		if r.Duration == history.DurationChat {
			r.Duration = history.DurationForever // a chat rule leaves its chat as a plain rule only if it names it
			if r.ThreadID != "" {
				r.Duration = history.DurationChat
			}
		}
		c, err := Check(r, now)
		if err != nil {
			return nil, fmt.Errorf("rule %d: %w", i+1, err)
		}
		rules[i] = c
	}
	return rules, nil
}

package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/juncture-app/juncture/agent/history"
)

// AddPermissionRule remembers a rule ("Always allow" or "Never"). A rule
// with the same id changes nothing; one with the same tool, scope,
// pattern, argument, glob, effect and binding takes the new duration and
// reason (recorded as rule-changed); a new one is recorded as
// rule-created.
func (db *DB) AddPermissionRule(ctx context.Context, r history.PermissionRule) error {
	if r.ID == "" || r.Tool == "" || r.Scope == "" {
		return errors.New("store: add permission rule: empty id, tool or scope")
	}
	if r.CreatedAt == 0 {
		r.CreatedAt = db.now()
	}
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		return insertRule(ctx, tx, r, history.TransportWindow)
	})
	if err != nil {
		return fmt.Errorf("store: add permission rule %s: %w", r.ID, err)
	}
	return nil
}

const ruleColumns = `id, tool, scope, pattern, created_at, effect, arg, glob, reason, duration, expires_at,
thread_id, turn_id, last_used_at, uses`

func scanRule(s interface{ Scan(...any) error }) (history.PermissionRule, error) {
	var r history.PermissionRule
	err := s.Scan(&r.ID, &r.Tool, &r.Scope, &r.Pattern, &r.CreatedAt, &r.Effect, &r.Arg, &r.Glob, &r.Reason,
		&r.Duration, &r.ExpiresAt, &r.ThreadID, &r.TurnID, &r.LastUsedAt, &r.Uses)
	return r, err
}

// insertRule adds a checked rule and records it in the ledger (see
// AddPermissionRule).
func insertRule(ctx context.Context, tx *sql.Tx, r history.PermissionRule, transport string) error {
	if r.Effect == "" {
		r.Effect = history.EffectAllow
	}
	if r.Duration == "" {
		r.Duration = history.DurationForever
	}
	if r.Scope == history.ScopeThread && r.ThreadID == "" {
		r.ThreadID = r.Pattern
	}
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM permission_rules WHERE id = ?", r.ID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	kind := history.LedgerRuleCreated
	var existing string
	err := tx.QueryRowContext(ctx, `SELECT id FROM permission_rules WHERE tool = ? AND scope = ? AND pattern = ?
AND arg = ? AND glob = ? AND effect = ? AND thread_id = ? AND turn_id = ?`,
		r.Tool, r.Scope, r.Pattern, r.Arg, r.Glob, r.Effect, r.ThreadID, r.TurnID).Scan(&existing)
	switch {
	case err == nil:
		kind, r.ID = history.LedgerRuleChanged, existing
		_, err = tx.ExecContext(ctx, "UPDATE permission_rules SET duration = ?, expires_at = ?, reason = ? WHERE id = ?",
			r.Duration, r.ExpiresAt, r.Reason, r.ID)
	case errors.Is(err, sql.ErrNoRows):
		_, err = tx.ExecContext(ctx, `INSERT INTO permission_rules (`+ruleColumns+`)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0)`, r.ID, r.Tool, r.Scope, r.Pattern, r.CreatedAt, r.Effect,
			r.Arg, r.Glob, r.Reason, r.Duration, r.ExpiresAt, r.ThreadID, r.TurnID)
	}
	if err != nil {
		return err
	}
	return appendRuleEntry(ctx, tx, kind, r, r.CreatedAt, transport)
}

// appendRuleEntry records a change of a rule, the rule as its arguments.
func appendRuleEntry(ctx context.Context, tx *sql.Tx, kind string, r history.PermissionRule, at int64, transport string) error {
	r.LastUsedAt, r.Uses = 0, 0
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	e, err := appendLedger(ctx, tx, history.LedgerEntry{At: at, Kind: kind, ThreadID: r.ThreadID, Tool: r.Tool,
		Transport: transport, RuleID: r.ID, Arguments: string(b), Reason: r.Reason})
	if err != nil || r.ThreadID == "" {
		return err
	}
	// A chat's rule outlives its chat (revoked or expired later): its
	// entry is then one of a deleted chat's, kept as its shape only, as
	// redactThreadLedger keeps the others.
	var gone bool
	if err := tx.QueryRowContext(ctx, "SELECT NOT EXISTS (SELECT 1 FROM threads WHERE id = ?)", r.ThreadID).Scan(&gone); err != nil || !gone {
		return err
	}
	_, err = tx.ExecContext(ctx, "UPDATE ledger SET arguments = ?, redacted = 1 WHERE seq = ?", history.Shape(e.Arguments), e.Seq)
	return err
}

// PermissionRules returns every remembered rule, oldest first, including
// rules past their end that no decision has swept yet (ExpireRules).
func (db *DB) PermissionRules(ctx context.Context) ([]history.PermissionRule, error) {
	rows, err := db.r.QueryContext(ctx, "SELECT "+ruleColumns+" FROM permission_rules ORDER BY seq")
	if err != nil {
		return nil, fmt.Errorf("store: permission rules: %w", err)
	}
	defer rows.Close()
	rules := []history.PermissionRule{}
	for rows.Next() {
		r, err := scanRule(rows)
		if err != nil {
			return nil, fmt.Errorf("store: permission rules: %w", err)
		}
		rules = append(rules, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: permission rules: %w", err)
	}
	return rules, nil
}

// RevokePermissionRule forgets a rule and records it as done by transport
// (history.Transport*); ErrNotFound if there is none with that id.
func (db *DB) RevokePermissionRule(ctx context.Context, id, transport string) error {
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		r, err := scanRule(tx.QueryRowContext(ctx, "SELECT "+ruleColumns+" FROM permission_rules WHERE id = ?", id))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM permission_rules WHERE id = ?", id); err != nil {
			return err
		}
		return appendRuleEntry(ctx, tx, history.LedgerRuleRevoked, r, db.now(), transport)
	})
	if err != nil {
		return fmt.Errorf("store: revoke permission rule %s: %w", id, err)
	}
	return nil
}

// SetRuleDuration gives a rule a new duration counted from now (Unix ms)
// and records the change as done by transport; ErrNotFound if there is no
// such rule. A "turn" or "chat" duration needs the rule to be bound to a
// chat already.
func (db *DB) SetRuleDuration(ctx context.Context, id, duration string, now int64, transport string) error {
	exp, err := history.ExpiresFor(duration, time.UnixMilli(now))
	if err != nil {
		return fmt.Errorf("store: rule %s: %w", id, err)
	}
	err = db.writeTx(ctx, func(tx *sql.Tx) error {
		r, err := scanRule(tx.QueryRowContext(ctx, "SELECT "+ruleColumns+" FROM permission_rules WHERE id = ?", id))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if (duration == history.DurationChat || duration == history.DurationTurn) && r.ThreadID == "" {
			return fmt.Errorf("a rule made outside a chat cannot last for %q", duration)
		}
		if duration == history.DurationTurn && r.TurnID == "" {
			return errors.New("only a rule made in a turn can last for that turn")
		}
		if duration != history.DurationTurn {
			r.TurnID = ""
		}
		r.Duration, r.ExpiresAt = duration, exp
		if _, err := tx.ExecContext(ctx, "UPDATE permission_rules SET duration = ?, expires_at = ?, turn_id = ? WHERE id = ?",
			r.Duration, r.ExpiresAt, r.TurnID, id); err != nil {
			return err
		}
		return appendRuleEntry(ctx, tx, history.LedgerRuleChanged, r, now, transport)
	})
	if err != nil {
		return fmt.Errorf("store: set rule %s duration: %w", id, err)
	}
	return nil
}

// ExpireRules removes the rules past their end at now (Unix ms) and
// records each as rule-expired; it returns how many.
func (db *DB) ExpireRules(ctx context.Context, now int64) (int, error) {
	n := 0
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		var err error
		n, err = expireRules(ctx, tx, now, "", "")
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: expire rules: %w", err)
	}
	return n, nil
}

// expireRules removes and records the rules that have Ended at now (for
// threadID's turn turnID, when given).
func expireRules(ctx context.Context, tx *sql.Tx, now int64, threadID, turnID string) (int, error) {
	rows, err := tx.QueryContext(ctx, "SELECT "+ruleColumns+` FROM permission_rules
WHERE (expires_at != 0 AND expires_at <= ?) OR (turn_id != '' AND thread_id = ? AND turn_id != ?) ORDER BY seq`, now, threadID, turnID)
	if err != nil {
		return 0, err
	}
	var ended []history.PermissionRule
	for rows.Next() {
		r, err := scanRule(rows)
		if err != nil {
			rows.Close()
			return 0, err
		}
		if r.Ended(now, threadID, turnID) {
			ended = append(ended, r)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	for _, r := range ended {
		if _, err := tx.ExecContext(ctx, "DELETE FROM permission_rules WHERE id = ?", r.ID); err != nil {
			return 0, err
		}
		if err := appendRuleEntry(ctx, tx, history.LedgerRuleExpired, r, now, history.TransportRuntime); err != nil {
			return 0, err
		}
	}
	return len(ended), nil
}

// RuleQuery is history.RuleQuery (the store's name for it).
type RuleQuery = history.RuleQuery

// DecideByRule decides a call by the remembered rules, in one
// transaction: rules past their end are removed and recorded as expired
// first (an expired rule never decides a call, however short the time
// since it ended); then the first deny rule in force that match accepts
// refuses the call, else the first such allow rule lets it run. The
// deciding rule's use count and last use are updated, and the decision
// is appended to the ledger, in the same transaction. ok is false when no
// rule decides (the person is asked).
func (db *DB) DecideByRule(ctx context.Context, q RuleQuery, match func(history.PermissionRule) bool) (rule history.PermissionRule, ok bool, err error) {
	err = db.writeTx(ctx, func(tx *sql.Tx) error {
		if _, err := expireRules(ctx, tx, q.Now, q.ThreadID, q.TurnID); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, "SELECT "+ruleColumns+" FROM permission_rules ORDER BY effect = 'deny' DESC, seq")
		if err != nil {
			return err
		}
		var all []history.PermissionRule
		for rows.Next() {
			r, err := scanRule(rows)
			if err != nil {
				rows.Close()
				return err
			}
			all = append(all, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, r := range all {
			if q.DenyOnly && !r.IsDeny() {
				continue
			}
			if !r.InForce(q.Now, q.ThreadID, q.TurnID) || !match(r) {
				continue
			}
			rule, ok = r, true
			break
		}
		if !ok {
			return nil
		}
		rule.Uses++
		rule.LastUsedAt = q.Now
		if _, err := tx.ExecContext(ctx, "UPDATE permission_rules SET uses = uses + 1, last_used_at = ? WHERE id = ?", q.Now, rule.ID); err != nil {
			return err
		}
		kind := history.LedgerAllowedByRule
		if rule.IsDeny() {
			kind = history.LedgerDeniedByRule
		}
		_, err = appendLedger(ctx, tx, history.LedgerEntry{At: q.Now, Kind: kind, ThreadID: q.ThreadID, RunID: q.RunID,
			CallID: q.CallID, Tool: q.Tool, Server: q.Server, Transport: history.TransportRuntime, RuleID: rule.ID,
			Arguments: q.Arguments, Reason: rule.Reason})
		return err
	})
	if err != nil {
		return history.PermissionRule{}, false, fmt.Errorf("store: decide %s by rule: %w", q.Tool, err)
	}
	return rule, ok, nil
}

// Settings returns every saved setting.
func (db *DB) Settings(ctx context.Context) (map[string]string, error) {
	rows, err := db.r.QueryContext(ctx, "SELECT key, value FROM settings")
	if err != nil {
		return nil, fmt.Errorf("store: settings: %w", err)
	}
	defer rows.Close()
	s := make(map[string]string)
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("store: settings: %w", err)
		}
		s[k] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: settings: %w", err)
	}
	return s, nil
}

// SaveSettings stores the given keys (replacing their values) in one
// transaction; keys not given are left as they are.
func (db *DB) SaveSettings(ctx context.Context, s map[string]string) error {
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		for k, v := range s {
			if _, err := tx.ExecContext(ctx,
				"INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
				k, v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: save settings: %w", err)
	}
	return nil
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/agent/history"
)

// AddPermissionRule remembers an "Always allow". Adding a rule that already
// exists (same id, or same tool, scope and pattern) changes nothing.
func (db *DB) AddPermissionRule(ctx context.Context, r history.PermissionRule) error {
	if r.ID == "" || r.Tool == "" || r.Scope == "" {
		return errors.New("store: add permission rule: empty id, tool or scope")
	}
	if r.CreatedAt == 0 {
		r.CreatedAt = db.now()
	}
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		return insertRule(ctx, tx, r)
	})
	if err != nil {
		return fmt.Errorf("store: add permission rule %s: %w", r.ID, err)
	}
	return nil
}

// insertRule adds a checked rule; one with the same id, or the same tool,
// scope and pattern, is kept as it is.
func insertRule(ctx context.Context, tx *sql.Tx, r history.PermissionRule) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO permission_rules (id, tool, scope, pattern, created_at)
VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, r.ID, r.Tool, r.Scope, r.Pattern, r.CreatedAt)
	return err
}

// PermissionRules returns every remembered rule, oldest first.
func (db *DB) PermissionRules(ctx context.Context) ([]history.PermissionRule, error) {
	rows, err := db.r.QueryContext(ctx, "SELECT id, tool, scope, pattern, created_at FROM permission_rules ORDER BY seq")
	if err != nil {
		return nil, fmt.Errorf("store: permission rules: %w", err)
	}
	defer rows.Close()
	rules := []history.PermissionRule{}
	for rows.Next() {
		var r history.PermissionRule
		if err := rows.Scan(&r.ID, &r.Tool, &r.Scope, &r.Pattern, &r.CreatedAt); err != nil {
			return nil, fmt.Errorf("store: permission rules: %w", err)
		}
		rules = append(rules, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: permission rules: %w", err)
	}
	return rules, nil
}

// RevokePermissionRule forgets a rule; ErrNotFound if there is none with
// that id.
func (db *DB) RevokePermissionRule(ctx context.Context, id string) error {
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM permission_rules WHERE id = ?", id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: revoke permission rule %s: %w", id, err)
	}
	return nil
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

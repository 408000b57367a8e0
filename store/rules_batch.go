package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/agent/history"
)

// AddPermissionRules adds rules (an import, a rule made in Settings) in
// one transaction, each as AddPermissionRule would but recorded as done
// by transport: all of them, or none when one fails.
func (db *DB) AddPermissionRules(ctx context.Context, rules []history.PermissionRule, transport string) error {
	for _, r := range rules {
		if r.ID == "" || r.Tool == "" || r.Scope == "" {
			return errors.New("store: add permission rules: empty id, tool or scope")
		}
	}
	now := db.now()
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		for _, r := range rules {
			if r.CreatedAt == 0 {
				r.CreatedAt = now
			}
			if err := insertRule(ctx, tx, r, transport); err != nil {
				return fmt.Errorf("rule %s: %w", r.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: add permission rules: %w", err)
	}
	return nil
}

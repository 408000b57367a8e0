package store

import (
	"context"
	"database/sql"
	"fmt"
)

// ToolPin is what Juncture remembers about an MCP tool the first time it
// saw it: whether it said it was read-only (the app adapts it to
// ToolPin).
type ToolPin struct {
	Server    string
	Tool      string
	ReadOnly  bool
	FirstSeen int64 // ms since epoch
}

// ToolPins returns what Juncture remembers about every MCP tool it has
// seen (ToolPinStore).
func (db *DB) ToolPins(ctx context.Context) ([]ToolPin, error) {
	var pins []ToolPin
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, "SELECT server, tool, read_only, first_seen FROM mcp_tool_pins ORDER BY server, tool")
		if err != nil {
			return err
		}
		defer rows.Close()
		pins = nil
		for rows.Next() {
			var p ToolPin
			if err := rows.Scan(&p.Server, &p.Tool, &p.ReadOnly, &p.FirstSeen); err != nil {
				return err
			}
			pins = append(pins, p)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: loading MCP tool pins: %w", err)
	}
	return pins, nil
}

// SaveToolPin records (or updates) what Juncture remembers about one MCP
// tool; the first-seen time of an existing pin is kept.
func (db *DB) SaveToolPin(ctx context.Context, p ToolPin) error {
	err := db.writeTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO mcp_tool_pins (server, tool, read_only, first_seen) VALUES (?, ?, ?, ?)
ON CONFLICT (server, tool) DO UPDATE SET read_only = excluded.read_only`, p.Server, p.Tool, boolInt(p.ReadOnly), p.FirstSeen)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: saving the pin of MCP tool %s/%s: %w", p.Server, p.Tool, err)
	}
	return nil
}

package mcphost

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/store"
)

// What the app keeps for the MCP manager in the database: the log level
// chosen per server (a settings row) and the tools' pins.

// LogLevelsKey is the settings row of the chosen log levels (JSON,
// {server: level}).
const LogLevelsKey = "mcpLogLevels"

// Rows is the settings table as the log levels need it (*store.DB has it).
type Rows interface {
	Settings(ctx context.Context) (map[string]string, error)
	SaveSettings(ctx context.Context, s map[string]string) error
}

// LoadLogLevels gives the manager the saved levels before any server
// starts; a row that does not parse leaves the servers' defaults.
func LoadLogLevels(ctx context.Context, rows Rows, m *mcp.Manager, log *slog.Logger) {
	saved, err := rows.Settings(ctx)
	if err != nil || saved[LogLevelsKey] == "" {
		return
	}
	var levels map[string]string
	if err := json.Unmarshal([]byte(saved[LogLevelsKey]), &levels); err != nil {
		log.Warn("the saved MCP log levels do not parse; servers keep their defaults", "err", err)
		return
	}
	m.SetLogLevels(levels)
}

// SaveLogLevels saves the levels chosen now.
func SaveLogLevels(ctx context.Context, rows Rows, levels map[string]string) error {
	b, _ := json.Marshal(levels)
	return rows.SaveSettings(ctx, map[string]string{LogLevelsKey: string(b)})
}

// Pins adapts the store's tool pins to what the MCP manager needs.
type Pins struct{ DB *store.DB }

// ToolPins lists every pinned tool.
func (p Pins) ToolPins(ctx context.Context) ([]mcp.Pin, error) {
	pins, err := p.DB.ToolPins(ctx)
	out := make([]mcp.Pin, 0, len(pins))
	for _, s := range pins {
		out = append(out, mcp.Pin(s))
	}
	return out, err
}

// SaveToolPin pins a tool.
func (p Pins) SaveToolPin(ctx context.Context, pin mcp.Pin) error {
	return p.DB.SaveToolPin(ctx, store.ToolPin(pin))
}

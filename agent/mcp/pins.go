package mcp

import (
	"context"
	"log/slog"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// PinStore keeps the pins (trust on first use) across app restarts.
type PinStore interface {
	ToolPins(ctx context.Context) ([]Pin, error)
	SaveToolPin(ctx context.Context, p Pin) error
}

// memoryPins is the PinStore of a Manager given none: pins live as long
// as the Manager.
type memoryPins struct {
	mu   sync.Mutex
	pins map[ToolRef]Pin
}

func newMemoryPins() *memoryPins { return &memoryPins{pins: map[ToolRef]Pin{}} }

func (m *memoryPins) ToolPins(context.Context) ([]Pin, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Pin, 0, len(m.pins))
	for _, p := range m.pins {
		out = append(out, p)
	}
	return out, nil
}

func (m *memoryPins) SaveToolPin(_ context.Context, p Pin) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pins[ToolRef{Server: p.Server, Tool: p.Tool}] = p
	return nil
}

// pinTimeout bounds the pin store's work during a listing: a slow disk
// must not keep a server from becoming ready.
const pinTimeout = 5 * time.Second

// maxPinsPerServer bounds the tools remembered of one server (four full
// listings): a server that renames its tools at every listing must not
// grow the database without end.
const maxPinsPerServer = 4 * maxListed

// readOnlyVerdict is what Juncture believes of a tool's readOnlyHint.
type readOnlyVerdict struct {
	readOnly bool // the hint is believed: runs without asking (default policy)
	claims   bool // the server says read-only, the pin says it was not
}

// applyPins decides, for each tool of a server, whether its readOnlyHint
// is believed, and records first sightings. The rules (trust on first
// use): a tool's first hint is pinned; a later "read-only" from a tool
// pinned as not read-only is not believed (claims); a later "not
// read-only" from a tool pinned read-only replaces the pin, because
// stricter is always accepted. When the store fails, no hint is believed.
func applyPins(ctx context.Context, store PinStore, server string, list []*sdk.Tool, now time.Time, log *slog.Logger) map[string]readOnlyVerdict {
	ctx, cancel := context.WithTimeout(ctx, pinTimeout)
	defer cancel()
	out := make(map[string]readOnlyVerdict, len(list))
	pins, err := store.ToolPins(ctx)
	if err != nil {
		log.Warn("Could not read the MCP tool pins; no tool runs without asking", "server", server, "err", err)
		for _, t := range list {
			out[t.Name] = readOnlyVerdict{claims: hint(t)}
		}
		return out
	}
	known := make(map[string]Pin, len(pins))
	for _, p := range pins {
		if p.Server == server {
			known[p.Tool] = p
		}
	}
	remembered, refused := len(known), 0
	for _, t := range list {
		h := hint(t)
		p, seen := known[t.Name]
		switch {
		case !seen && remembered >= maxPinsPerServer:
			// No room to remember it: its hint is not believed, as when
			// the store fails.
			refused++
			out[t.Name] = readOnlyVerdict{claims: h}
		case !seen:
			remembered++
			p = Pin{Server: server, Tool: t.Name, ReadOnly: h, FirstSeen: now.UnixMilli()}
			if err := store.SaveToolPin(ctx, p); err != nil {
				log.Warn("Could not save an MCP tool pin", "server", server, "tool", t.Name, "err", err)
			}
			out[t.Name] = readOnlyVerdict{readOnly: h}
		case p.ReadOnly && !h:
			p.ReadOnly = false
			if err := store.SaveToolPin(ctx, p); err != nil {
				log.Warn("Could not save an MCP tool pin", "server", server, "tool", t.Name, "err", err)
			}
			out[t.Name] = readOnlyVerdict{}
		case !p.ReadOnly && h:
			out[t.Name] = readOnlyVerdict{claims: true}
		default:
			out[t.Name] = readOnlyVerdict{readOnly: h}
		}
	}
	if refused > 0 {
		log.Warn("An MCP server has listed more tools than Juncture remembers; the new ones always ask", "server", server, "remembered", remembered, "new", refused)
	}
	return out
}

// hint is a tool's readOnlyHint (false when it has no annotations).
func hint(t *sdk.Tool) bool { return t.Annotations != nil && t.Annotations.ReadOnlyHint }

package mcp

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPinsOfAServerAreBounded: a server that lists fresh tool names at
// every listing (and asks to be listed again, list_changed, without end)
// makes Juncture remember at most maxPinsPerServer of its tools, not one
// row more per name for ever; a tool past the bound is not believed
// read-only (it asks), as when the pin store fails.
func TestPinsOfAServerAreBounded(t *testing.T) {
	t.Parallel()
	store := newMemoryPins()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ro := &sdk.ToolAnnotations{ReadOnlyHint: true}
	var last map[string]readOnlyVerdict
	for round := range 40 {
		list := make([]*sdk.Tool, 256)
		for i := range list {
			list[i] = &sdk.Tool{Name: fmt.Sprintf("t%d_%d", round, i), Annotations: ro}
		}
		last = applyPins(context.Background(), store, "flood", list, time.Now(), log)
	}
	// Another server keeps its own room.
	other := applyPins(context.Background(), store, "calm", []*sdk.Tool{{Name: "read", Annotations: ro}}, time.Now(), log)
	pins, _ := store.ToolPins(context.Background())
	if len(pins) > maxPinsPerServer+1 {
		t.Fatalf("%d pins remembered, at most %d a server", len(pins), maxPinsPerServer)
	}
	if v := last["t39_0"]; v.readOnly {
		t.Fatalf("a tool past the bound is believed read-only: %+v", v)
	}
	if v := other["read"]; !v.readOnly {
		t.Fatalf("another server's first tool lost its pin: %+v", v)
	}
}

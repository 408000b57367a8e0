package main

import (
	"log/slog"
	"os"
	"time"

	// Reads the binary into the page cache in one sequential pass as the
	// process starts, instead of fault by fault (a cold launch reads nearly
	// all of it before the first key): see the package's doc.
	_ "github.com/juncture-app/juncture/internal/exeprefetch"
)

// startupMark logs, under JUNCTURE_BENCH=1, when the desktop start-up
// reached stage (epoch ms): scripts/bench-desktop.sh's start-up timeline
// puts these beside the page's own marks (frontend/src/lib/startupMarks.ts).
func startupMark(log *slog.Logger, stage string) {
	if os.Getenv("JUNCTURE_BENCH") == "1" {
		log.Info("bench startup", "stage", stage, "epoch_ms", time.Now().UnixMilli())
	}
}

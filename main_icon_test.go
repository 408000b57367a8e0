package main

import (
	"bytes"
	"image/png"
	"testing"
)

// TestWindowIconSmall: the embedded Linux window icon is a PNG of at most
// 256 px a side. GTK keeps it decoded for the window's life (width ×
// height × 4 bytes, plus what it hands the window manager); the 1024 px
// source embedded here cost ~6 MiB of idle memory.
func TestWindowIconSmall(t *testing.T) {
	cfg, err := png.DecodeConfig(bytes.NewReader(appIcon))
	if err != nil {
		t.Fatalf("the window icon is not a PNG: %v", err)
	}
	if cfg.Width > 256 || cfg.Height > 256 || cfg.Width < 64 || cfg.Width != cfg.Height {
		t.Errorf("window icon %d×%d px, want a square of 64–256 px", cfg.Width, cfg.Height)
	}
}

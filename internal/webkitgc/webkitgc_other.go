//go:build !linux

package webkitgc

import "log/slog"

// Configure does nothing here: macOS's web process does not inherit the
// app's environment, and Windows' WebView2 runs V8 (see the package doc).
func Configure(*slog.Logger) error { return nil }

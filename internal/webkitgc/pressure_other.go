//go:build !(desktop && linux && cgo)

package webkitgc

import "log/slog"

// ConfigurePressure does nothing here: only WebKitGTK's web context takes
// memory-pressure settings; macOS's WKWebView and Windows' WebView2 manage
// their web processes' memory themselves, and a build without the window
// has no web process.
func ConfigurePressure(*slog.Logger) error { return nil }

// ReportPressure does nothing here (see ConfigurePressure).
func ReportPressure(*slog.Logger) {}

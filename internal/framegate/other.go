//go:build !(desktop && linux && cgo)

package framegate

import (
	"io/fs"
	"net/http"
)

// Middleware is nil here: the window's page sends Wails' messages as they
// are. macOS Wails drops messages from any frame but the main one, and
// WebView2 (Windows) raises the event Wails handles for the top-level
// document only; browser mode has no such channel.
func (g *Gate) Middleware(fs.FS) (func(http.Handler) http.Handler, error) { return nil, nil }

// Install does nothing here (see Middleware).
func (g *Gate) Install() {}

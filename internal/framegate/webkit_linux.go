//go:build desktop && linux && cgo

package framegate

/*
#cgo linux pkg-config: gtk+-3.0
#cgo !webkit2_41 pkg-config: webkit2gtk-4.0
#cgo webkit2_41 pkg-config: webkit2gtk-4.1

void framegate_schedule(void);
*/
import "C"

import (
	"io/fs"
	"net/http"
	"sync/atomic"
)

// active is the gate the window's handler asks (a C callback has no Go
// value to carry it).
var active atomic.Pointer[Gate]

// Middleware is the asset server middleware that serves the window's page
// with the wrapper in it.
func (g *Gate) Middleware(assets fs.FS) (func(http.Handler) http.Handler, error) {
	return g.wrap(assets)
}

// Install puts the gate in front of Wails' message handler, on the GTK
// main thread, as soon as it runs; the outcome is logged. Call it once the
// window exists (OnStartup). Until it runs, messages reach Wails as before:
// only the window's own page exists then, and it already sends the secret.
func (g *Gate) Install() {
	if g.off {
		g.log.Warn("framegate: off: the frontend is not built (no index.html)")
		return
	}
	if !active.CompareAndSwap(nil, g) {
		g.log.Error("framegate: a gate is already installed")
		return
	}
	C.framegate_schedule()
}

// framegateFilter returns how many bytes of the message (n long) to skip
// before handing it to Wails, or -1 to drop it. Only its first headLen
// bytes are copied.
//
//export framegateFilter
func framegateFilter(msg *C.char, n C.size_t) C.long {
	g := active.Load()
	if g == nil {
		return -1
	}
	total := int(min(n, 1<<40))
	skip, ok := g.filterHead(C.GoStringN(msg, C.int(min(total, headLen))), total)
	if !ok {
		return -1
	}
	return C.long(skip)
}

// Outcomes of framegate_install (webkit_linux.c).
const (
	installed   = 0
	noWebView   = 1
	noForwarder = 2
)

//export framegateInstalled
func framegateInstalled(status, blocked C.int) {
	g := active.Load()
	if g == nil {
		return
	}
	switch status {
	case installed:
		if blocked == 1 {
			g.log.Info("framegate: on; only the window's page reaches Wails' messages")
			return
		}
		g.log.Error("framegate: on, but it blocked an unexpected number of Wails' handlers", "blocked", int(blocked))
	case noWebView:
		g.log.Error("framegate: off: no web view found; an MCP App view can post Wails' messages")
	case noForwarder:
		g.log.Error("framegate: off: Wails' processBindingMessage is not linked; an MCP App view can post Wails' messages")
	}
}

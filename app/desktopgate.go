package app

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"time"

	"github.com/juncture-app/juncture/app/web"
)

// DesktopGate is what the desktop window binds instead of *App. WebKit
// gives every frame of the page, an MCP App view's sandboxed frame with
// its opaque origin included, the native message handler Wails' bindings
// go through, and Wails checks the origin of the page's top address, not
// of the frame that sent the message: bound directly, every method of
// *App (AddRule, ImportRules, ClearLedger, SaveSettings…) would be a
// view's to call. Through the gate a call needs the gate's token. Any
// frame may ask Session for it, but Wails answers a call in the top frame
// only (the window's script), so a view never reads it.
//
// A call can come before OnStartup's StartWith has set the App up (Wails
// runs OnStartup beside making the window), or after a start that failed
// (its dialog is up while the page loads): it waits for the start, up to
// startWait, and is then refused as unavailable.
type DesktopGate struct {
	token     string
	calls     map[string]web.Call
	started   <-chan struct{}
	startWait time.Duration
}

// gateStartWait is how long a call waits for the App's start: longer than
// opening a large history on a slow disk takes.
const gateStartWait = 30 * time.Second

// NewDesktopGate makes a's gate, with a fresh token and browser mode's
// method table (every bound method, the read-only guard included).
func NewDesktopGate(a *App) *DesktopGate {
	return &DesktopGate{token: web.NewToken(), calls: a.callTable(), started: a.startup.done(), startWait: gateStartWait}
}

// Session returns the token Call needs.
func (g *DesktopGate) Session() string { return g.token }

// Call runs method with the JSON of its arguments when token is the
// gate's.
func (g *DesktopGate) Call(token, method string, args []json.RawMessage) (any, error) {
	if subtle.ConstantTimeCompare([]byte(token), []byte(g.token)) != 1 {
		return nil, errorf(CodeInvalidArgument, "This call does not come from Juncture's window.")
	}
	c, ok := g.calls[method]
	if !ok {
		return nil, errorf(CodeNotImplemented, fmt.Sprintf("%.80s is not available in this build of Juncture.", method))
	}
	select {
	case <-g.started:
	default: // still starting: wait (a timer only on this path)
		t := time.NewTimer(g.startWait)
		defer t.Stop()
		select {
		case <-g.started:
		case <-t.C:
			return nil, errorf(CodeUnavailable, "Juncture has not started: its history could not be opened.")
		}
	}
	return c(args)
}

// DesktopBindings is what the desktop window binds: the gate alone.
func DesktopBindings(a *App) []any { return []any{NewDesktopGate(a)} }

// Package framegate keeps the desktop window's subframes (an MCP App
// view's sandboxed frame) away from Wails' own runtime messages on Linux.
//
// WebKitGTK gives every frame of a page the script message handler Wails
// listens on (window.webkit.messageHandlers.external), and Wails v2 checks
// the origin of the web view's top address, not of the frame that posted:
// a view could quit or hide the window, hand a URL to the browser without
// the confirmation, set the clipboard, show a notification, emit events.
// The gate makes the window's own page prefix every message with a
// per-launch secret that only that page is served (Middleware, inline in
// index.html, installed in the top frame only), and a handler in front of
// Wails' (webkit_linux.go) forwards a message only when it carries the
// secret, without it. macOS Wails already drops messages from any frame
// but the main one; on Windows, WebView2 raises the message event Wails
// handles for the top-level document only.
package framegate

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"sync/atomic"
)

// secretLen is the secret's length in characters (128 bits, hex).
const secretLen = 32

// runtimeReady is what Wails' runtime.js posts when it loads, before the
// page's wrapper exists: the wrapper posts it again with the secret, so
// the bare one is dropped without a log line.
const runtimeReady = "runtime:ready"

// maxLogged bounds the log lines a flooding frame gets.
const maxLogged = 10

// Gate holds one launch's secret and counts what it dropped.
type Gate struct {
	secret  string
	log     *slog.Logger
	dropped atomic.Int64
	logged  atomic.Int64
	// off: the frontend is not built (no index.html: Wails' own page, no
	// MCP App views), so the page cannot carry the secret; Install skips.
	off bool
}

// New makes a gate with a fresh secret.
func New(log *slog.Logger) (*Gate, error) {
	b := make([]byte, secretLen/2)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("making the window's message secret: %w", err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Gate{secret: hex.EncodeToString(b), log: log}, nil
}

// headLen is how much of a message the gate reads: the secret, or all of
// runtime:ready, and the kind for the log. The window's handler hands Go
// no more than that of a message, however long.
const headLen = 64

// Check returns the message to hand to Wails: msg without the secret, when
// msg starts with it.
func (g *Gate) Check(msg string) (string, bool) {
	if !g.hasSecret(msg) {
		return "", false
	}
	return msg[secretLen:], true
}

func (g *Gate) hasSecret(head string) bool {
	return len(head) >= secretLen && subtle.ConstantTimeCompare([]byte(head[:secretLen]), []byte(g.secret)) == 1
}

// Filter is Check, and a log line for the first few messages it drops.
func (g *Gate) Filter(msg string) (string, bool) {
	skip, ok := g.filterHead(msg[:min(len(msg), headLen)], len(msg))
	if !ok {
		return "", false
	}
	return msg[skip:], true
}

// filterHead decides on a message of total bytes from its first headLen
// bytes: how many bytes to skip (the secret) when it goes to Wails. A
// dropped message is logged, the first maxLogged times, by its first two
// characters (Wails' message kind) and its length: never the rest, which
// a frame chose.
func (g *Gate) filterHead(head string, total int) (int, bool) {
	if g.hasSecret(head) {
		return secretLen, true
	}
	if total == len(runtimeReady) && head == runtimeReady {
		return 0, false
	}
	n := g.dropped.Add(1)
	if g.logged.Add(1) <= maxLogged {
		g.log.Warn("frame message dropped: a frame other than the window's page (an MCP App view) posted a Wails runtime message",
			"kind", kind(head), "bytes", total, "dropped", n)
	}
	return 0, false
}

// Dropped is how many messages the gate dropped.
func (g *Gate) Dropped() int64 { return g.dropped.Load() }

// kind is the message's first two characters when they are letters.
func kind(msg string) string {
	var k []byte
	for i := 0; i < len(msg) && i < 2; i++ {
		c := msg[i]
		if c < 'A' || c > 'z' || (c > 'Z' && c < 'a') {
			break
		}
		k = append(k, c)
	}
	return string(k)
}

// script wraps the WailsInvoke that Wails' ipc.js defines (every message
// of runtime.js and the bindings goes through it) in the top frame only:
// a copy of the page in a frame gets no wrapper, so its messages drop.
func (g *Gate) script() string {
	return `<script>(function(){if(window.top!==window)return;var s="` + g.secret +
		`",f=window.WailsInvoke;if(typeof f!=="function")return;` +
		`window.WailsInvoke=function(m){return f(s+m)};window.WailsInvoke("` + runtimeReady + `");})();</script>`
}

// errNoHead is returned for an index.html without a <head> to put the
// wrapper in.
var errNoHead = errors.New("framegate: index.html has no <head>")

// Page is the window's index.html with the wrapper first in its <head>.
// Wails puts its ipc.js and runtime.js before it, so the wrapper runs
// after WailsInvoke exists and before the page's own (module) script.
func (g *Gate) Page(index []byte) ([]byte, error) {
	i := bytes.Index(bytes.ToLower(index), []byte("<head>"))
	if i < 0 {
		return nil, errNoHead
	}
	i += len("<head>")
	out := make([]byte, 0, len(index)+secretLen+256)
	out = append(out, index[:i]...)
	out = append(out, g.script()...)
	return append(out, index[i:]...), nil
}

// wrap serves index.html from assets with the wrapper in it, for "/" and
// "/index.html", and everything else from next. The page may not be
// framed (frame-ancestors 'none'): a frame could otherwise hold a copy.
// With no index.html (the frontend not built: `make bindings`, a bare
// `go build`) there is nothing to wrap and the gate stays off.
func (g *Gate) wrap(assets fs.FS) (func(http.Handler) http.Handler, error) {
	index, err := fs.ReadFile(assets, "index.html")
	if errors.Is(err, fs.ErrNotExist) {
		g.off = true
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("framegate: reading index.html: %w", err)
	}
	page, err := g.Page(index)
	if err != nil {
		return nil, err
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet || (r.URL.Path != "/" && r.URL.Path != "/index.html") {
				next.ServeHTTP(w, r)
				return
			}
			h := w.Header()
			h.Set("Content-Type", "text/html; charset=utf-8")
			h.Set("Cache-Control", "no-store")
			h.Set("Content-Security-Policy", "frame-ancestors 'none'")
			h.Set("X-Frame-Options", "DENY")
			_, _ = w.Write(page)
		})
	}, nil
}

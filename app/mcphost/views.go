package mcphost

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/mcp"
)

// MCP Apps: a tool result's view (history.PartApp) shown in the window.
//
// The window asks the facade's OpenAppView for a call's view. The app
// reads it from the server (agent/mcp: ui:// only, at most 2 MiB, the
// declared CSP) and keeps it here under a random, single-use name; the
// window's frame then loads /appview/<name>, from the same server in
// browser mode and through Wails' asset handler in the desktop window.
// That page is served with its own Content-Security-Policy (built here
// from what the resource declared, none by default) including "sandbox
// allow-scripts", so even opened directly it has an opaque origin: no
// access to the window's script, storage, cookies or bearer token. A
// view's tool call comes back through the facade's CallToolFromView and
// the runtime's decision path (agent/viewcall.go).

const (
	// appViewTTL is how long an opened view waits to be loaded.
	appViewTTL = 2 * time.Minute
	// maxOpenViews bounds the views waiting to be loaded (each up to
	// mcp.MaxAppViewBytes): the oldest goes first.
	maxOpenViews = 16
	// ViewPath is where the frame loads a view from.
	ViewPath = "/appview/"
)

type openView struct {
	html, csp string
	at        time.Time
}

// Views are the views opened and not yet loaded, by name. The zero value
// is ready; it serves GET /appview/<name> (browser mode's server and the
// desktop window's asset handler).
type Views struct {
	mu sync.Mutex
	m  map[string]openView
}

// Open keeps a view's page, with its policy, under a new single-use name
// and returns where the frame loads it.
func (v *Views) Open(html string, c mcp.AppCSP, now time.Time) string {
	csp := CSP(c)
	return ViewPath + v.put(withCSPMeta(html, csp), csp, now)
}

func (v *Views) put(html, csp string, now time.Time) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	name := hex.EncodeToString(b[:])
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil {
		v.m = map[string]openView{}
	}
	for k, e := range v.m {
		if now.Sub(e.at) > appViewTTL {
			delete(v.m, k)
		}
	}
	for len(v.m) >= maxOpenViews {
		oldest := ""
		for k, e := range v.m {
			if oldest == "" || e.at.Before(v.m[oldest].at) {
				oldest = k
			}
		}
		delete(v.m, oldest)
	}
	v.m[name] = openView{html: html, csp: csp, at: now}
	return name
}

// take returns a view once: a second load (the view reloading itself,
// or anyone else) finds nothing.
func (v *Views) take(name string, now time.Time) (openView, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	e, ok := v.m[name]
	delete(v.m, name)
	if !ok || now.Sub(e.at) > appViewTTL {
		return openView{}, false
	}
	return e, true
}

// AppPart finds the view of a call's result among a thread's messages.
func AppPart(msgs []history.Message, callID string) (history.Part, bool) {
	for _, m := range msgs {
		if m.Role != history.RoleTool || m.ToolCallID != callID {
			continue
		}
		for _, p := range m.Parts {
			if p.Kind == history.PartApp {
				return p, true
			}
		}
	}
	return history.Part{}, false
}

// CSP is a view's Content-Security-Policy: nothing but its inline
// script and style, and the origins it declared for each kind of load;
// no forms, no plugins, no workers, and a sandbox with scripts only (an
// opaque origin, no popups, no top navigation, no modal dialogs).
func CSP(c mcp.AppCSP) string {
	src := func(fixed string, origins []string) string {
		s := strings.TrimSpace(fixed + " " + strings.Join(origins, " "))
		if s == "" {
			return "'none'"
		}
		return s
	}
	return strings.Join([]string{
		"default-src 'none'",
		"script-src " + src("'unsafe-inline'", c.ResourceDomains),
		"style-src " + src("'unsafe-inline'", c.ResourceDomains),
		"img-src " + src("data: blob:", c.ResourceDomains),
		"font-src " + src("data:", c.ResourceDomains),
		"media-src " + src("data: blob:", c.ResourceDomains),
		"connect-src " + src("", c.ConnectDomains),
		"frame-src " + src("", c.FrameDomains),
		"base-uri " + src("", c.BaseURIDomains),
		"form-action 'none'",
		"object-src 'none'",
		"worker-src 'none'",
		"manifest-src 'none'",
	}, "; ")
}

// withCSPMeta puts the policy first in the document as well, for a
// webview that would drop a header: a <meta> policy applies to what
// follows it, and a later one can only narrow it.
func withCSPMeta(html, csp string) string {
	return fmt.Sprintf("<!DOCTYPE html><meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n%s", csp, html)
}

// ServeHTTP serves an opened view, once. It needs no bearer token (a
// frame cannot send one): the 128-bit single-use name is the capability.
func (v *Views) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, ViewPath)
	if r.Method != http.MethodGet || !ok {
		http.NotFound(w, r)
		return
	}
	e, ok := v.take(name, time.Now())
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	if !ok {
		h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
		http.Error(w, "This view is no longer available.", http.StatusNotFound)
		return
	}
	h.Set("Content-Security-Policy", e.csp+"; sandbox allow-scripts")
	h.Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(e.html))
}

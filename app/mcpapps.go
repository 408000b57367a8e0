package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/mcp"
)

// MCP Apps: a tool result's view (history.PartApp) shown in the window.
//
// The window asks OpenAppView for a call's view. The app reads it from the
// server (agent/mcp: ui:// only, at most 2 MiB, the declared CSP) and keeps
// it under a random, single-use name; the window's frame then loads
// /appview/<name>, from the same server in browser mode and through Wails'
// asset handler in the desktop window. That page is served with its own
// Content-Security-Policy (built here from what the resource declared,
// none by default) including "sandbox allow-scripts", so even opened
// directly it has an opaque origin: no access to the window's script,
// storage, cookies or bearer token. A view's tool call comes back through
// CallToolFromView and the runtime's decision path (agent/viewcall.go).

const (
	// appViewTTL is how long an opened view waits to be loaded.
	appViewTTL = 2 * time.Minute
	// maxOpenViews bounds the views waiting to be loaded (each up to
	// mcp.MaxAppViewBytes): the oldest goes first.
	maxOpenViews = 16
	// appViewPath is where the frame loads a view from.
	appViewPath = "/appview/"
)

// AppViewOpen is a view ready for the window's frame.
type AppViewOpen struct {
	URL           string     `json:"url"` // a relative, single-use path
	Server        string     `json:"server"`
	URI           string     `json:"uri"`
	CSP           mcp.AppCSP `json:"csp"`
	PrefersBorder bool       `json:"prefersBorder"`
	Dropped       []string   `json:"dropped"`
}

// ViewToolCall is a view's tools/call, as the window forwards it.
type ViewToolCall struct {
	ThreadID     string          `json:"threadId"`
	ParentCallID string          `json:"parentCallId"` // the call whose result holds the view
	Tool         string          `json:"tool"`         // the server's own tool name
	Arguments    json.RawMessage `json:"arguments"`
}

type openView struct {
	html, csp string
	at        time.Time
}

// appViews are the views opened and not yet loaded, by name.
type appViews struct {
	mu sync.Mutex
	m  map[string]openView
}

func (v *appViews) put(html, csp string, now time.Time) string {
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
func (v *appViews) take(name string, now time.Time) (openView, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	e, ok := v.m[name]
	delete(v.m, name)
	if !ok || now.Sub(e.at) > appViewTTL {
		return openView{}, false
	}
	return e, true
}

// appPartOf finds the view of a call's result in a thread.
func (a *App) appPartOf(ctx context.Context, threadID, callID string) (history.Part, error) {
	msgs, err := a.db.Messages(ctx, threadID)
	if err != nil {
		return history.Part{}, asError(err)
	}
	for _, m := range msgs {
		if m.Role != history.RoleTool || m.ToolCallID != callID {
			continue
		}
		for _, p := range m.Parts {
			if p.Kind == history.PartApp {
				return p, nil
			}
		}
	}
	return history.Part{}, errorf(CodeNotFound, "This call's result has no view.")
}

// OpenAppView reads the view of a call's result from its server and
// returns where the window's frame loads it (once, within two minutes).
func (a *App) OpenAppView(threadID, callID string) (AppViewOpen, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	p, err := a.appPartOf(ctx, threadID, callID)
	if err != nil {
		return AppViewOpen{}, err
	}
	v, err := a.mcp.ReadAppView(ctx, p.Name, p.URI)
	if err != nil {
		if errors.Is(err, mcp.ErrNotAnApp) {
			return AppViewOpen{}, errorf(CodeInvalidArgument, strings.TrimPrefix(err.Error(), "mcp: "))
		}
		return AppViewOpen{}, mcpOfferError(p.Name, err)
	}
	csp := AppViewCSP(v.CSP)
	name := a.views.put(withCSPMeta(v.HTML, csp), csp, time.Now())
	return AppViewOpen{URL: appViewPath + name, Server: v.Server, URI: v.URI, CSP: v.CSP, PrefersBorder: v.PrefersBorder, Dropped: v.Dropped}, nil
}

// CallToolFromView asks for a view's tools/call: the tool must be one of
// the view's own server's tools a view may call, and the call then goes
// through the approvals and rules like the model's (agent.CallFromView).
// It returns the new call's id; its result arrives in the thread.
func (a *App) CallToolFromView(c ViewToolCall) (string, error) {
	if err := a.writable("CallToolFromView"); err != nil {
		return "", err
	}
	ctx, cancel := a.ctx()
	defer cancel()
	p, err := a.appPartOf(ctx, c.ThreadID, c.ParentCallID)
	if err != nil {
		return "", err
	}
	name, err := a.mcp.AppToolName(p.Name, c.Tool)
	if err != nil {
		return "", mcpOfferError(p.Name, err)
	}
	id, err := a.rt.CallFromView(ctx, c.ThreadID, c.ParentCallID, p.Name, name, c.Arguments)
	switch {
	case errors.Is(err, agent.ErrViewCallRefused):
		return "", errorf(CodeConflict, strings.TrimPrefix(err.Error(), "agent: "))
	case err != nil:
		return "", asError(err)
	}
	return id, nil
}

// AppViewCSP is a view's Content-Security-Policy: nothing but its inline
// script and style, and the origins it declared for each kind of load;
// no forms, no plugins, no workers, and a sandbox with scripts only (an
// opaque origin, no popups, no top navigation, no modal dialogs).
func AppViewCSP(c mcp.AppCSP) string {
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

// AppViewHandler serves GET /appview/<name> (browser mode's server and
// the desktop window's asset handler). Not a method: Wails would bind it.
func AppViewHandler(a *App) http.Handler { return http.HandlerFunc(a.serveAppView) }

// AppViews is browser mode's /appview/ handler (web.Facade).
func (s *Service) AppViews() http.Handler { return AppViewHandler(s.app) }

// serveAppView serves an opened view, once. It needs no bearer token (a
// frame cannot send one): the 128-bit single-use name is the capability.
func (a *App) serveAppView(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, appViewPath)
	if r.Method != http.MethodGet || !ok {
		http.NotFound(w, r)
		return
	}
	v, ok := a.views.take(name, time.Now())
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
	h.Set("Content-Security-Policy", v.csp+"; sandbox allow-scripts")
	h.Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(v.html))
}

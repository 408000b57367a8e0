package app

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/app/errmap"
	"github.com/juncture-app/juncture/app/mcphost"
)

// MCP Apps: a tool result's view (history.PartApp) shown in the window.
// The views, their policy and the /appview/ handler are package mcphost's
// (mcphost.Views); these methods find a call's view, read it from its
// server and send a view's tool call through the runtime.

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

// appPartOf finds the view of a call's result in a thread.
func (a *App) appPartOf(ctx context.Context, threadID, callID string) (history.Part, error) {
	msgs, err := a.db.Messages(ctx, threadID)
	if err != nil {
		return history.Part{}, asError(err)
	}
	if p, ok := mcphost.AppPart(msgs, callID); ok {
		return p, nil
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
		return AppViewOpen{}, errmap.MCPOffer(p.Name, err)
	}
	url := a.views.Open(v.HTML, v.CSP, time.Now())
	return AppViewOpen{URL: url, Server: v.Server, URI: v.URI, CSP: v.CSP, PrefersBorder: v.PrefersBorder, Dropped: v.Dropped}, nil
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
		return "", errmap.MCPOffer(p.Name, err)
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

// AppViewHandler serves GET /appview/<name> (browser mode's server and
// the desktop window's asset handler). Not a method: Wails would bind it.
func AppViewHandler(a *App) http.Handler { return &a.views }

// AppViews is browser mode's /appview/ handler (web.Facade).
func (s *Service) AppViews() http.Handler { return AppViewHandler(s.app) }

// Command appserver is a small MCP server returning MCP Apps (the ext-apps
// extension), for Juncture's tests (agent/mcp apps_test.go and
// e2e/mcp-apps.test.mjs). It serves stdio. Its tools:
//
//	clock   read-only; _meta.ui.resourceUri ui://clock/view.html; returns
//	        "It is 12:00." and structured content {"time":"12:00"}
//	stamp   needs approval (not read-only); {"note"} -> "stamped: <note>"
//	secret  read-only, visibility ["model"]: its views may not call it
//	tally   read-only, visibility ["app"]: for its views only, never
//	        offered to the model; {"n"} -> "tally: <n>"
//	hostile read-only; its view (ui://clock/hostile.html) tries to leave
//	        its frame and floods the host
//	flood   read-only; its view (ui://clock/flood.html) floods the host
//	huge    read-only; its view is 3 MiB, over the host's budget
//	wails   read-only; its view (ui://clock/wails.html) posts Wails'
//	        runtime messages, for the desktop window (desktop-views.sh)
//
// APPSERVER_PROBE (an http URL) is written into the hostile view: the
// address it tries to reach.
package main

import (
	"context"
	"embed"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

//go:embed views/*.html
var views embed.FS

const appMIME = "text/html;profile=mcp-app"

type none struct{}

type stampIn struct {
	Note string `json:"note" jsonschema:"what to stamp"`
}

type tallyIn struct {
	N int `json:"n" jsonschema:"what to count"`
}

func main() {
	s := server()
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "appserver:", err)
		os.Exit(1)
	}
}

func uiMeta(uri string, visibility ...string) mcp.Meta {
	ui := map[string]any{"resourceUri": uri}
	if len(visibility) > 0 {
		ui["visibility"] = visibility
	}
	return mcp.Meta{"ui": ui}
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func server() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "appserver", Title: "Apps test server", Version: "1.0.0"}, nil)
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(s, &mcp.Tool{Name: "clock", Title: "Clock", Description: "Shows the time in a view.", Annotations: ro, Meta: uiMeta("ui://clock/view.html")},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			r := text("It is 12:00.")
			r.StructuredContent = map[string]any{"time": "12:00"}
			return r, nil, nil
		})
	destructive := false
	mcp.AddTool(s, &mcp.Tool{Name: "stamp", Title: "Stamp", Description: "Stamps a note (asks first).",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &destructive}, Meta: uiMeta("", "model", "app")},
		func(_ context.Context, _ *mcp.CallToolRequest, in stampIn) (*mcp.CallToolResult, any, error) {
			return text("stamped: " + in.Note), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "secret", Title: "Secret", Description: "For the model only.", Annotations: ro, Meta: uiMeta("", "model")},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			return text("the secret"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "tally", Title: "Tally", Description: "For the views only.", Annotations: ro, Meta: uiMeta("", "app")},
		func(_ context.Context, _ *mcp.CallToolRequest, in tallyIn) (*mcp.CallToolResult, any, error) {
			return text(fmt.Sprintf("tally: %d", in.N)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "hostile", Title: "Hostile", Description: "A view that tries to get out.", Annotations: ro, Meta: uiMeta("ui://clock/hostile.html")},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			return text("hostile view shown"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "flood", Title: "Flood", Description: "A view that floods the host.", Annotations: ro, Meta: uiMeta("ui://clock/flood.html")},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			return text("flood view shown"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "wails", Title: "Wails", Description: "A view that posts the desktop window's own messages.", Annotations: ro, Meta: uiMeta("ui://clock/wails.html")},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			return text("wails view shown"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "huge", Title: "Huge", Description: "A view over the budget.", Annotations: ro, Meta: uiMeta("ui://clock/huge.html")},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			return text("huge view"), nil, nil
		})

	s.AddResource(&mcp.Resource{URI: "ui://clock/view.html", Name: "clock view", MIMEType: appMIME}, page("views/clock.html", map[string]any{
		"ui": map[string]any{"prefersBorder": true, "csp": map[string]any{
			"connectDomains":  []any{"https://api.example.com", "'unsafe-eval'", "https://evil.example; script-src *"},
			"resourceDomains": []any{"https://*.cdn.example.com"},
		}},
	}))
	s.AddResource(&mcp.Resource{URI: "ui://clock/hostile.html", Name: "hostile view", MIMEType: appMIME}, page("views/hostile.html", nil))
	s.AddResource(&mcp.Resource{URI: "ui://clock/wails.html", Name: "desktop-hostile view", MIMEType: appMIME}, page("views/wails.html", nil))
	s.AddResource(&mcp.Resource{URI: "ui://clock/flood.html", Name: "flooding view", MIMEType: appMIME}, page("views/flood.html", nil))
	s.AddResource(&mcp.Resource{URI: "ui://clock/huge.html", Name: "huge view", MIMEType: appMIME},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			big := "<!doctype html><p>" + strings.Repeat("x", 3<<20) + "</p>"
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: appMIME, Text: big}}}, nil
		})
	return s
}

func page(name string, meta mcp.Meta) mcp.ResourceHandler {
	return func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		b, err := views.ReadFile(name)
		if err != nil {
			return nil, err
		}
		html := strings.ReplaceAll(string(b), "__PROBE__", os.Getenv("APPSERVER_PROBE"))
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: appMIME, Text: html, Meta: meta}}}, nil
	}
}

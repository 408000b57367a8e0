package app

import (
	"errors"

	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/app/errmap"
	"github.com/juncture-app/juncture/app/mcphost"
)

// What MCP servers offer beyond tools, for the composer: prompts as "/"
// commands (with completions for their arguments), resources and
// resource templates to attach ("Add from <server>"), and the log level
// of each server (Settings). A prompt's text goes into the composer and a
// resource becomes an attachment the window sends back through
// SendInput, so nothing here reaches the model without the person
// sending it, and every attachment check applies to it unchanged.

// MCPCompleteRequest asks a server for completions of one argument of a
// prompt or a resource template.
type MCPCompleteRequest struct {
	Server   string          `json:"server"`
	Ref      mcp.CompleteRef `json:"ref"`
	Argument string          `json:"argument"`
	Value    string          `json:"value"`
	// Known are the other arguments already filled in (context).
	Known map[string]string `json:"known,omitempty"`
}

// ListMCPPrompts lists the prompts of every ready server; a server that
// failed to list is a problem, not an error.
func (a *App) ListMCPPrompts() (mcp.PromptList, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	return a.mcp.Prompts(ctx), nil
}

// GetMCPPrompt runs a server's prompt with the person's arguments and
// returns it as the composer inserts it (text, files, notes on what was
// cut).
func (a *App) GetMCPPrompt(server, name string, args map[string]string) (mcp.PromptText, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	res, err := a.mcp.GetPrompt(ctx, server, name, args, attach.MaxFileBytes)
	if err != nil {
		return mcp.PromptText{}, errmap.MCPOffer(server, err)
	}
	return res, nil
}

// CompleteMCP asks a server for completions (at most 100 values).
func (a *App) CompleteMCP(req MCPCompleteRequest) (mcp.Completion, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	c, err := a.mcp.Complete(ctx, req.Server, req.Ref, req.Argument, req.Value, req.Known)
	if err != nil {
		return mcp.Completion{}, errmap.MCPOffer(req.Server, err)
	}
	return c, nil
}

// ListMCPResources lists the resources and templates of every ready
// server.
func (a *App) ListMCPResources() (mcp.ResourceCatalog, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	return a.mcp.Resources(ctx), nil
}

// ReadMCPResource reads a resource as files to attach (each within the
// attachment size limit; what is left out is said in Notes). name is the
// name the list showed ("" for the URI's last segment).
func (a *App) ReadMCPResource(server, uri, name string) (mcp.ResourceRead, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	res, err := a.mcp.ReadResource(ctx, server, uri, name, attach.MaxFileBytes)
	if err != nil {
		return mcp.ResourceRead{}, errmap.MCPOffer(server, err)
	}
	return res, nil
}

// ReadMCPResourceTemplate fills a resource template's variables and reads
// the resource it names.
func (a *App) ReadMCPResourceTemplate(server, template string, vars map[string]string) (mcp.ResourceRead, error) {
	uri, err := mcp.ExpandTemplate(template, vars)
	if err != nil {
		return mcp.ResourceRead{}, errorf(CodeInvalidArgument, err.Error())
	}
	return a.ReadMCPResource(server, uri, "")
}

// MCPLogLevels returns the log level chosen for each server (servers left
// to their own default are absent).
func (a *App) MCPLogLevels() (map[string]string, error) {
	return mcphost.LogLevels(a.mcp), nil
}

// SetMCPLogLevel chooses the least severe log message a server sends
// ("" leaves it to the server). It is saved, and sent to the server now
// and at each of its starts (in a read-only copy: for the session only).
func (a *App) SetMCPLogLevel(server, level string) error {
	ctx, cancel := a.ctx()
	defer cancel()
	err := a.mcp.SetLogLevel(ctx, server, level)
	if err != nil && !errors.Is(err, mcp.ErrNotOffered) {
		return errmap.MCPOffer(server, err)
	}
	// A read-only copy keeps the level for the session: the server has it
	// already, and the copy's settings are never written.
	if a.readOnly == "" {
		levels, _ := a.MCPLogLevels()
		if serr := mcphost.SaveLogLevels(ctx, a.db, levels); serr != nil {
			return asError(serr)
		}
	}
	a.mcpChanged()
	if err != nil {
		return errmap.MCPOffer(server, err)
	}
	return nil
}

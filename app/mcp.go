package app

import (
	"errors"

	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/agent/tools"
	"github.com/juncture-app/juncture/app/errmap"
	"github.com/juncture-app/juncture/app/mcphost"
)

// MCP servers: the configuration file ($XDG_CONFIG_HOME/juncture/mcp.json)
// is the source of truth. It is read at start and after every save from
// Settings; a file that does not parse is reported (line and column) and
// never overwritten by the structured editor, only replaced by a raw text
// the person fixed. Secrets are masked in everything these methods return.

// The configuration as Settings shows it (package mcphost).
type (
	MCPConfigView  = mcphost.MCPConfigView
	MCPServerEntry = mcphost.MCPServerEntry
	MCPConfigError = mcphost.MCPConfigError
)

// MCPChanged is the "mcp" event: a server's status or tools changed, or
// the configuration was saved. The window reloads what it shows.
type MCPChanged struct{}

func (a *App) mcpChanged() { a.emit("mcp", MCPChanged{}) }

// startMCP reads the configuration file and starts its servers in the
// background (mcphost.Start).
func (a *App) startMCP() error {
	ctx, cancel := a.ctx()
	defer cancel()
	var err error
	a.mcpCfg, a.mcp, err = mcphost.Start(ctx, mcphost.Options{
		ConfigPath: a.cfg.MCPConfigPath, Keys: a.keys, Writable: a.readOnly == "", DB: a.db, Processes: a.procs,
		Root: func() string { return a.workspace().Root }, Sampler: a.models.Sample, Version: a.cfg.Version,
		OnChange: a.mcpChanged, SchemeRedirect: a.cfg.SchemeRedirect, Logger: a.log,
	})
	return err
}

// startMCPServers starts the file's servers in the background, once: at
// start, or with Config.MCPAtWindow when the page loaded or something
// needs them first.
func (a *App) startMCPServers() {
	a.mcpStarted.Do(func() { a.mcp.Apply(a.mcpCfg.Running()) })
}

// StartMCPServers starts the configured MCP servers unless they started
// (Config.MCPAtWindow); it returns at once.
func (s *Service) StartMCPServers() { s.app.startMCPServers() }

// mcpTools are the MCP tools for a turn; servers not started yet start
// now (a turn before the page loaded) and join the turns after it.
func (a *App) mcpTools() []tools.Tool {
	a.startMCPServers()
	return a.mcp.Tools()
}

// ListMCPServers reports every configured server: its transport, status,
// error and tools.
func (a *App) ListMCPServers() ([]mcp.ServerStatus, error) {
	return a.mcp.Servers(), nil
}

// GetMCPConfig returns the configuration as Settings edits it.
func (a *App) GetMCPConfig() (MCPConfigView, error) {
	return mcphost.ConfigView(a.mcpCfg), nil
}

// mcpEdited applies an edit of the configuration file and returns it as
// Settings shows it.
func (a *App) mcpEdited(run mcp.Config, err error) (MCPConfigView, error) {
	if err != nil {
		return MCPConfigView{}, errmap.MCPEdit(err)
	}
	a.mcpStarted.Do(func() {}) // the edit's configuration runs, never the file's as read at start after it
	a.mcp.Apply(run)
	a.mcpChanged()
	return a.GetMCPConfig()
}

// SaveMCPServer adds a server, or replaces the one called previousName
// (renaming it when name differs). Masked secrets keep their stored value.
// It refuses while the file does not parse.
func (a *App) SaveMCPServer(previousName, name string, cfg mcp.ServerConfig) (MCPConfigView, error) {
	if err := a.writable("SaveMCPServer"); err != nil {
		return MCPConfigView{}, err
	}
	return a.mcpEdited(a.mcpCfg.SaveServer(previousName, name, cfg))
}

// DeleteMCPServer removes a server from the configuration (its process
// ends).
func (a *App) DeleteMCPServer(name string) (MCPConfigView, error) {
	if err := a.writable("DeleteMCPServer"); err != nil {
		return MCPConfigView{}, err
	}
	v, err := a.mcpEdited(a.mcpCfg.DeleteServer(name))
	if err == nil {
		a.forgetMCPSignIn(name) // its tokens go with it (mcp_signin.go)
	}
	return v, err
}

// SetMCPServerEnabled turns a server on or off ("disabled" in the file).
func (a *App) SetMCPServerEnabled(name string, enabled bool) (MCPConfigView, error) {
	if err := a.writable("SetMCPServerEnabled"); err != nil {
		return MCPConfigView{}, err
	}
	return a.mcpEdited(a.mcpCfg.SetEnabled(name, enabled))
}

// SaveMCPConfigText replaces the file with text the person edited (the
// way to fix a broken file). Nothing is written unless it parses; masked
// secrets keep their stored value.
func (a *App) SaveMCPConfigText(text string) (MCPConfigView, error) {
	if err := a.writable("SaveMCPConfigText"); err != nil {
		return MCPConfigView{}, err
	}
	return a.mcpEdited(a.mcpCfg.SaveText(text))
}

// ImportClaudeConfig adds the servers of a Claude Desktop configuration
// (its text): new names are added, identical ones skipped, a different
// server under a taken name is added as "<name>-2".
func (a *App) ImportClaudeConfig(text string) (mcp.ImportSummary, error) {
	if err := a.writable("ImportClaudeConfig"); err != nil {
		return mcp.ImportSummary{}, err
	}
	sum, run, err := a.mcpCfg.ImportClaude(text)
	if _, err := a.mcpEdited(run, err); err != nil {
		return sum, err
	}
	return sum, nil
}

// RestartMCPServer stops and starts one server now (a crashed server's
// backoff is skipped).
func (a *App) RestartMCPServer(name string) error {
	if err := a.mcp.Restart(name); err != nil {
		if errors.Is(err, mcp.ErrUnknownServer) {
			return errmap.UnknownServer(name)
		}
		return asError(err)
	}
	return nil
}

// MCPServerLog returns the tail of a server's stderr and log messages.
func (a *App) MCPServerLog(name string) (string, error) {
	s, err := a.mcp.Log(name)
	if errors.Is(err, mcp.ErrUnknownServer) {
		return "", errmap.UnknownServer(name)
	}
	return s, err
}

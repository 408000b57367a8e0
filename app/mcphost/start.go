package mcphost

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/agent/tools"
	"github.com/juncture-app/juncture/app/secrets"
	"github.com/juncture-app/juncture/store"
)

// Options are what Start needs from the app.
type Options struct {
	ConfigPath string         // the configuration file; "" = mcp.DefaultConfigPath()
	Keys       *secrets.Vault // masked secrets and sign-in tokens (nil: no key storage)
	Writable   bool           // false: a read-only copy, the file is never written
	DB         *store.DB      // the tool pins and the saved log levels
	Processes  *tools.Processes
	Root       func() string // the workspace folder, reported by roots/list
	Sampler    mcp.Sampler
	Version    string
	OnChange   func()
	// SchemeRedirect offers the juncture:// redirect to sign-ins: only
	// where the packages registered the scheme (links.SchemeRegistered).
	SchemeRedirect bool
	Logger         *slog.Logger
}

// Start reads the configuration file and makes the manager, with no
// server started: the caller applies the file's configuration
// (ConfigFile.Running) when it is time (the desktop waits for the
// window's first paint). When the file cannot be found, the manager is
// returned with no server, and the error.
func Start(ctx context.Context, o Options) (*mcp.ConfigFile, *mcp.Manager, error) {
	path := o.ConfigPath
	var err error
	if path == "" {
		path, err = mcp.DefaultConfigPath()
	}
	f := mcp.OpenConfigFile(path, o.Keys, o.Writable, o.Logger.With("part", "mcp"))
	var vault mcp.TokenVault // the key storage every key uses, when there is one
	if o.Keys != nil {
		vault = o.Keys
	}
	redirect := ""
	if o.SchemeRedirect {
		redirect = mcp.SchemeRedirectURI
	}
	m := mcp.NewManager(mcp.Options{
		Processes:      o.Processes,
		Pins:           Pins{DB: o.DB},
		Roots:          func() []string { return []string{o.Root()} },
		Sampler:        o.Sampler,
		Logger:         o.Logger.With("part", "mcp"),
		Version:        o.Version,
		OnChange:       o.OnChange,
		Vault:          vault,
		Browser:        WindowBrowser{},
		SchemeRedirect: redirect,
	})
	if err != nil {
		return f, m, fmt.Errorf("finding the MCP configuration file: %w", err)
	}
	LoadLogLevels(ctx, o.DB, m, o.Logger)
	f.Load()
	return f, m, nil
}

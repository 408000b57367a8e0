package app

import (
	"os"
	"path/filepath"

	"github.com/juncture-app/juncture/app/secrets"
)

// configDirs are the configuration folders this app reads: the default
// one ($XDG_CONFIG_HOME/juncture) and the MCP file's, when a test moved it.
func (a *App) configDirs() []string {
	var dirs []string
	if d, err := os.UserConfigDir(); err == nil {
		dirs = append(dirs, filepath.Join(d, "juncture"))
	}
	if p := a.cfg.MCPConfigPath; p != "" && filepath.Dir(p) != a.cfg.DataDir {
		dirs = append(dirs, filepath.Dir(p))
	}
	return dirs
}

// privateConfig makes the configuration folders private
// (secrets.PrivateConfig).
func (a *App) privateConfig() error { return secrets.PrivateConfig(a.configDirs()) }

package app

import (
	"context"
	"strings"

	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/app/secrets"
)

// Keys: the app reads and saves them through its vault (package secrets);
// the settings table keeps none.

// SecretStore keeps secrets by account name (secrets.Store).
type SecretStore = secrets.Store

// KeyStorage says where keys are stored (Settings shows it).
type KeyStorage = secrets.KeyStorage

// openKeys opens the secret store and this database's vault (moving the
// keys of an older, writable database out of it).
func (a *App) openKeys(ctx context.Context) error {
	st, status := a.cfg.Secrets, KeyStorage{Kind: "custom", Detail: "provided by the caller"}
	if st == nil {
		var err error
		if st, status, err = secrets.Choose(secrets.KeychainService); err != nil {
			return err
		}
	}
	v, err := secrets.Open(ctx, a.db, st, status, a.readOnly == "", a.log)
	if err != nil {
		return err
	}
	a.keys = v
	return nil
}

// putMCPSecret stores an MCP header or env secret (mcp.ExtractSecrets).
func (a *App) putMCPSecret(account, secret string) error {
	return a.keys.Set(account, secret)
}

// mcpSecretsIn is mcp.json as the app keeps it and as it runs: secrets
// still in clear in the file move to the secret store (the file is
// rewritten with references: file), and each reference resolves to the
// value stored for its own server and field (resolved). Settings shows
// and edits file, never resolved.
func (a *App) mcpSecretsIn(cfg mcp.Config) (file, resolved mcp.Config) {
	file = cfg
	if a.readOnly == "" {
		stored, changed, err := mcp.ExtractSecrets(cfg, a.putMCPSecret)
		switch {
		case err != nil:
			a.log.Warn("the MCP secrets stay in the configuration file", "err", err)
		case changed:
			if err := mcp.SaveConfig(a.mcpCfg.path, stored); err != nil {
				a.log.Warn("the MCP secrets stay in the configuration file", "err", err)
			} else {
				a.log.Info("MCP secrets moved out of the configuration file", "path", a.mcpCfg.path, "storage", a.keys.Storage().Detail)
				file = stored
			}
		default:
			file = stored
		}
	}
	resolved, missing := mcp.ResolveSecrets(file, func(account string) (string, error) { return a.keys.Get(account) })
	if len(missing) > 0 {
		a.log.Warn("MCP secrets not resolved; sent empty", "missing", strings.Join(missing, ", "))
	}
	return file, resolved
}

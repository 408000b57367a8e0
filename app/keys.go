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

// saveSettingsRows saves settings rows, their keys to the vault only.
func (a *App) saveSettingsRows(ctx context.Context, m map[string]string) error {
	rows, err := secrets.StripRows(m, a.keys, true)
	if err != nil {
		return err
	}
	return a.db.SaveSettings(ctx, rows)
}

// fillSecretSettings puts the vault's keys into the saved settings as the
// rest of the app reads them (a row that still holds a key, as in a
// read-only copy, keeps it).
func (a *App) fillSecretSettings(saved map[string]string) {
	names := map[string]bool{"apiKey": true}
	for k := range saved {
		if secrets.IsSecretSetting(k) {
			names[k] = true
		}
	}
	for k := range names {
		if saved[k] != "" {
			continue
		}
		s, err := a.keys.Get(secrets.SettingAccount(k))
		if err != nil {
			a.log.Warn("a saved key could not be read; it is kept", "setting", k, "err", err)
			continue
		}
		if s != "" {
			saved[k] = s
		}
	}
}

// fillEndpointKeys puts the vault's keys into endpoints read from the
// settings row s; it returns the ids of those whose key could not be read.
func (a *App) fillEndpointKeys(s string, eps []Endpoint) map[string]bool {
	unread := map[string]bool{}
	refs := secrets.EndpointRefs(s)
	if len(refs) != len(eps) {
		return unread
	}
	for i := range eps {
		if eps[i].APIKey != "" || refs[i] == "" {
			continue
		}
		k, err := a.keys.Get(refs[i])
		if err != nil {
			a.log.Warn("an endpoint's key could not be read; it is kept", "endpoint", eps[i].ID, "err", err)
			unread[eps[i].ID] = true
			continue
		}
		eps[i].APIKey = k
	}
	return unread
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

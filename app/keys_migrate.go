package app

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/juncture-app/juncture/agent/mcp"
)

// Keys out of the database. The settings table keeps no key: saving one
// (SaveSettings, SaveEndpoint) writes the secret store, and the row keeps
// "" (the general apiKey) or a reference (an endpoint's "apiKeyRef"). A
// database from before kept them in clear: at start they move into the
// secret store, the rows are rewritten and the file is rebuilt (VACUUM,
// then a TRUNCATE checkpoint of the WAL) so no old page keeps a key; every
// migration backup (<db>.pre-v*.bak, store.BackupPath) is scrubbed the
// same way, or deleted when it cannot be.

// Settings keys of the key storage.
const (
	keyVaultID = "vaultId"  // names this database's accounts in the secret store
	keyScrubDB = "keysMove" // "pending" from a move until the file is rebuilt
)

// secretSetting reports whether a settings row holds a key (the general
// apiKey, or anything named like a key, token, secret or password).
func secretSetting(name string) bool {
	n := strings.ToLower(name)
	if n == strings.ToLower(keyVaultID) || n == strings.ToLower(keyScrubDB) {
		return false
	}
	for _, w := range []string{"apikey", "api_key", "token", "secret", "password", "passphrase", "credential"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// Account names in the vault.
func settingAccount(name string) string { return "setting:" + name }
func endpointAccount(id string) string  { return "endpoint:" + id }

// stripSecrets is m as the settings table may keep it: keys moved into
// the vault (store true) or only removed (a backup's rows).
func stripSecrets(m map[string]string, vault *keyVault, store bool) (map[string]string, error) {
	out := make(map[string]string, len(m))
	for k, v := range m {
		switch {
		case secretSetting(k):
			if store {
				if err := vault.set(settingAccount(k), v); err != nil {
					return nil, err
				}
			}
			out[k] = ""
		case k == keyEndpoints:
			s, err := stripEndpointKeys(v, vault, store)
			if err != nil {
				return nil, err
			}
			out[k] = s
		default:
			out[k] = v
		}
	}
	return out, nil
}

// stripEndpointKeys rewrites the saved endpoints' JSON without keys: a key
// goes to the vault (account endpoint:<id>) and "apiKeyRef" names it.
// Fields it does not know are kept as they are.
func stripEndpointKeys(s string, vault *keyVault, store bool) (string, error) {
	if strings.TrimSpace(s) == "" {
		return s, nil
	}
	var list []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &list); err != nil {
		// Never kept as it is: it may hold a key in clear (and the
		// catalog starts from none when it does not parse anyway).
		return "[]", nil
	}
	for _, e := range list {
		raw, present := e["apiKey"]
		if !present {
			continue // already a reference (or no key): the vault keeps its key
		}
		var id, key string
		_ = json.Unmarshal(e["id"], &id)
		_ = json.Unmarshal(raw, &key)
		delete(e, "apiKey")
		if id == "" {
			delete(e, "apiKeyRef")
			continue
		}
		if store {
			if err := vault.set(endpointAccount(id), key); err != nil {
				return "", err
			}
		}
		if key != "" {
			ref, _ := json.Marshal(endpointAccount(id))
			e["apiKeyRef"] = ref
		} else if store {
			delete(e, "apiKeyRef")
		}
	}
	b, err := json.Marshal(list)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// hasSecrets reports whether rows hold a key in clear.
func hasSecrets(m map[string]string) bool {
	for k, v := range m {
		if secretSetting(k) && v != "" {
			return true
		}
	}
	if s := m[keyEndpoints]; s != "" {
		var list []map[string]json.RawMessage
		if json.Unmarshal([]byte(s), &list) != nil {
			return true // unknown: treat as holding one
		}
		for _, e := range list {
			var key string
			if json.Unmarshal(e["apiKey"], &key) == nil && key != "" {
				return true
			}
		}
	}
	return false
}

// saveSettingsRows saves settings rows, their keys to the vault only.
func (a *App) saveSettingsRows(ctx context.Context, m map[string]string) error {
	rows, err := stripSecrets(m, a.keys, true)
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
		if secretSetting(k) {
			names[k] = true
		}
	}
	for k := range names {
		if saved[k] != "" {
			continue
		}
		s, err := a.keys.get(settingAccount(k))
		if err != nil {
			a.log.Warn("a saved key could not be read", "setting", k, "err", err)
			continue
		}
		if s != "" {
			saved[k] = s
		}
	}
}

// fillEndpointKeys puts the vault's keys into endpoints read from the
// settings row s.
func (a *App) fillEndpointKeys(s string, eps []Endpoint) {
	var refs []struct {
		ID  string `json:"id"`
		Ref string `json:"apiKeyRef"`
	}
	if json.Unmarshal([]byte(s), &refs) != nil || len(refs) != len(eps) {
		return
	}
	for i := range eps {
		if eps[i].APIKey != "" || refs[i].Ref == "" {
			continue
		}
		k, err := a.keys.get(refs[i].Ref)
		if err != nil {
			a.log.Warn("an endpoint's key could not be read", "endpoint", eps[i].ID, "err", err)
			continue
		}
		eps[i].APIKey = k
	}
}

// openKeys opens the secret store, names this database's vault and, in a
// writable database, moves keys out of it and scrubs its backups.
func (a *App) openKeys(ctx context.Context) error {
	st, status := a.cfg.Secrets, KeyStorage{Kind: "custom", Detail: "provided by the caller"}
	if st == nil {
		var err error
		if st, status, err = chooseSecretStore(keyringService); err != nil {
			return err
		}
	}
	a.keys = &keyVault{store: st, status: status, cache: map[string]string{}}
	if status.Kind == "file" {
		a.log.Info("keys are stored in a file", "path", status.Path, "why", status.Detail)
	}
	saved, err := a.db.Settings(ctx)
	if err != nil {
		return err
	}
	a.keys.id = saved[keyVaultID]
	if a.readOnly != "" {
		return nil
	}
	if a.keys.id == "" {
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		a.keys.id = hex.EncodeToString(b)
		if err := a.db.SaveSettings(ctx, map[string]string{keyVaultID: a.keys.id}); err != nil {
			return err
		}
	}
	path := a.db.Path()
	// A key that cannot move now (the storage refuses it) stays where it
	// is until the next start: the app runs, and says so in the log.
	if err := a.moveKeys(ctx, path, saved); err != nil {
		a.log.Warn("keys stay in the database until the next start", "err", err)
	}
	a.scrubBackups(ctx, path)
	return nil
}

// moveKeys moves the keys still in the settings rows to the vault and
// rebuilds the file without them.
func (a *App) moveKeys(ctx context.Context, path string, saved map[string]string) error {
	if hasSecrets(saved) {
		moved := map[string]string{keyScrubDB: "pending"}
		for k, v := range saved {
			// Only values in clear move: "" is a key already moved.
			if (secretSetting(k) && v != "") || k == keyEndpoints {
				moved[k] = v
			}
		}
		rows, err := stripSecrets(moved, a.keys, true)
		if err != nil {
			return err
		}
		if err := a.db.SaveSettings(ctx, rows); err != nil {
			return err
		}
		saved[keyScrubDB] = "pending"
		a.log.Info("keys moved out of the database", "storage", a.keys.status.Detail)
	}
	if saved[keyScrubDB] == "pending" {
		if err := rebuildFile(ctx, path); err != nil {
			return fmt.Errorf("rebuilding the database without its keys: %w", err)
		}
		if err := a.db.SaveSettings(ctx, map[string]string{keyScrubDB: ""}); err != nil {
			return err
		}
	}
	return nil
}

// scrubBackups removes the keys of every migration backup of the
// database; one that cannot be opened and rewritten is deleted.
func (a *App) scrubBackups(ctx context.Context, dbPath string) {
	backups, _ := filepath.Glob(globEscape(dbPath) + ".pre-v*.bak")
	for _, b := range backups {
		if err := scrubBackup(ctx, b); err != nil {
			a.log.Warn("a migration backup could not be cleared of its keys; deleting it", "path", b, "err", err)
			for _, p := range []string{b, b + "-journal", b + "-wal", b + "-shm"} {
				if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
					a.log.Error("deleting a migration backup", "path", p, "err", err)
				}
			}
		}
	}
}

func globEscape(p string) string {
	return strings.NewReplacer("[", "[[]", "*", "[*]", "?", "[?]").Replace(p)
}

// scrubBackup rewrites a backup's settings rows without keys and rebuilds
// the file; one without keys is left untouched.
func scrubBackup(ctx context.Context, path string) error {
	db, err := openFile(path)
	if err != nil {
		return err
	}
	defer db.Close()
	m, err := readSettings(ctx, db)
	if err != nil {
		return err
	}
	if !hasSecrets(m) {
		return nil
	}
	rows, err := stripSecrets(m, nil, false)
	if err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for k, v := range rows {
		if v == m[k] {
			continue
		}
		if _, err := tx.ExecContext(ctx, "UPDATE settings SET value = ? WHERE key = ?", v, k); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return vacuum(ctx, db)
}

// readSettings reads a settings table (none: no rows).
func readSettings(ctx context.Context, db *sql.DB) (map[string]string, error) {
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'settings'").Scan(&n); err != nil {
		return nil, err
	}
	m := map[string]string{}
	if n == 0 {
		return m, nil
	}
	rows, err := db.QueryContext(ctx, "SELECT key, value FROM settings")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		m[k] = v
	}
	return m, rows.Err()
}

// rebuildFile rebuilds a database file so no freed page keeps old rows.
// The database may be open elsewhere in the process (idle).
func rebuildFile(ctx context.Context, path string) error {
	db, err := openFile(path)
	if err != nil {
		return err
	}
	defer db.Close()
	return vacuum(ctx, db)
}

// vacuum rebuilds the file with secure_delete on, then empties the WAL
// (when there is one) so no old page survives in either.
func vacuum(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	for _, q := range []string{"PRAGMA secure_delete = ON", "VACUUM"} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	var mode string
	if err := conn.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return err
	}
	if strings.EqualFold(mode, "wal") {
		var busy, logFrames, done int
		if err := conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logFrames, &done); err != nil {
			return fmt.Errorf("checkpoint: %w", err)
		}
		if busy != 0 {
			return errors.New("checkpoint: the database is busy")
		}
	}
	return nil
}

// openFile opens an SQLite file with one connection (the store's driver).
func openFile(path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	p := filepath.ToSlash(path)
	if len(p) >= 2 && p[1] == ':' {
		p = "/" + p
	}
	p = strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(p)
	db, err := sql.Open("sqlite", "file:"+p+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// putMCPSecret stores an MCP header or env secret (mcp.ExtractSecrets).
func (a *App) putMCPSecret(account, secret string) error {
	return a.keys.set(account, secret)
}

// mcpSecretsIn is mcp.json as the app runs it: secrets still in clear in
// the file move to the secret store (the file is rewritten with
// references), and references resolve to their values.
func (a *App) mcpSecretsIn(cfg mcp.Config) mcp.Config {
	if a.readOnly == "" {
		stored, changed, err := mcp.ExtractSecrets(cfg, a.putMCPSecret)
		switch {
		case err != nil:
			a.log.Warn("the MCP secrets stay in the configuration file", "err", err)
		case changed:
			if err := mcp.SaveConfig(a.mcpCfg.path, stored); err != nil {
				a.log.Warn("the MCP secrets stay in the configuration file", "err", err)
			} else {
				a.log.Info("MCP secrets moved out of the configuration file", "path", a.mcpCfg.path, "storage", a.keys.storage().Detail)
				cfg = stored
			}
		default:
			cfg = stored
		}
	}
	resolved, missing := mcp.ResolveSecrets(cfg, func(account string) (string, error) { return a.keys.get(account) })
	if len(missing) > 0 {
		a.log.Warn("MCP secrets not found in the key storage; sent empty", "missing", strings.Join(missing, ", "))
	}
	return resolved
}

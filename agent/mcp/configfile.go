package mcp

import (
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
)

// ConfigFile is the configuration file ($XDG_CONFIG_HOME/juncture/mcp.json)
// as the app keeps it: the source of truth, read at start and after every
// save. A file that does not parse is reported (line and column) and never
// overwritten by a structured edit, only replaced by a raw text that
// parses. Secrets still in clear in the file move to the secret store (the
// file keeps references); what runs has each reference resolved to the
// value stored for its own server and field.
type ConfigFile struct {
	path     string
	secrets  SecretStore
	writable bool
	log      *slog.Logger

	mu   sync.Mutex
	cfg  Config // last good configuration, references resolved (what runs)
	file Config // the same as in the file: references, never their values
	text string // the file as read
	err  *ConfigError
}

// SecretStore keeps the secrets the file's references name (the app's
// key vault).
type SecretStore interface {
	Get(account string) (string, error)
	Set(account, secret string) error
	Delete(account string) error
}

// Edit refusals; an *EditError says which, in words for the person.
var (
	ErrNoServerName = errors.New("no server name")
	ErrServerExists = errors.New("server name taken")
	ErrConfigBroken = errors.New("the configuration file does not parse")
	ErrReadOnly     = errors.New("the configuration is read-only")
)

// readOnly is the refusal of an edit to a file opened not writable (a
// read-only copy of the app's data shares the person's real file).
var readOnly = &EditError{Err: ErrReadOnly, Message: "This is a read-only copy of Juncture's data: its MCP servers cannot be changed here."}

// EditError is a refused edit: Err is one of the refusals above or
// ErrUnknownServer.
type EditError struct {
	Err     error
	Message string
}

func (e *EditError) Error() string { return e.Message }
func (e *EditError) Unwrap() error { return e.Err }

func noSuchServer(name string) error {
	return &EditError{Err: ErrUnknownServer, Message: fmt.Sprintf("No server called %q is configured.", name)}
}

// OpenConfigFile is the file at path ("" = none); writable false (a
// read-only copy of the app's data) never moves a secret out of it.
func OpenConfigFile(path string, secrets SecretStore, writable bool, log *slog.Logger) *ConfigFile {
	if log == nil {
		log = slog.Default()
	}
	return &ConfigFile{path: path, secrets: secrets, writable: writable, log: log}
}

// Running is the configuration last loaded as it runs (references
// resolved): never shown, never written.
func (f *ConfigFile) Running() Config {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cfg
}

// Path is the file's path.
func (f *ConfigFile) Path() string { return f.path }

// Load reads the file and returns what should run. A broken file runs
// nothing: the person fixes it in Settings.
func (f *ConfigFile) Load() Config {
	var cfg, file Config
	var text []byte
	var err error
	if f.path != "" {
		cfg, text, err = ReadConfig(f.path)
		if err == nil {
			file, cfg = f.secretsIn(cfg)
		}
	}
	f.mu.Lock()
	f.text = string(text)
	var ce *ConfigError
	switch {
	case errors.As(err, &ce):
		f.err, f.cfg, f.file = ce, Config{}, Config{}
	case err != nil:
		f.err, f.cfg, f.file = &ConfigError{Line: 1, Column: 1, Message: err.Error()}, Config{}, Config{}
	default:
		f.err, f.cfg, f.file = nil, cfg, file
	}
	apply := f.cfg
	f.mu.Unlock()
	if err != nil {
		f.log.Warn("the MCP configuration does not parse; no server started from it", "path", f.path, "err", err)
	}
	return apply
}

// secretsIn is the file as kept and as it runs: secrets still in clear
// move to the secret store (the file is rewritten with references: file),
// and each reference resolves to the value stored for its own server and
// field (resolved). Settings shows and edits file, never resolved.
func (f *ConfigFile) secretsIn(cfg Config) (file, resolved Config) {
	file = cfg
	if f.writable {
		stored, changed, err := ExtractSecrets(cfg, f.secrets.Set)
		switch {
		case err != nil:
			f.log.Warn("the MCP secrets stay in the configuration file", "err", err)
		case changed:
			if err := SaveConfig(f.path, stored); err != nil {
				f.log.Warn("the MCP secrets stay in the configuration file", "err", err)
			} else {
				f.log.Info("MCP secrets moved out of the configuration file", "path", f.path)
				file = stored
			}
		default:
			file = stored
		}
	}
	resolved, missing := ResolveSecrets(file, f.secrets.Get)
	if len(missing) > 0 {
		f.log.Warn("MCP secrets not resolved; sent empty", "missing", strings.Join(missing, ", "))
	}
	return file, resolved
}

// NamedServer is one configured server, secrets masked.
type NamedServer struct {
	Name   string
	Config ServerConfig
}

// View is the file as Settings shows it: its text and servers, secrets
// masked (a resolved value is never shown), or where it is broken.
func (f *ConfigFile) View() (text string, servers []NamedServer, broken *ConfigError) {
	f.mu.Lock()
	defer f.mu.Unlock()
	servers = []NamedServer{}
	if f.err != nil {
		// It does not parse, so it is masked by pattern, not field by field.
		return MaskUnparsed(f.text), servers, f.err
	}
	masked := f.file.Masked()
	for _, name := range slices.Sorted(maps.Keys(masked.Servers)) {
		servers = append(servers, NamedServer{Name: name, Config: masked.Servers[name]})
	}
	if b, err := masked.Marshal(); err == nil && len(f.file.Servers)+len(f.file.Extra) > 0 {
		text = string(b)
	} else if err == nil {
		text = f.text
	}
	return text, servers, nil
}

// edit changes the file's form, saves it (never over a broken file) and
// reloads it; the caller applies what Load returned. A file opened not
// writable refuses every edit: the app refuses them first (its read-only
// guard), and this is the second line.
func (f *ConfigFile) edit(change func(*Config) error) (Config, error) {
	if !f.writable {
		return Config{}, readOnly
	}
	f.mu.Lock()
	if f.err != nil {
		f.mu.Unlock()
		return Config{}, &EditError{Err: ErrConfigBroken, Message: fmt.Sprintf("The MCP configuration file does not parse (%s). Fix it in the text editor first; Juncture never overwrites it.", f.err.Error())}
	}
	// Edits start from the file's form: references stay references, and
	// no resolved value is ever written back.
	next := Config{Servers: make(map[string]ServerConfig, len(f.file.Servers)+1), Extra: f.file.Extra}
	maps.Copy(next.Servers, f.file.Servers)
	f.mu.Unlock()
	if err := change(&next); err != nil {
		return Config{}, err
	}
	if err := SaveConfigSecrets(f.path, next, f.secrets.Set); err != nil {
		return Config{}, err
	}
	return f.Load(), nil
}

// SaveServer adds a server, or replaces the one called previousName
// (renaming it when name differs). Masked secrets keep their stored value.
func (f *ConfigFile) SaveServer(previousName, name string, cfg ServerConfig) (Config, error) {
	name = strings.TrimSpace(name)
	var renamed *ServerConfig
	run, err := f.edit(func(c *Config) error {
		if name == "" {
			return &EditError{Err: ErrNoServerName, Message: "Give the server a name."}
		}
		old, had := c.Servers[previousName]
		taken := &EditError{Err: ErrServerExists, Message: fmt.Sprintf("A server called %q is already configured.", name)}
		if previousName == "" || !had {
			if _, dup := c.Servers[name]; dup {
				return taken
			}
		} else if name != previousName {
			if _, dup := c.Servers[name]; dup {
				return taken
			}
			delete(c.Servers, previousName)
		}
		if had {
			cfg = RestoreSecrets(old, cfg)
			cfg.Extra = old.Extra
			if cfg.Sandbox == nil {
				// The form does not show the "sandbox" entry: a save
				// from it keeps the folders and network the person set.
				cfg.Sandbox = old.Sandbox
			}
			if name != previousName {
				// References name their server: a renamed server's
				// secrets are stored again under the new name.
				cfg = f.resolveServer(previousName, cfg)
				renamed = &old
			}
		}
		c.Servers[name] = cfg
		return nil
	})
	if err == nil && renamed != nil {
		// Stored again under the new name: the old name's copies go.
		f.forgetSecrets(previousName, *renamed)
	}
	return run, err
}

// DeleteServer removes a server (and the secrets its references named).
func (f *ConfigFile) DeleteServer(name string) (Config, error) {
	var gone ServerConfig
	run, err := f.edit(func(c *Config) error {
		old, ok := c.Servers[name]
		if !ok {
			return noSuchServer(name)
		}
		gone = old
		delete(c.Servers, name)
		return nil
	})
	if err == nil {
		f.forgetSecrets(name, gone)
	}
	return run, err
}

// SetEnabled turns a server on or off ("disabled" in the file).
func (f *ConfigFile) SetEnabled(name string, enabled bool) (Config, error) {
	return f.edit(func(c *Config) error {
		sc, ok := c.Servers[name]
		if !ok {
			return noSuchServer(name)
		}
		sc.Disabled = !enabled
		c.Servers[name] = sc
		return nil
	})
}

// SaveText replaces the file with text the person edited (the way to fix
// a broken file). Nothing is written unless it parses; masked secrets
// keep their stored value.
func (f *ConfigFile) SaveText(text string) (Config, error) {
	if !f.writable {
		return Config{}, readOnly
	}
	f.mu.Lock()
	prev, broken, onDisk := f.file, f.err != nil, f.text
	f.mu.Unlock()
	if broken {
		// The masked text of a broken file came from MaskUnparsed: put the
		// values it hid back by the same pattern.
		text = RestoreUnparsed(text, onDisk)
	}
	if _, err := SaveConfigTextSecrets(f.path, []byte(text), prev, f.secrets.Set); err != nil {
		return Config{}, err
	}
	return f.Load(), nil
}

// ImportClaude adds the servers of a Claude Desktop configuration (its
// text): new names are added, identical ones skipped, a different server
// under a taken name is added as "<name>-2".
func (f *ConfigFile) ImportClaude(text string) (ImportSummary, Config, error) {
	imported, err := ImportClaudeDesktop([]byte(text))
	if err != nil {
		return ImportSummary{}, Config{}, err
	}
	var sum ImportSummary
	run, err := f.edit(func(c *Config) error {
		var merged Config
		merged, sum = MergeImported(*c, imported)
		*c = merged
		return nil
	})
	if sum.Added == nil {
		sum.Added = []string{}
	}
	if sum.Skipped == nil {
		sum.Skipped = []SkippedServer{}
	}
	return sum, run, err
}

// resolveServer is cfg with the references of the server called name
// resolved (what a rename stores again under the new name).
func (f *ConfigFile) resolveServer(name string, cfg ServerConfig) ServerConfig {
	out, _ := ResolveSecrets(Config{Servers: map[string]ServerConfig{name: cfg}}, f.secrets.Get)
	return out.Servers[name]
}

// forgetSecrets deletes the stored secrets a removed server's references
// named, so a later server given the same name (and the same reference)
// does not get the old server's token.
func (f *ConfigFile) forgetSecrets(name string, cfg ServerConfig) {
	var accounts []string
	ResolveSecrets(Config{Servers: map[string]ServerConfig{name: cfg}}, func(account string) (string, error) {
		accounts = append(accounts, account)
		return "", nil
	})
	for _, acc := range accounts {
		if err := f.secrets.Delete(acc); err != nil {
			f.log.Warn("a removed MCP server's secret stays in the key storage", "server", name, "err", err)
		}
	}
}

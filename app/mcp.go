package app

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/agent/model"
	"github.com/juncture-app/juncture/store"
)

// MCP servers: the configuration file ($XDG_CONFIG_HOME/juncture/mcp.json)
// is the source of truth. It is read at start and after every save from
// Settings; a file that does not parse is reported (line and column) and
// never overwritten by the structured editor, only replaced by a raw text
// the person fixed. Header values and secret-looking env values are masked
// in everything these methods return.

// MCPConfigView is the configuration as Settings shows it.
type MCPConfigView struct {
	Path string `json:"path"`
	// Text is the file as it is on disk, secrets masked (the raw editor).
	Text    string           `json:"text"`
	Servers []MCPServerEntry `json:"servers"`
	// Error is set when the file does not parse: Servers is then empty and
	// no server was started from it.
	Error *MCPConfigError `json:"error,omitempty"`
	// ClaudeDesktopPath is where Claude Desktop keeps its configuration on
	// this system (a hint for the import button).
	ClaudeDesktopPath string `json:"claudeDesktopPath"`
}

// MCPServerEntry is one configured server, secrets masked.
type MCPServerEntry struct {
	Name   string           `json:"name"`
	Config mcp.ServerConfig `json:"config"`
}

// MCPConfigError says where the configuration file is broken.
type MCPConfigError struct {
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// MCPChanged is the "mcp" event: a server's status or tools changed, or
// the configuration was saved. The window reloads what it shows.
type MCPChanged struct{}

// mcpState is the app's view of the configuration file.
type mcpState struct {
	path string
	mu   sync.Mutex
	cfg  mcp.Config // last good configuration, references resolved (what runs)
	file mcp.Config // the same as in the file: references, never their values
	text string     // the file as read
	err  *mcp.ConfigError
}

func (a *App) mcpChanged() { a.emit("mcp", MCPChanged{}) }

// startMCP reads the configuration file and starts its servers in the
// background (the window never waits for them).
func (a *App) startMCP() error {
	path := a.cfg.MCPConfigPath
	var err error
	if path == "" {
		path, err = mcp.DefaultConfigPath()
	}
	a.mcpCfg = &mcpState{path: path}
	a.mcp = mcp.NewManager(mcp.Options{
		Processes: a.procs,
		Pins:      pinStore{a.db},
		Roots:     func() []string { return []string{a.workspace().Root} },
		Sampler:   a.sample,
		Logger:    a.log.With("part", "mcp"),
		Version:   a.cfg.Version,
		OnChange:  a.mcpChanged,
	})
	if err != nil {
		return fmt.Errorf("finding the MCP configuration file: %w", err)
	}
	a.loadMCPLogLevels()
	a.loadMCP()
	return nil
}

// pinStore adapts the store's tool pins to what the MCP manager needs.
type pinStore struct{ db *store.DB }

func (p pinStore) ToolPins(ctx context.Context) ([]mcp.Pin, error) {
	pins, err := p.db.ToolPins(ctx)
	out := make([]mcp.Pin, 0, len(pins))
	for _, s := range pins {
		out = append(out, mcp.Pin(s))
	}
	return out, err
}

func (p pinStore) SaveToolPin(ctx context.Context, pin mcp.Pin) error {
	return p.db.SaveToolPin(ctx, store.ToolPin(pin))
}

// loadMCP reads the configuration file and applies it. A broken file keeps
// nothing running from it: the person fixes it in Settings.
func (a *App) loadMCP() {
	s := a.mcpCfg
	var cfg, file mcp.Config
	var text []byte
	var err error
	if s.path != "" {
		cfg, text, err = mcp.ReadConfig(s.path)
		if err == nil {
			file, cfg = a.mcpSecretsIn(cfg)
		}
	}
	s.mu.Lock()
	s.text = string(text)
	var ce *mcp.ConfigError
	switch {
	case errors.As(err, &ce):
		s.err, s.cfg, s.file = ce, mcp.Config{}, mcp.Config{}
	case err != nil:
		s.err, s.cfg, s.file = &mcp.ConfigError{Line: 1, Column: 1, Message: err.Error()}, mcp.Config{}, mcp.Config{}
	default:
		s.err, s.cfg, s.file = nil, cfg, file
	}
	apply := s.cfg
	s.mu.Unlock()
	if err != nil {
		a.log.Warn("the MCP configuration does not parse; no server started from it", "path", s.path, "err", err)
	}
	a.mcp.Apply(apply)
}

// ListMCPServers reports every configured server: its transport, status,
// error and tools.
func (a *App) ListMCPServers() ([]mcp.ServerStatus, error) {
	return a.mcp.Servers(), nil
}

// GetMCPConfig returns the configuration as Settings edits it.
func (a *App) GetMCPConfig() (MCPConfigView, error) {
	s := a.mcpCfg
	s.mu.Lock()
	defer s.mu.Unlock()
	v := MCPConfigView{Path: s.path, Servers: []MCPServerEntry{}, ClaudeDesktopPath: mcp.ClaudeDesktopConfigPath()}
	if s.err != nil {
		v.Error = &MCPConfigError{Line: s.err.Line, Column: s.err.Column, Message: s.err.Message}
		// It does not parse, so it is masked by pattern, not field by field.
		v.Text = mcp.MaskUnparsed(s.text)
		return v, nil
	}
	// The file's form (references, not their values), masked: a resolved
	// value is never shown.
	masked := s.file.Masked()
	for _, name := range slices.Sorted(maps.Keys(masked.Servers)) {
		v.Servers = append(v.Servers, MCPServerEntry{Name: name, Config: masked.Servers[name]})
	}
	if b, err := masked.Marshal(); err == nil && len(s.file.Servers)+len(s.file.Extra) > 0 {
		v.Text = string(b)
	} else if err == nil {
		v.Text = s.text
	}
	return v, nil
}

// SaveMCPServer adds a server, or replaces the one called previousName
// (renaming it when name differs). Masked secrets keep their stored value.
// It refuses while the file does not parse.
func (a *App) SaveMCPServer(previousName, name string, cfg mcp.ServerConfig) (MCPConfigView, error) {
	name = strings.TrimSpace(name)
	var renamed *mcp.ServerConfig
	v, err := a.editMCP(func(c *mcp.Config) error {
		if name == "" {
			return errorf(CodeInvalidArgument, "Give the server a name.")
		}
		old, had := c.Servers[previousName]
		if previousName == "" || !had {
			if _, dup := c.Servers[name]; dup {
				return errorf(CodeConflict, fmt.Sprintf("A server called %q is already configured.", name))
			}
		} else if name != previousName {
			if _, dup := c.Servers[name]; dup {
				return errorf(CodeConflict, fmt.Sprintf("A server called %q is already configured.", name))
			}
			delete(c.Servers, previousName)
		}
		if had {
			cfg = mcp.RestoreSecrets(old, cfg)
			cfg.Extra = old.Extra
			if cfg.Sandbox == nil {
				// The form does not show the "sandbox" entry: a save
				// from it keeps the folders and network the person set.
				cfg.Sandbox = old.Sandbox
			}
			if name != previousName {
				// References name their server: a renamed server's
				// secrets are stored again under the new name.
				cfg = a.resolveMCPServer(previousName, cfg)
				renamed = &old
			}
		}
		c.Servers[name] = cfg
		return nil
	})
	if err == nil && renamed != nil {
		// Stored again under the new name: the old name's copies go.
		a.forgetMCPSecrets(previousName, *renamed)
	}
	return v, err
}

// DeleteMCPServer removes a server from the configuration (its process
// ends).
func (a *App) DeleteMCPServer(name string) (MCPConfigView, error) {
	var gone mcp.ServerConfig
	v, err := a.editMCP(func(c *mcp.Config) error {
		old, ok := c.Servers[name]
		if !ok {
			return errorf(CodeNotFound, fmt.Sprintf("No server called %q is configured.", name))
		}
		gone = old
		delete(c.Servers, name)
		return nil
	})
	if err == nil {
		a.forgetMCPSecrets(name, gone)
	}
	return v, err
}

// forgetMCPSecrets deletes the stored secrets a removed server's
// references named, so a later server given the same name (and the same
// reference) does not get the old server's token.
func (a *App) forgetMCPSecrets(name string, cfg mcp.ServerConfig) {
	var accounts []string
	mcp.ResolveSecrets(mcp.Config{Servers: map[string]mcp.ServerConfig{name: cfg}}, func(account string) (string, error) {
		accounts = append(accounts, account)
		return "", nil
	})
	for _, acc := range accounts {
		if err := a.keys.Delete(acc); err != nil {
			a.log.Warn("a removed MCP server's secret stays in the key storage", "server", name, "err", err)
		}
	}
}

// SetMCPServerEnabled turns a server on or off ("disabled" in the file).
func (a *App) SetMCPServerEnabled(name string, enabled bool) (MCPConfigView, error) {
	return a.editMCP(func(c *mcp.Config) error {
		sc, ok := c.Servers[name]
		if !ok {
			return errorf(CodeNotFound, fmt.Sprintf("No server called %q is configured.", name))
		}
		sc.Disabled = !enabled
		c.Servers[name] = sc
		return nil
	})
}

// SaveMCPConfigText replaces the file with text the person edited (the
// way to fix a broken file). Nothing is written unless it parses; masked
// secrets keep their stored value.
func (a *App) SaveMCPConfigText(text string) (MCPConfigView, error) {
	s := a.mcpCfg
	s.mu.Lock()
	prev, broken, onDisk := s.file, s.err != nil, s.text
	s.mu.Unlock()
	if broken {
		// The masked text of a broken file came from MaskUnparsed: put the
		// values it hid back by the same pattern.
		text = mcp.RestoreUnparsed(text, onDisk)
	}
	if _, err := mcp.SaveConfigTextSecrets(s.path, []byte(text), prev, a.putMCPSecret); err != nil {
		return MCPConfigView{}, mcpError(err)
	}
	a.loadMCP()
	a.mcpChanged()
	return a.GetMCPConfig()
}

// ImportClaudeConfig adds the servers of a Claude Desktop configuration
// (its text): new names are added, identical ones skipped, a different
// server under a taken name is added as "<name>-2".
func (a *App) ImportClaudeConfig(text string) (mcp.ImportSummary, error) {
	imported, err := mcp.ImportClaudeDesktop([]byte(text))
	if err != nil {
		return mcp.ImportSummary{}, mcpError(err)
	}
	var sum mcp.ImportSummary
	_, err = a.editMCP(func(c *mcp.Config) error {
		var merged mcp.Config
		merged, sum = mcp.MergeImported(*c, imported)
		*c = merged
		return nil
	})
	if sum.Added == nil {
		sum.Added = []string{}
	}
	if sum.Skipped == nil {
		sum.Skipped = []mcp.SkippedServer{}
	}
	return sum, err
}

// RestartMCPServer stops and starts one server now (a crashed server's
// backoff is skipped).
func (a *App) RestartMCPServer(name string) error {
	if err := a.mcp.Restart(name); err != nil {
		if errors.Is(err, mcp.ErrUnknownServer) {
			return errorf(CodeNotFound, fmt.Sprintf("No server called %q is configured.", name))
		}
		return asError(err)
	}
	return nil
}

// MCPServerLog returns the tail of a server's stderr and log messages.
func (a *App) MCPServerLog(name string) (string, error) {
	s, err := a.mcp.Log(name)
	if errors.Is(err, mcp.ErrUnknownServer) {
		return "", errorf(CodeNotFound, fmt.Sprintf("No server called %q is configured.", name))
	}
	return s, err
}

// resolveMCPServer is cfg with the references of the server called name
// resolved (what a rename stores again under the new name).
func (a *App) resolveMCPServer(name string, cfg mcp.ServerConfig) mcp.ServerConfig {
	out, _ := mcp.ResolveSecrets(mcp.Config{Servers: map[string]mcp.ServerConfig{name: cfg}}, a.keys.Get)
	return out.Servers[name]
}

// editMCP changes the configuration, saves it (never over a broken file)
// and applies it.
func (a *App) editMCP(change func(*mcp.Config) error) (MCPConfigView, error) {
	s := a.mcpCfg
	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		return MCPConfigView{}, errorf(CodeConflict, fmt.Sprintf("The MCP configuration file does not parse (%s). Fix it in the text editor first; Juncture never overwrites it.", s.err.Error()))
	}
	// Edits start from the file's form: references stay references, and
	// no resolved value is ever written back.
	next := mcp.Config{Servers: make(map[string]mcp.ServerConfig, len(s.file.Servers)+1), Extra: s.file.Extra}
	for k, v := range s.file.Servers {
		next.Servers[k] = v
	}
	s.mu.Unlock()
	if err := change(&next); err != nil {
		return MCPConfigView{}, err
	}
	if err := mcp.SaveConfigSecrets(s.path, next, a.putMCPSecret); err != nil {
		return MCPConfigView{}, mcpError(err)
	}
	a.loadMCP()
	a.mcpChanged()
	return a.GetMCPConfig()
}

func mcpError(err error) error {
	var ce *mcp.ConfigError
	if errors.As(err, &ce) {
		return &Error{Code: CodeInvalidArgument, Message: ce.Error(),
			Details: map[string]string{"line": fmt.Sprint(ce.Line), "column": fmt.Sprint(ce.Column)}}
	}
	return asError(err)
}

// sample answers a server's approved sampling request with the thread's
// configured model (the person approved it on the card first).
func (a *App) sample(ctx context.Context, r mcp.SampleRequest) (mcp.SampleResult, error) {
	// The thread's own endpoint and model, as its turns use: a chat set
	// to another endpoint must not send the server's prompt (or spend the
	// key) of the default one.
	o, err := a.threadOptions(ctx, r.ThreadID)
	if err != nil {
		return mcp.SampleResult{}, fmt.Errorf("reading the thread's options: %w", err)
	}
	cfg, err := a.modelConfig(ctx, o)
	if err != nil {
		return mcp.SampleResult{}, err
	}
	c := a.client(cfg)
	msgs := make([]history.Message, 0, len(r.Messages))
	for _, m := range r.Messages {
		role := history.RoleUser
		if m.Role == "assistant" {
			role = history.RoleAssistant
		}
		msgs = append(msgs, history.Message{Role: role, Content: m.Text, Status: history.StatusComplete})
	}
	var text strings.Builder
	for d, err := range c.Deltas(ctx, model.Request{System: r.System, Messages: msgs, MaxTokens: r.MaxTokens}) {
		if err != nil {
			return mcp.SampleResult{}, fmt.Errorf("asking the model for %s: %w", r.Server, err)
		}
		text.WriteString(d.Text)
	}
	return mcp.SampleResult{Text: text.String(), Model: c.Model(), StopReason: "endTurn"}, nil
}

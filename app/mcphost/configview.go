package mcphost

import "github.com/juncture-app/juncture/agent/mcp"

// The configuration file ($XDG_CONFIG_HOME/juncture/mcp.json) as Settings
// shows it. Header values and secret-looking env values are masked in
// all of it (mcp.ConfigFile.View).

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

// ConfigView is f as Settings shows it.
func ConfigView(f *mcp.ConfigFile) MCPConfigView {
	text, servers, broken := f.View()
	v := MCPConfigView{Path: f.Path(), Text: text, Servers: []MCPServerEntry{}, ClaudeDesktopPath: mcp.ClaudeDesktopConfigPath()}
	if broken != nil {
		v.Error = &MCPConfigError{Line: broken.Line, Column: broken.Column, Message: broken.Message}
	}
	for _, s := range servers {
		v.Servers = append(v.Servers, MCPServerEntry{Name: s.Name, Config: s.Config})
	}
	return v
}

// LogLevels is the log level chosen for each server (servers left to
// their own default are absent).
func LogLevels(m *mcp.Manager) map[string]string {
	out := map[string]string{}
	for _, s := range m.Servers() {
		if l := m.LogLevel(s.Name); l != "" {
			out[s.Name] = l
		}
	}
	return out
}

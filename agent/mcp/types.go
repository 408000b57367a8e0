package mcp

import "encoding/json"

// Policy is a server's approval policy, set by the person in mcp.json
// ("approval") or in Settings.
type Policy string

const (
	// PolicyDefault asks before every tool call, except tools the server
	// annotates readOnlyHint: true (a hint from a stranger: see Pins).
	PolicyDefault Policy = ""
	// PolicyAsk asks before every call, read-only or not.
	PolicyAsk Policy = "ask"
	// PolicyTrust never asks for this server's tools.
	PolicyTrust Policy = "trust"
)

// ServerConfig is one entry of mcp.json's "mcpServers": a stdio server
// (Command) or an HTTP server (URL), never both.
type ServerConfig struct {
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"` // secrets: never logged, masked in Settings
	// Type is the transport other assistants write ("stdio", "http",
	// "streamable-http", "sse"); empty means: from Command / URL.
	Type string `json:"type,omitempty"`
	// Juncture's own fields.
	Disabled bool   `json:"disabled,omitempty"`
	Approval Policy `json:"approval,omitempty"`
	// Sandbox is how a stdio server is confined (nil: the defaults; see
	// ServerSandbox).
	Sandbox *ServerSandbox `json:"sandbox,omitempty"`
	// Auth is how Juncture signs in to an HTTP server with OAuth (nil:
	// headers only; oauth_config.go).
	Auth *ServerAuth `json:"auth,omitempty"`
	// Extra holds the fields Juncture does not know, written back as they
	// were (other assistants' settings survive a save).
	Extra map[string]json.RawMessage `json:"-"`
}

// ServerSandbox is the "sandbox" entry of a stdio server in mcp.json
// (agent/sandbox). A server may always write in the workspace, its private
// TMPDIR and the package managers' caches (serverCaches), and read
// anything; Write adds folders, Network limits the network.
type ServerSandbox struct {
	// Write are the server's own folders it may change besides the
	// workspace: absolute, or starting with "~/".
	Write []string `json:"write,omitempty"`
	// Read are folders (or files) it may read besides the system, its
	// own program files and the folders it writes: absolute, or starting
	// with "~/".
	Read []string `json:"read,omitempty"`
	// Network is "any" (the default), "none", "local" (this machine,
	// through the sandbox's proxy), "ports" (TCP to Ports only) or
	// "hosts" (Hosts only, through the sandbox's proxy).
	Network string   `json:"network,omitempty"`
	Ports   []uint16 `json:"ports,omitempty"`
	Hosts   []string `json:"hosts,omitempty"`
	// Off runs this server unconfined; its status says so.
	Off bool `json:"off,omitempty"`
}

// Transport names as ListMCPServers reports them.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
)

// Transport is "stdio" or "http" (Streamable HTTP, or the legacy HTTP+SSE
// transport when Type says "sse" or Streamable HTTP is refused).
func (c ServerConfig) Transport() string {
	if c.URL != "" {
		return TransportHTTP
	}
	return TransportStdio
}

// Config is the whole of mcp.json.
type Config struct {
	Servers map[string]ServerConfig
	// Extra holds top-level fields other than mcpServers, kept on save.
	Extra map[string]json.RawMessage
}

// Server statuses.
const (
	StatusStarting = "starting"
	StatusReady    = "ready"
	StatusError    = "error"
	StatusDisabled = "disabled"
)

// ToolInfo is one tool of a server as Settings and the window show it.
type ToolInfo struct {
	Name        string `json:"name"`      // the server's own name for it
	ModelName   string `json:"modelName"` // what the model calls it: <server>__<tool>
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	ReadOnly    bool   `json:"readOnly"` // effective: runs without asking (policy and pins applied)
	Destructive bool   `json:"destructive"`
	// ClaimsReadOnly: the server now says read-only, but it said otherwise
	// when Juncture first saw the tool, so Juncture keeps asking.
	ClaimsReadOnly bool `json:"claimsReadOnly,omitempty"`
}

// ServerStatus is one server as ListMCPServers reports it.
type ServerStatus struct {
	Name      string `json:"name"`
	Title     string `json:"title,omitempty"` // from the server's initialize result
	Transport string `json:"transport"`       // "stdio" | "http"
	Status    string `json:"status"`          // "starting" | "ready" | "error" | "disabled"
	Error     string `json:"error,omitempty"`
	Restarts  int    `json:"restarts,omitempty"`  // since the app started (crashes and restarts)
	NextRetry int64  `json:"nextRetry,omitempty"` // ms since epoch: when a crashed server is started again
	Policy    Policy `json:"approval,omitempty"`
	// Sandbox says how a running stdio server is confined:
	// "sandbox: landlock (writes: …; network: any)" or "sandbox: none (why)".
	Sandbox string     `json:"sandbox,omitempty"`
	Tools   []ToolInfo `json:"tools"`
	// Auth is the server's sign-in (nil: it asked for none).
	Auth *AuthStatus `json:"auth,omitempty"`
}

// Pin is what Juncture remembers about a tool the first time it saw it:
// a server's annotations are hints from a stranger, so a tool first seen
// as not read-only never becomes "runs without asking" by saying so later.
type Pin struct {
	Server    string `json:"server"`
	Tool      string `json:"tool"`
	ReadOnly  bool   `json:"readOnly"`
	FirstSeen int64  `json:"firstSeen"` // ms since epoch
}

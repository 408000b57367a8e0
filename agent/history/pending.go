package history

import "encoding/json"

// InterruptStatus is where a pause item stands.
type InterruptStatus string

const (
	InterruptPending   InterruptStatus = "pending"
	InterruptResolved  InterruptStatus = "resolved"
	InterruptCancelled InterruptStatus = "cancelled"
)

// Interrupt kinds (TanStack AI's classification of AG-UI interrupts).
const (
	KindToolApproval = "tool-approval"
	KindGeneric      = "generic"
)

// Interrupt is one item a paused run waits on: a tool approval or a typed
// question. Descriptor is the AG-UI Interrupt object exactly as emitted in
// RUN_FINISHED (binding metadata included), so a restart re-emits the same
// bytes and the same ids stay resolvable.
type Interrupt struct {
	ID         string          `json:"id"`
	ThreadID   string          `json:"threadId"`
	RunID      string          `json:"runId"` // the interrupted run
	Generation int             `json:"generation"`
	Kind       string          `json:"kind"`
	ToolCallID string          `json:"toolCallId,omitempty"`
	Descriptor json.RawMessage `json:"descriptor"`
	Status     InterruptStatus `json:"status"`
	Response   json.RawMessage `json:"response,omitempty"` // the resume entry that answered it
	CreatedAt  int64           `json:"createdAt"`
	ResolvedAt int64           `json:"resolvedAt,omitempty"`
}

// ClientToolState is where a frontend-executed tool call stands.
type ClientToolState string

const (
	ClientToolPending   ClientToolState = "pending"
	ClientToolDone      ClientToolState = "done"
	ClientToolCancelled ClientToolState = "cancelled"
)

// ClientToolCall is a tool call the frontend executes (copy_to_clipboard,
// open_url). It is persisted while pending; after a restart it is shown as
// pending and never re-run by itself.
type ClientToolCall struct {
	ToolCallID string          `json:"toolCallId"`
	ThreadID   string          `json:"threadId"`
	RunID      string          `json:"runId"`
	ToolName   string          `json:"toolName"`
	Arguments  string          `json:"arguments"`
	State      ClientToolState `json:"state"`
	Result     string          `json:"result,omitempty"`
	CreatedAt  int64           `json:"createdAt"`
}

// Permission rule scopes.
const (
	ScopeTool          = "tool"           // every call of the tool
	ScopeCommandPrefix = "command-prefix" // run_command whose parsed command starts with Pattern's words
	ScopeFolder        = "folder"         // file tools whose resolved path is inside Pattern
	ScopeFile          = "file"           // file tools whose resolved path is Pattern
	// ScopeThread covers every call of Tool in one conversation (Pattern is
	// the thread id): "this chat".
	ScopeThread = "thread"
	// ScopeToolIdentity covers the calls of an MCP tool while its identity
	// (server, name and annotations: Pattern is their fingerprint) stays
	// the same: a server that redefines the tool is asked about again.
	ScopeToolIdentity = "tool-identity"
	// ScopeServer covers every tool of the MCP server named in Pattern
	// (Tool is "mcp:" + the server's name).
	ScopeServer = "server"
	// ScopeCommandGlob covers a run_command whose plain words, joined by
	// single spaces, match the glob in Pattern (* matches any run of
	// characters, ? one).
	ScopeCommandGlob = "command-glob"
	// ScopeFolderGlob covers file tools whose resolved path is inside the
	// folder Pattern and whose path below it matches Glob.
	ScopeFolderGlob = "folder-glob"
	// ScopeHost covers open_url to the host in Pattern (exactly, no
	// subdomains).
	ScopeHost = "host"
	// ScopeArgEquals and ScopeArgPrefix cover calls whose string argument
	// Arg equals / starts with Pattern (MCP tools).
	ScopeArgEquals = "arg-equals"
	ScopeArgPrefix = "arg-prefix"
	// ScopeServerTools covers the tools of the MCP server named in Pattern
	// whose names match the glob in Glob (Tool is "mcp:" + the server).
	ScopeServerTools = "server-tools"
)

// PermissionRule is a remembered "Always allow" or "Never" (Effect deny),
// with a scope, an end, and its use so far (rules.go).
type PermissionRule struct {
	ID        string `json:"id"`
	Tool      string `json:"tool"`
	Scope     string `json:"scope"`
	Pattern   string `json:"pattern,omitempty"`
	CreatedAt int64  `json:"createdAt"`
	// Effect is EffectAllow ("" reads as allow) or EffectDeny.
	Effect string `json:"effect,omitempty"`
	// Arg names the argument of ScopeArgEquals and ScopeArgPrefix.
	Arg string `json:"arg,omitempty"`
	// Glob is ScopeFolderGlob's pattern under the folder, and
	// ScopeServerTools' pattern of tool names.
	Glob string `json:"glob,omitempty"`
	// Reason is what the model reads when a deny rule refuses a call.
	Reason string `json:"reason,omitempty"`
	// Duration is how long the person chose (Duration*); ExpiresAt is the
	// end in Unix milliseconds (0: until revoked). ThreadID binds a
	// "this chat" or "this turn" rule to its chat, TurnID a "this turn"
	// rule to its turn.
	Duration  string `json:"duration,omitempty"`
	ExpiresAt int64  `json:"expiresAt,omitempty"`
	ThreadID  string `json:"threadId,omitempty"`
	TurnID    string `json:"turnId,omitempty"`
	// LastUsedAt and Uses: when the rule last decided a call, and how
	// many calls it decided.
	LastUsedAt int64 `json:"lastUsedAt,omitempty"`
	Uses       int64 `json:"uses,omitempty"`
}

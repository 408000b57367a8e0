// Package history defines the conversation records Juncture keeps: threads,
// messages, runs and tool executions, and the rules that keep the history sent
// to the model valid for the Chat Completions API.
//
// These are plain values shared by the runtime (agent/), the store (store/)
// and the facade (app/). They carry no behaviour that needs I/O.
package history

import (
	"encoding/json"
	"strings"
)

// InterruptMarker is appended to an assistant message the person stopped.
// The model sees it on the next turn; the UI shows an "Interrupted" mark
// instead of the raw tag.
const InterruptMarker = "<system>User interrupted this message</system>"

// Role is who wrote a message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
	RoleSystem    Role = "system"
)

// Status is the life-cycle state of a message.
type Status string

const (
	StatusComplete    Status = "complete"
	StatusStreaming   Status = "streaming"   // being written; a crash leaves it here until recovery
	StatusInterrupted Status = "interrupted" // the person stopped it (or the app stopped mid-stream)
	StatusError       Status = "error"       // the endpoint failed; Error says why
)

// Tool result texts the runtime writes when a tool did not run to completion.
const (
	ResultInterrupted       = "Interrupted"
	ResultInterruptedMidRun = "Interrupted mid-run; side effects unknown"
	ResultAppStoppedMidRun  = "Interrupted mid-run (the app stopped); side effects unknown"
)

// ToolCall is one function call requested by the model.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // JSON text as the model wrote it; never empty once stored ("{}" at least)
}

// Message is one entry of a thread.
type Message struct {
	ID        string     `json:"id"`
	ThreadID  string     `json:"threadId"`
	RunID     string     `json:"runId,omitempty"`
	Role      Role       `json:"role"`
	Content   string     `json:"content"`             // answer text; for tool messages the result text
	Reasoning string     `json:"reasoning,omitempty"` // kept apart from Content, never sent back as answer text
	ToolCalls []ToolCall `json:"toolCalls,omitempty"` // assistant only
	// ToolCallID and ToolName are set on tool messages.
	ToolCallID string `json:"toolCallId,omitempty"`
	ToolName   string `json:"toolName,omitempty"`
	IsError    bool   `json:"isError,omitempty"` // tool result is an error the model should read as such
	// ToolState is the UI state of a tool message's call as the runtime
	// decided it (done, failed, denied, interrupted, …); empty in rows
	// written before it was stored.
	ToolState string `json:"toolState,omitempty"`
	// Parts are what a tool result holds besides its text (images, links,
	// structured data), shown by the window; Content describes them.
	Parts     []Part `json:"parts,omitempty"`
	Status    Status `json:"status"`
	Error     string `json:"error,omitempty"` // StatusError: the endpoint's message
	CreatedAt int64  `json:"createdAt"`       // ms since epoch
	// ParentID is the message this one follows in the thread's tree (""
	// for a first message). A new message with no ParentID follows the
	// thread's active leaf when it is stored.
	ParentID string `json:"parentId,omitempty"`
	// Branch is set, when read from a store, on a message that has
	// siblings (an edited question, a regenerated answer).
	Branch *Branch `json:"branch,omitempty"`
	// Usage is the endpoint's token count for the model call that wrote
	// this answer; nil when the endpoint reported none (never estimated).
	Usage *Usage `json:"usage,omitempty"`
	// Model is the model that wrote an answer ("" for other messages and
	// for answers stored before it was recorded).
	Model string `json:"model,omitempty"`
	// Attachments are the files the person sent with a user message
	// (stored once by content hash; see Attachment). Fixed when the
	// message is first stored.
	Attachments []AttachmentRef `json:"attachments,omitempty"`
}

// AttachmentRef is a file a message carries: its content hash (ID), the
// name it was sent under and what it is. Pages is a PDF's page count.
type AttachmentRef struct {
	ID       string `json:"id"` // hex SHA-256 of the file's bytes
	Name     string `json:"name"`
	MimeType string `json:"mimeType"`
	Size     int64  `json:"size"`
	Pages    int    `json:"pages,omitempty"`
}

// Attachment is a stored file: its bytes once per content hash, and the
// text the model reads and search indexes (a text file's text, a PDF's
// extracted text; "" for images).
type Attachment struct {
	Hash     string `json:"id"`
	MimeType string `json:"mimeType"`
	Size     int64  `json:"size"`
	Data     []byte `json:"data"` // base64 in JSON
	Text     string `json:"text,omitempty"`
	Pages    int    `json:"pages,omitempty"`
}

// Branch places a message among the children of its parent: the window
// shows "‹ Index/Count ›" and switches with Siblings.
type Branch struct {
	Index    int      `json:"index"` // 1-based, in the order the siblings were made
	Count    int      `json:"count"`
	Siblings []string `json:"siblings"` // every sibling's id, this one included, in that order
}

// Usage is an endpoint's token count for one model call.
type Usage struct {
	PromptTokens     int `json:"promptTokens"`
	CompletionTokens int `json:"completionTokens"`
	TotalTokens      int `json:"totalTokens"`
}

// ThreadUsage is the token count of a thread's answers.
type ThreadUsage struct {
	Total   Usage `json:"total"`
	Answers int   `json:"answers"` // finished answers, on every branch
	// Unreported counts the answers whose endpoint sent no usage: the
	// total leaves them out rather than guess.
	Unreported int `json:"unreported"`
}

// Add returns the sum of two counts (a thread's total).
func (u Usage) Add(o Usage) Usage {
	return Usage{u.PromptTokens + o.PromptTokens, u.CompletionTokens + o.CompletionTokens, u.TotalTokens + o.TotalTokens}
}

// Part is a piece of a tool result beyond its text: what the window shows
// (an image, a link, structured data) next to the text the model reads.
type Part struct {
	Kind     string          `json:"kind"` // PartImage | PartLink | PartStructured | PartResource
	MimeType string          `json:"mimeType,omitempty"`
	Data     string          `json:"data,omitempty"` // PartImage: base64; PartResource: its text
	URI      string          `json:"uri,omitempty"`  // PartLink, PartResource
	Name     string          `json:"name,omitempty"`
	Title    string          `json:"title,omitempty"`
	JSON     json.RawMessage `json:"json,omitempty"` // PartStructured
}

// Part kinds.
const (
	PartImage      = "image"
	PartLink       = "link"       // a resource link: opened through open_url's approval
	PartStructured = "structured" // structured content (JSON)
	PartResource   = "resource"   // an embedded resource (text shown, blob described)
	// PartApp is an MCP App: the tool declares a ui:// view (URI) of its
	// server (Name), which the window reads and shows in a sandboxed frame.
	PartApp = "app"
	// PartText is a text content part of a user message in a model
	// request (an attached file's text); never stored.
	PartText = "text"
)

// Thread is one conversation.
type Thread struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Pinned    bool   `json:"pinned"`
	CreatedAt int64  `json:"createdAt"` // ms since epoch
	UpdatedAt int64  `json:"updatedAt"` // ms since epoch: last activity
	// Options are the thread's own endpoint, model and tools (empty: the
	// person's defaults). Its instructions live in its messages (system
	// messages on the active path, see Instructions) so that every branch
	// keeps the instructions it ran with.
	Options ThreadOptions `json:"options"`
}

// ThreadOptions are what one thread runs with instead of the defaults.
type ThreadOptions struct {
	EndpointID string `json:"endpointId,omitempty"`
	Model      string `json:"model,omitempty"`
	// PresetID is the preset the thread was made from, if any.
	PresetID string `json:"presetId,omitempty"`
	// Tools, when not nil, are the only tools the thread's model is
	// offered (by name); nil offers every enabled tool.
	Tools *[]string `json:"tools,omitempty"`
	// SystemPrompt is filled when a thread is read for the window: the
	// instructions on its active path (see Instructions). It is never
	// stored here.
	SystemPrompt string `json:"systemPrompt"`
}

// Instructions returns the thread's instructions on a path: the content of
// the last system message (an empty one clears them), and whether there is
// one at all.
func Instructions(path []Message) (string, bool) {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i].Role == RoleSystem {
			return path[i].Content, true
		}
	}
	return "", false
}

// RunStatus is the state of one AG-UI run.
type RunStatus string

const (
	RunRunning     RunStatus = "running"
	RunFinished    RunStatus = "finished"    // success
	RunInterrupted RunStatus = "interrupted" // paused for decisions (outcome interrupt)
	RunCancelled   RunStatus = "cancelled"   // the person stopped it
	RunError       RunStatus = "error"
)

// Run is one AG-UI run: a turn, or the continuation of a paused turn.
type Run struct {
	ID          string          `json:"id"`
	ThreadID    string          `json:"threadId"`
	ParentRunID string          `json:"parentRunId,omitempty"`
	Generation  int             `json:"generation"`
	Status      RunStatus       `json:"status"`
	Outcome     json.RawMessage `json:"outcome,omitempty"` // the RUN_FINISHED outcome or RUN_ERROR, as emitted
	// Steps counts the model calls of the turn this run belongs to, up to
	// the end of this run: a continuation starts from its parent's count,
	// so the loop guard and step limit hold across continuations.
	Steps      int   `json:"steps,omitempty"`
	StartedAt  int64 `json:"startedAt"`
	FinishedAt int64 `json:"finishedAt,omitempty"`
}

// ToolExecState is where a tool execution stands. The record is written
// before a tool runs so that a tool call id executes at most once.
type ToolExecState string

const (
	ToolStarted  ToolExecState = "started"
	ToolFinished ToolExecState = "finished"
	// ToolAwaitingInput: the tool answered that it needs the person
	// first (MCP's input_required); nothing runs, a RoundTrip holds what
	// the retry needs.
	ToolAwaitingInput ToolExecState = "awaiting_input"
)

// RoundTrip is a tool call waiting for the person between two round trips:
// the tool's opaque state and, for each interrupt asked, the tool's key of
// the request it answers.
type RoundTrip struct {
	ThreadID   string
	ToolCallID string
	State      []byte            // JSON, the tool's own
	Keys       map[string]string // interrupt id -> request key
	Rounds     int               // input_required answers in a row, this one included
	CreatedAt  int64
}

// ToolExecution is the exactly-once record of running one tool call.
type ToolExecution struct {
	ToolCallID string        `json:"toolCallId"`
	ThreadID   string        `json:"threadId"`
	RunID      string        `json:"runId"`
	ToolName   string        `json:"toolName"`
	Arguments  string        `json:"arguments"`
	State      ToolExecState `json:"state"`
	Result     string        `json:"result,omitempty"`
	IsError    bool          `json:"isError,omitempty"`
	StartedAt  int64         `json:"startedAt"`
	FinishedAt int64         `json:"finishedAt,omitempty"`
}

// WithMarker returns content with the interrupt marker appended once.
func WithMarker(content string) string {
	if strings.HasSuffix(content, InterruptMarker) {
		return content
	}
	if content == "" {
		return InterruptMarker
	}
	return content + "\n\n" + InterruptMarker
}

// StripMarker removes a trailing interrupt marker (for display and export).
func StripMarker(content string) (string, bool) {
	if !strings.HasSuffix(content, InterruptMarker) {
		return content, false
	}
	return strings.TrimRight(strings.TrimSuffix(content, InterruptMarker), "\n"), true
}

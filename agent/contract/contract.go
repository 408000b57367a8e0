// Package contract is the runtime's side of the frontend contract
// (docs/contract.md): the tool states and the CUSTOM events it emits inside
// runs, with their payloads.
//
// The TypeScript the window uses is generated from these declarations
// (internal/contractgen), so a state added here cannot be dropped silently
// by the frontend. The runtime (agent) and the facade (app) use them; this
// package imports neither.
package contract

import (
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
)

// ToolState is the UI state of one tool call.
type ToolState string

// Tool states shown in the UI.
const (
	ToolRunning          ToolState = "running"
	ToolDone             ToolState = "done"
	ToolFailed           ToolState = "failed"
	ToolDenied           ToolState = "denied"
	ToolInterrupted      ToolState = "interrupted"
	ToolInterruptedMidRn ToolState = "interrupted-mid-run"
	ToolAwaitingApproval ToolState = "awaiting-approval"
	ToolAwaitingAnswer   ToolState = "awaiting-answer" // ask_user waits for the person
	ToolPendingClient    ToolState = "pending-client"  // the app window runs it
)

// ToolStates lists every ToolState (the generator and tests read it).
var ToolStates = []ToolState{
	ToolRunning, ToolDone, ToolFailed, ToolDenied, ToolInterrupted, ToolInterruptedMidRn,
	ToolAwaitingApproval, ToolAwaitingAnswer, ToolPendingClient,
}

// Custom event names Juncture emits inside runs.
const (
	CustomToolState    = "juncture.tool_state"
	CustomStopped      = "juncture.stopped"
	CustomMessageError = "juncture.message_error"
	CustomRetrying     = "juncture.retrying"
)

// CustomEventNames lists every custom event name.
var CustomEventNames = []string{CustomToolState, CustomStopped, CustomMessageError, CustomRetrying, CustomPathChanged}

// ToolStateEvent is the value of a juncture.tool_state event. For
// pending-client it carries what the window must execute: the arguments
// as approved (edited by the person when Edited), never the streamed ones.
type ToolStateEvent struct {
	ToolCallID string    `json:"toolCallId"`
	State      ToolState `json:"state"`
	ToolName   string    `json:"toolName,omitempty"`
	Arguments  string    `json:"arguments,omitempty"`
	Edited     bool      `json:"edited,omitempty"`
	// Progress is a running call's latest report (an MCP server's
	// notifications/progress), throttled to what a window can show.
	Progress *tools.Progress `json:"progress,omitempty"`
	// Parts come with a call's final state: what its result holds besides
	// text (images, links, structured data).
	Parts []history.Part `json:"parts,omitempty"`
	// AllowedBy is the remembered "Always allow" rule that let the call run
	// without asking (with the running state), so the window can say so
	// and offer to revoke it.
	AllowedBy *history.PermissionRule `json:"allowedBy,omitempty"`
}

// StoppedEvent is the value of juncture.stopped: Stop cut this answer short.
type StoppedEvent struct {
	MessageID          string   `json:"messageId"`
	DroppedToolCallIDs []string `json:"droppedToolCallIds"`
	ReasoningDropped   bool     `json:"reasoningDropped"`
}

// MessageErrorEvent is the value of juncture.message_error.
type MessageErrorEvent struct {
	MessageID string `json:"messageId"`
	Error     string `json:"error"`
}

// RetryingEvent is the value of juncture.retrying: the endpoint failed in
// a way that may pass, and the call is tried again after DelayMs.
type RetryingEvent struct {
	Attempt int    `json:"attempt"`
	DelayMs int64  `json:"delayMs"`
	Reason  string `json:"reason"`
}

// CustomPathChanged announces, inside the run of an edit or a regenerate,
// that the thread's active path changed; its value is a PathChangedEvent.
const CustomPathChanged = "juncture.path_changed"

// PathChangedEvent is the value of a juncture.path_changed event.
type PathChangedEvent struct {
	ThreadID string `json:"threadId"`
	LeafID   string `json:"leafId"` // the last message of the new path ("" when empty)
	Reason   string `json:"reason"` // PathBranch | PathEdit | PathRegenerate | PathInstructions
}

// Reasons of a path change.
const (
	PathBranch       = "branch"
	PathEdit         = "edit"
	PathRegenerate   = "regenerate"
	PathInstructions = "instructions"
)

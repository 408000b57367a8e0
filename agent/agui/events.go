// Package agui is Juncture's typed subset of the AG-UI 1.0 event protocol.
//
// It holds the events the runtime emits, the RunAgentInput it accepts on
// POST /agui, the SSE framing, and the conversions from the runtime's
// stored messages and interrupts (history.go).
//
// Guarantees: every Event marshals to an object that passes the official 1.0
// schema in strict mode (optional fields are omitted, never null; timestamps
// are integer milliseconds; required-but-nullable fields are always written).
// The package owns no goroutines and does no I/O beyond the writer it is given.
package agui

import (
	"encoding/json"
	"time"
)

// ProtocolVersion is the AG-UI version this package speaks.
const ProtocolVersion = "1.0"

// Event types.
const (
	TypeRunStarted              = "RUN_STARTED"
	TypeRunFinished             = "RUN_FINISHED"
	TypeRunError                = "RUN_ERROR"
	TypeTextMessageStart        = "TEXT_MESSAGE_START"
	TypeTextMessageContent      = "TEXT_MESSAGE_CONTENT"
	TypeTextMessageEnd          = "TEXT_MESSAGE_END"
	TypeToolCallStart           = "TOOL_CALL_START"
	TypeToolCallArgs            = "TOOL_CALL_ARGS"
	TypeToolCallEnd             = "TOOL_CALL_END"
	TypeToolCallResult          = "TOOL_CALL_RESULT"
	TypeReasoningStart          = "REASONING_START"
	TypeReasoningMessageStart   = "REASONING_MESSAGE_START"
	TypeReasoningMessageContent = "REASONING_MESSAGE_CONTENT"
	TypeReasoningMessageEnd     = "REASONING_MESSAGE_END"
	TypeReasoningEnd            = "REASONING_END"
	TypeMessagesSnapshot        = "MESSAGES_SNAPSHOT"
	TypeStateSnapshot           = "STATE_SNAPSHOT"
	TypeCustom                  = "CUSTOM"
)

// Event is any AG-UI event. EventType reports its "type".
type Event interface {
	EventType() string
}

// Base carries the fields every event may have.
type Base struct {
	Type      string         `json:"type"`
	Timestamp int64          `json:"timestamp,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
}

// EventType implements Event.
func (b Base) EventType() string { return b.Type }

func base(t string) Base { return Base{Type: t, Timestamp: time.Now().UnixMilli()} }

// RunStarted opens a run.
type RunStarted struct {
	Base
	ThreadID        string `json:"threadId"`
	RunID           string `json:"runId"`
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	ParentRunID     string `json:"parentRunId,omitempty"`
}

// Outcome is RUN_FINISHED.outcome: success, interrupt or cancelled.
type Outcome struct {
	Type               string      `json:"type"`
	Interrupts         []Interrupt `json:"interrupts,omitempty"`
	PendingToolCallIDs []string    `json:"pendingToolCallIds,omitempty"`
}

// Outcome types.
const (
	OutcomeSuccess   = "success"
	OutcomeInterrupt = "interrupt"
	OutcomeCancelled = "cancelled"
)

// Interrupt is a pause item of an interrupt outcome.
type Interrupt struct {
	ID             string          `json:"id"`
	Reason         string          `json:"reason"`
	Message        string          `json:"message,omitempty"`
	ToolCallID     string          `json:"toolCallId,omitempty"`
	ResponseSchema json.RawMessage `json:"responseSchema,omitempty"`
	ExpiresAt      string          `json:"expiresAt,omitempty"`
	Metadata       map[string]any  `json:"metadata,omitempty"`
}

// RunFinished closes a run. Outcome nil means success.
type RunFinished struct {
	Base
	ThreadID string   `json:"threadId"`
	RunID    string   `json:"runId"`
	Outcome  *Outcome `json:"outcome,omitempty"`
}

// RunError ends a run in failure. AG-UI 1.0 has no threadId/runId here;
// correlation goes in Metadata.
type RunError struct {
	Base
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
}

// TextMessageStart opens an assistant text message.
type TextMessageStart struct {
	Base
	MessageID string `json:"messageId"`
	Role      string `json:"role,omitempty"`
}

// TextMessageContent carries a text delta.
type TextMessageContent struct {
	Base
	MessageID string `json:"messageId"`
	Delta     string `json:"delta"`
}

// TextMessageEnd closes a text message.
type TextMessageEnd struct {
	Base
	MessageID string `json:"messageId"`
}

// ToolCallStart opens a tool call.
type ToolCallStart struct {
	Base
	ToolCallID      string `json:"toolCallId"`
	ToolCallName    string `json:"toolCallName"`
	ParentMessageID string `json:"parentMessageId,omitempty"`
}

// ToolCallArgs carries a fragment of the JSON arguments.
type ToolCallArgs struct {
	Base
	ToolCallID string `json:"toolCallId"`
	Delta      string `json:"delta"`
}

// ToolCallEnd closes a tool call's arguments.
type ToolCallEnd struct {
	Base
	ToolCallID string `json:"toolCallId"`
}

// ToolCallResult mints a tool message with a new MessageID.
type ToolCallResult struct {
	Base
	MessageID  string `json:"messageId"`
	ToolCallID string `json:"toolCallId"`
	Content    string `json:"content"`
	Role       string `json:"role,omitempty"`
}

// ReasoningStart opens a reasoning span.
type ReasoningStart struct {
	Base
	MessageID string `json:"messageId"`
}

// ReasoningMessageStart opens a reasoning message; Role is always "reasoning".
type ReasoningMessageStart struct {
	Base
	MessageID string `json:"messageId"`
	Role      string `json:"role"`
}

// ReasoningMessageContent carries a reasoning delta.
type ReasoningMessageContent struct {
	Base
	MessageID string `json:"messageId"`
	Delta     string `json:"delta"`
}

// ReasoningMessageEnd closes a reasoning message.
type ReasoningMessageEnd struct {
	Base
	MessageID string `json:"messageId"`
}

// ReasoningEnd closes a reasoning span.
type ReasoningEnd struct {
	Base
	MessageID string `json:"messageId"`
}

// MessagesSnapshot is the complete, ordered message list of the thread.
type MessagesSnapshot struct {
	Base
	Messages []Message `json:"messages"`
}

// StateSnapshot replaces the agent state.
type StateSnapshot struct {
	Base
	Snapshot json.RawMessage `json:"snapshot"` // required; may be null
}

// Custom is an application event.
type Custom struct {
	Base
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"` // required; may be null
}

// Constructors stamp the type and the timestamp.

func NewRunStarted(threadID, runID, parentRunID string) *RunStarted {
	return &RunStarted{Base: base(TypeRunStarted), ThreadID: threadID, RunID: runID, ProtocolVersion: ProtocolVersion, ParentRunID: parentRunID}
}

func NewRunFinished(threadID, runID string, o *Outcome) *RunFinished {
	return &RunFinished{Base: base(TypeRunFinished), ThreadID: threadID, RunID: runID, Outcome: o}
}

func NewRunError(message, code string, metadata map[string]any) *RunError {
	b := base(TypeRunError)
	b.Metadata = metadata
	return &RunError{Base: b, Message: message, Code: code}
}

func NewTextStart(id string) *TextMessageStart {
	return &TextMessageStart{Base: base(TypeTextMessageStart), MessageID: id, Role: "assistant"}
}

func NewTextContent(id, delta string) *TextMessageContent {
	return &TextMessageContent{Base: base(TypeTextMessageContent), MessageID: id, Delta: delta}
}

func NewTextEnd(id string) *TextMessageEnd {
	return &TextMessageEnd{Base: base(TypeTextMessageEnd), MessageID: id}
}

func NewToolCallStart(id, name, parent string) *ToolCallStart {
	return &ToolCallStart{Base: base(TypeToolCallStart), ToolCallID: id, ToolCallName: name, ParentMessageID: parent}
}

func NewToolCallArgs(id, delta string) *ToolCallArgs {
	return &ToolCallArgs{Base: base(TypeToolCallArgs), ToolCallID: id, Delta: delta}
}

func NewToolCallEnd(id string) *ToolCallEnd {
	return &ToolCallEnd{Base: base(TypeToolCallEnd), ToolCallID: id}
}

func NewToolCallResult(messageID, toolCallID, content string) *ToolCallResult {
	return &ToolCallResult{Base: base(TypeToolCallResult), MessageID: messageID, ToolCallID: toolCallID, Content: content, Role: "tool"}
}

func NewReasoningStart(id string) *ReasoningStart {
	return &ReasoningStart{Base: base(TypeReasoningStart), MessageID: id}
}

func NewReasoningMessageStart(id string) *ReasoningMessageStart {
	return &ReasoningMessageStart{Base: base(TypeReasoningMessageStart), MessageID: id, Role: "reasoning"}
}

func NewReasoningContent(id, delta string) *ReasoningMessageContent {
	return &ReasoningMessageContent{Base: base(TypeReasoningMessageContent), MessageID: id, Delta: delta}
}

func NewReasoningMessageEnd(id string) *ReasoningMessageEnd {
	return &ReasoningMessageEnd{Base: base(TypeReasoningMessageEnd), MessageID: id}
}

func NewReasoningEnd(id string) *ReasoningEnd {
	return &ReasoningEnd{Base: base(TypeReasoningEnd), MessageID: id}
}

func NewMessagesSnapshot(msgs []Message) *MessagesSnapshot {
	if msgs == nil {
		msgs = []Message{}
	}
	return &MessagesSnapshot{Base: base(TypeMessagesSnapshot), Messages: msgs}
}

func NewStateSnapshot(v any) *StateSnapshot {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte("null")
	}
	return &StateSnapshot{Base: base(TypeStateSnapshot), Snapshot: b}
}

// NewCustom builds a CUSTOM event; a value that cannot be marshalled is sent as null.
func NewCustom(name string, v any) *Custom {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte("null")
	}
	return &Custom{Base: base(TypeCustom), Name: name, Value: b}
}

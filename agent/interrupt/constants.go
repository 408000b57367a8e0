package interrupt

import (
	"crypto/rand"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Wire constants of @tanstack/ai 0.58.0 (spec §2).
const (
	// BindingMetadataKey holds the binding inside Interrupt.metadata.
	BindingMetadataKey = "tanstack:interruptBinding"
	// BindingVersion is the only binding version ("v") understood.
	BindingVersion = 1
	// PayloadMetadataKey holds a first-party request payload.
	PayloadMetadataKey = "tanstack:interruptPayload"
	// ContinuationMetadataKey holds the continuation on a resume entry.
	ContinuationMetadataKey = "tanstack:interruptContinuation"
	// ContinuationVersion is the only continuation version.
	ContinuationVersion = 1
)

// BoundaryPhases are the lifecycle boundaries at which generic interrupts
// may be requested, in order.
var BoundaryPhases = []string{"beforeModel", "afterModel", "beforeTools", "afterTools"}

// ToolResume is the combined answer of the resolution hooks.
type ToolResume string

// Tool-resume values; they combine as stop > cancel > continue.
const (
	ToolResumeContinue ToolResume = "continue"
	ToolResumeCancel   ToolResume = "cancel"
	ToolResumeStop     ToolResume = "stop"
)

// ToolResumes lists the values in their reference order.
var ToolResumes = []ToolResume{ToolResumeContinue, ToolResumeCancel, ToolResumeStop}

// CombineToolResume returns the strongest of the values (stop > cancel >
// continue); "" when none is given.
func CombineToolResume(values ...ToolResume) ToolResume {
	var out ToolResume
	rank := map[ToolResume]int{"": 0, ToolResumeContinue: 1, ToolResumeCancel: 2, ToolResumeStop: 3}
	for _, v := range values {
		if rank[v] > rank[out] {
			out = v
		}
	}
	return out
}

// Kind is a binding kind.
type Kind string

// Binding kinds.
const (
	KindToolApproval        Kind = "tool-approval"
	KindClientToolExecution Kind = "client-tool-execution"
	KindGeneric             Kind = "generic"
)

// Reasons (AG-UI Interrupt.reason; a display hint, never ownership).
const (
	ReasonToolCall                  = "tool_call"
	ReasonClientToolExecution       = "tanstack:client_tool_execution"
	ReasonLegacyApprovalRequired    = "approval_required"
	ReasonLegacyClientToolInput     = "client_tool_input"
	PublicMetadataKindApproval      = "approval"
	PublicMetadataKindClientTool    = "client_tool"
	approvalMessagePrefix           = "Approval required to run "
	clientToolMessagePrefix         = "Client tool "
	clientToolMessageSuffix         = " is ready to run"
	approvalIDPrefix                = "approval_"
	clientToolIDPrefix              = "client_tool_"
	genericIDPrefix                 = "interrupt-"
	duplicateBatchIDMessage         = "Duplicate interrupt id in final batch: "
	unserializedStandardSchemaField = "standardValidator"
)

// Tool results and synthetic history messages (spec §2). They are JSON text.
const (
	// CancelledToolResult is the tool result of a cancelled tool interrupt.
	CancelledToolResult = `{"error":"Tool execution cancelled"}`
	// DeniedToolResult is the tool result of a rejection without a payload.
	DeniedToolResult = `{"error":"User declined tool execution"}`
	// SyntheticApprovalMessage is what the stock client writes as the tool
	// message of an approved call (pendingExecution marks it still pending).
	SyntheticApprovalMessage = `{"approved":true,"pendingExecution":true,"message":"User approved this action"}`
	// SyntheticDenialMessage is what the stock client writes for a denial.
	SyntheticDenialMessage = `{"approved":false,"message":"User denied this action"}`
)

// ApprovalMessage is the descriptor message of a tool approval.
func ApprovalMessage(toolName string) string { return approvalMessagePrefix + toolName }

// ClientToolMessage is the descriptor message of a client-tool execution.
func ClientToolMessage(toolName string) string {
	return clientToolMessagePrefix + toolName + clientToolMessageSuffix
}

// ApprovalInterruptID is "approval_" + toolCallID. The prefix is semantic:
// a stateless TanStack server strips it to find the tool call again.
func ApprovalInterruptID(toolCallID string) string { return approvalIDPrefix + toolCallID }

// ClientToolInterruptID is "client_tool_" + toolCallID.
func ClientToolInterruptID(toolCallID string) string { return clientToolIDPrefix + toolCallID }

// ToolCallIDFromInterruptID reverses ApprovalInterruptID and
// ClientToolInterruptID. ok is false for any other id.
func ToolCallIDFromInterruptID(id string) (kind Kind, toolCallID string, ok bool) {
	if rest, found := strings.CutPrefix(id, approvalIDPrefix); found && rest != "" {
		return KindToolApproval, rest, true
	}
	if rest, found := strings.CutPrefix(id, clientToolIDPrefix); found && rest != "" {
		return KindClientToolExecution, rest, true
	}
	return "", "", false
}

// NewGenericInterruptID returns "interrupt-<ms>-<7 base-36 chars>", the
// reference format (the id is opaque; any unique string is compatible).
// rnd defaults to crypto/rand.
func NewGenericInterruptID(now time.Time, rnd io.Reader) (string, error) {
	if rnd == nil {
		rnd = rand.Reader
	}
	var b [7]byte
	if _, err := io.ReadFull(rnd, b[:]); err != nil {
		return "", fmt.Errorf("interrupt: generic id: %w", err)
	}
	const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
	suffix := make([]byte, len(b))
	for i, c := range b {
		suffix[i] = alphabet[int(c)%len(alphabet)]
	}
	return genericIDPrefix + strconv.FormatInt(now.UnixMilli(), 10) + "-" + string(suffix), nil
}

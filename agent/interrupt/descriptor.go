package interrupt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Descriptor is one AG-UI 1.0 Interrupt (spec §4, agui §5.1). Optional
// fields are omitted when empty, never null.
type Descriptor struct {
	ID             string          `json:"id"`
	Reason         string          `json:"reason"`
	Message        string          `json:"message,omitempty"`
	ToolCallID     string          `json:"toolCallId,omitempty"`
	ResponseSchema json.RawMessage `json:"responseSchema,omitempty"`
	ExpiresAt      string          `json:"expiresAt,omitempty"`
	Metadata       Metadata        `json:"metadata,omitempty"`
	SubagentRunID  string          `json:"subagentRunId,omitempty"`
}

// MarshalJSON implements json.Marshaler (so CanonicalJSON accepts it).
func (d Descriptor) MarshalJSON() ([]byte, error) {
	type plain Descriptor
	return json.Marshal(plain(d))
}

// Metadata is an open JSON object. Decoding a value that is not an object
// yields nil instead of failing, so a foreign descriptor with malformed
// metadata is still readable (it is then unbound).
type Metadata map[string]json.RawMessage

// UnmarshalJSON implements json.Unmarshaler.
func (m *Metadata) UnmarshalJSON(data []byte) error {
	// The members alias their input; the decoder may reuse data.
	members, isObject, err := parseMembers(append([]byte(nil), data...))
	if err != nil || !isObject {
		*m = nil
		return nil
	}
	*m = members
	return nil
}

// Classification is how an item is owned (spec §17).
type Classification string

// Classifications. Unbound items are display-only: never resumable, never
// blocking, never part of a resume.
const (
	ClassToolApproval        Classification = "tool-approval"
	ClassClientToolExecution Classification = "client-tool-execution"
	ClassGeneric             Classification = "generic"
	ClassUnbound             Classification = "unbound"
)

// ToolCall is the assistant tool call an approval or client-tool execution
// is bound to.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string // raw JSON text as streamed by the model
}

// Tool is the part of a tool definition the interrupt model needs. Schemas
// are raw JSON Schemas (nil = none); see IsRawJSONSchema.
type Tool struct {
	Name           string
	InputSchema    json.RawMessage
	OutputSchema   json.RawMessage
	ApprovalSchema ApprovalSchema
	NeedsApproval  bool
}

// ErrInvalidDescriptor reports a descriptor that cannot be built.
var ErrInvalidDescriptor = errors.New("interrupt: invalid descriptor")

// ParseToolArguments parses tool-call arguments like the engine does (§5.1):
// JSON.parse(arguments.trim() || "{}"); a parse error or a non-object
// (null included) gives {}; arrays count as objects. The result keeps the
// original key order, without insignificant whitespace.
func ParseToolArguments(arguments string) json.RawMessage {
	text := jsTrim(arguments)
	if text == "" {
		return json.RawMessage("{}")
	}
	v, err := Parse([]byte(text))
	switch v.(type) {
	case map[string]any, []any:
	default:
		err = errors.New("not an object")
	}
	var buf bytes.Buffer
	if err != nil || json.Compact(&buf, []byte(text)) != nil {
		return json.RawMessage("{}")
	}
	return json.RawMessage(buf.Bytes())
}

// checkToolSchemas enforces that a tool's schemas are raw JSON Schemas a
// TS peer hashes the same way (defect D12).
func checkToolSchemas(t Tool) error {
	for _, s := range []struct {
		what   string
		schema json.RawMessage
	}{{"input schema", t.InputSchema}, {"output schema", t.OutputSchema},
		{"approve schema", t.ApprovalSchema.Approve}, {"reject schema", t.ApprovalSchema.Reject}} {
		if s.schema != nil && !IsRawJSONSchema(s.schema) {
			return fmt.Errorf("%w: tool %s: %s must be a JSON Schema object with at least one schema keyword (e.g. \"type\")",
				ErrInvalidSchema, t.Name, s.what)
		}
	}
	return nil
}

// publicMetadata builds the descriptor markers the TS client reads
// (metadata.kind/toolName/input).
func publicMetadata(kind, toolName string, input json.RawMessage) Metadata {
	return Metadata{
		"kind":     json.RawMessage(appendJSString(nil, kind)),
		"toolName": json.RawMessage(appendJSString(nil, toolName)),
		"input":    input,
	}
}

// NewToolApproval builds the unopened tool-approval descriptor of §5.1 for
// call of tool (id "approval_"+call.ID, reason "tool_call"). expiresAt is
// optional ("" = none) and must satisfy ParseDate.
//
// The responseSchema is NormalizeApprovalSchema(tool.ApprovalSchema,
// tool.InputSchema): the payload is true/false or {"approved":bool,
// "editedArgs"?: <full replacement of the arguments>, "payload"?: ...}.
// A denial reason travels as the reject-branch payload (see
// DenialReasonSchema); the model receives it as the tool result (D1).
func NewToolApproval(call ToolCall, tool Tool, expiresAt string) (Descriptor, error) {
	if err := checkToolCall(call, tool, expiresAt); err != nil {
		return Descriptor{}, err
	}
	norm, err := NormalizeApprovalSchema(tool.ApprovalSchema, tool.InputSchema)
	if err != nil {
		return Descriptor{}, err
	}
	inputHash, err := HashSchemaInput(tool.InputSchema)
	if err != nil {
		return Descriptor{}, err
	}
	args := ParseToolArguments(call.Arguments)
	d := Descriptor{
		ID:             ApprovalInterruptID(call.ID),
		Reason:         ReasonToolCall,
		Message:        ApprovalMessage(tool.Name),
		ToolCallID:     call.ID,
		ResponseSchema: norm.ResponseSchema,
		ExpiresAt:      expiresAt,
		Metadata:       publicMetadata(PublicMetadataKindApproval, tool.Name, args),
	}
	return WithBinding(d, Binding{
		Kind: KindToolApproval, ToolName: tool.Name, ToolCallID: call.ID, OriginalArgs: args,
		InputSchemaHash: inputHash, ApprovalSchemaHash: norm.ApprovalSchemaHash,
		ResponseSchemaHash: norm.ResponseSchemaHash, ExpiresAt: expiresAt,
	})
}

// checkToolCall is what both descriptors of a tool call require: the
// call's id, the tool's name, a valid expiresAt and valid schemas.
func checkToolCall(call ToolCall, tool Tool, expiresAt string) error {
	if call.ID == "" || tool.Name == "" {
		return fmt.Errorf("%w: tool call id and tool name are required", ErrInvalidDescriptor)
	}
	if err := checkExpiresAt(expiresAt); err != nil {
		return err
	}
	return checkToolSchemas(tool)
}

// NewClientToolExecution builds the unopened, hidden client-tool execution
// descriptor of §5.2 (id "client_tool_"+call.ID).
func NewClientToolExecution(call ToolCall, tool Tool, expiresAt string) (Descriptor, error) {
	if err := checkToolCall(call, tool, expiresAt); err != nil {
		return Descriptor{}, err
	}
	s, err := ClientToolResponseSchema(tool.OutputSchema)
	if err != nil {
		return Descriptor{}, err
	}
	d := Descriptor{
		ID:             ClientToolInterruptID(call.ID),
		Reason:         ReasonClientToolExecution,
		Message:        ClientToolMessage(tool.Name),
		ToolCallID:     call.ID,
		ResponseSchema: s.ResponseSchema,
		ExpiresAt:      expiresAt,
		Metadata:       publicMetadata(PublicMetadataKindClientTool, tool.Name, ParseToolArguments(call.Arguments)),
	}
	return WithBinding(d, Binding{
		Kind: KindClientToolExecution, ToolName: tool.Name, ToolCallID: call.ID,
		OutputSchemaHash: s.OutputSchemaHash, ResponseSchemaHash: s.ResponseSchemaHash, ExpiresAt: expiresAt,
	})
}

// NewExternalGeneric attaches an unopened external generic binding (§5.4)
// to d: responseSchemaHash is set exactly when d has a responseSchema, and
// expiresAt mirrors d.ExpiresAt. Other metadata is kept.
func NewExternalGeneric(d Descriptor) (Descriptor, error) {
	if d.ID == "" || d.Reason == "" {
		return Descriptor{}, fmt.Errorf("%w: id and reason are required", ErrInvalidDescriptor)
	}
	if err := checkExpiresAt(d.ExpiresAt); err != nil {
		return Descriptor{}, err
	}
	b := Binding{Kind: KindGeneric, ExpiresAt: d.ExpiresAt}
	if d.ResponseSchema != nil {
		if _, isObject, err := parseMembers(d.ResponseSchema); err != nil || !isObject {
			return Descriptor{}, fmt.Errorf("%w: responseSchema must be a JSON object", ErrInvalidDescriptor)
		}
		h, err := DigestValue(d.ResponseSchema)
		if err != nil {
			return Descriptor{}, err
		}
		b.ResponseSchemaHash = h
	}
	return WithBinding(d, b)
}

func checkExpiresAt(expiresAt string) error {
	if expiresAt == "" {
		return nil
	}
	if _, ok := ParseDate(expiresAt); !ok {
		return fmt.Errorf("%w: expiresAt %q is not a valid date", ErrInvalidDescriptor, expiresAt)
	}
	return nil
}

// BuildBatch assembles the interrupt outcome of a pausing run (§5, §10.3):
// tool approvals first, then client-tool executions, then generic requests,
// each group in the given order; a first-party generic item's batchIndex is
// set to its absolute position; every binding is opened with the request
// runID and generation (0 for a first issue, see §19) and then sanitised
// (§6.4). Ids must be unique ("Duplicate interrupt id in final batch").
func BuildBatch(runID string, generation int, approvals, clientTools, generics []Descriptor) ([]Descriptor, error) {
	if runID == "" || generation < 0 {
		return nil, fmt.Errorf("%w: run id and a generation >= 0 are required", ErrInvalidDescriptor)
	}
	var all []Descriptor
	all = append(all, approvals...)
	all = append(all, clientTools...)
	all = append(all, generics...)
	seen := map[string]bool{}
	out := make([]Descriptor, 0, len(all))
	for i, d := range all {
		if seen[d.ID] {
			return nil, fmt.Errorf("%w: %s%s", ErrInvalidDescriptor, duplicateBatchIDMessage, d.ID)
		}
		seen[d.ID] = true
		if b, ok := ReadUnopenedBinding(d); ok {
			if b.FirstParty() {
				b.BatchIndex = i
			}
			b.InterruptedRunID, b.Generation = runID, generation
			var err error
			if d, err = WithBinding(d, b); err != nil {
				return nil, err
			}
		}
		out = append(out, SanitizeBinding(d))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: an interrupt outcome needs at least one interrupt", ErrInvalidDescriptor)
	}
	return out, nil
}

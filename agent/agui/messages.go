package agui

import (
	"encoding/json"
	"fmt"
)

// Message is an AG-UI message (MESSAGES_SNAPSHOT, RunAgentInput.messages).
// One struct covers the roles Juncture uses; fields that do not belong to a
// role are left empty and so omitted.
type Message struct {
	ID         string     `json:"id"`
	Role       string     `json:"role"`
	Content    *Content   `json:"content,omitempty"`
	Name       string     `json:"name,omitempty"`
	ToolCalls  []ToolCall `json:"toolCalls,omitempty"`
	ToolCallID string     `json:"toolCallId,omitempty"`
	Error      string     `json:"error,omitempty"`
}

// ToolCall is an assistant message's tool call.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall names the function and carries its JSON arguments.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Content is a message content: a string, or (on input) an array of parts of
// which Juncture keeps the text.
type Content struct {
	Text string
}

// TextContent returns a content holding s.
func TextContent(s string) *Content { return &Content{Text: s} }

// MarshalJSON writes the content as a JSON string.
func (c Content) MarshalJSON() ([]byte, error) { return json.Marshal(c.Text) }

// UnmarshalJSON accepts a string or an array of content parts.
func (c *Content) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &c.Text)
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &parts); err != nil {
		return fmt.Errorf("content is neither a string nor an array of parts: %w", err)
	}
	c.Text = ""
	for _, p := range parts {
		if p.Type == "text" {
			c.Text += p.Text
		}
	}
	return nil
}

// ResumeEntry answers one interrupt of the previous run.
type ResumeEntry struct {
	InterruptID string          `json:"interruptId"`
	Status      string          `json:"status"` // resolved | cancelled
	Payload     json.RawMessage `json:"payload,omitempty"`
	Metadata    map[string]any  `json:"metadata,omitempty"`
}

// Tool is a client-provided tool declaration.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// RunAgentInput is the body of POST /agui.
type RunAgentInput struct {
	ThreadID        string          `json:"threadId"`
	RunID           string          `json:"runId"`
	ParentRunID     string          `json:"parentRunId,omitempty"`
	ProtocolVersion string          `json:"protocolVersion,omitempty"`
	State           json.RawMessage `json:"state,omitempty"`
	Messages        []Message       `json:"messages"`
	Tools           []Tool          `json:"tools,omitempty"`
	Context         json.RawMessage `json:"context,omitempty"`
	ForwardedProps  json.RawMessage `json:"forwardedProps,omitempty"`
	Resume          []ResumeEntry   `json:"resume,omitempty"`
}

// Validate reports the first structural problem of an input.
func (in *RunAgentInput) Validate() error {
	switch {
	case in.ThreadID == "":
		return fmt.Errorf("threadId is required")
	case in.RunID == "":
		return fmt.Errorf("runId is required")
	}
	for i, m := range in.Messages {
		if m.ID == "" {
			return fmt.Errorf("messages[%d].id is required", i)
		}
		switch m.Role {
		case "user", "assistant", "tool", "system", "developer", "reasoning", "activity":
		default:
			return fmt.Errorf("messages[%d].role %q is not an AG-UI role", i, m.Role)
		}
	}
	for i, r := range in.Resume {
		if r.InterruptID == "" {
			return fmt.Errorf("resume[%d].interruptId is required", i)
		}
		if r.Status != "resolved" && r.Status != "cancelled" {
			return fmt.Errorf("resume[%d].status must be \"resolved\" or \"cancelled\"", i)
		}
	}
	return nil
}

package agui

// Conversions between the runtime's stored records (agent/history, the
// interrupt descriptors of agent/interrupt) and their AG-UI form.

import (
	"encoding/json"
	"fmt"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/interrupt"
)

// FromHistory converts stored messages to AG-UI messages for
// MESSAGES_SNAPSHOT. Reasoning travels as a "reasoning" message (id "<message id>-reasoning")
// just before its answer; failed answers carry their error in metadata-free
// form (the content they got to).
func FromHistory(msgs []history.Message) []Message {
	out := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		switch m.Role {
		case history.RoleAssistant:
			if m.Reasoning != "" {
				out = append(out, Message{ID: m.ID + "-reasoning", Role: "reasoning", Content: TextContent(m.Reasoning)})
			}
			a := Message{ID: m.ID, Role: "assistant"}
			if m.Content != "" {
				a.Content = TextContent(m.Content)
			}
			for _, c := range m.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, ToolCall{ID: c.ID, Type: "function", Function: FunctionCall{Name: c.Name, Arguments: c.Arguments}})
			}
			out = append(out, a)
		case history.RoleTool:
			t := Message{ID: m.ID, Role: "tool", ToolCallID: m.ToolCallID, Content: TextContent(m.Content)}
			if m.IsError {
				t.Error = m.Content
			}
			out = append(out, t)
		default:
			out = append(out, Message{ID: m.ID, Role: string(m.Role), Content: TextContent(m.Content)})
		}
	}
	return out
}

// ToHistory converts AG-UI input messages to history records (reasoning and
// activity messages are display-only and skipped).
func ToHistory(threadID string, msgs []Message) []history.Message {
	out := make([]history.Message, 0, len(msgs))
	for _, m := range msgs {
		h := history.Message{ID: m.ID, ThreadID: threadID, Status: history.StatusComplete}
		if m.Content != nil {
			h.Content = m.Content.Text
		}
		switch m.Role {
		case "user":
			h.Role = history.RoleUser
		case "system", "developer":
			h.Role = history.RoleSystem
		case "assistant":
			h.Role = history.RoleAssistant
			for _, c := range m.ToolCalls {
				h.ToolCalls = append(h.ToolCalls, history.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
			}
		case "tool":
			h.Role, h.ToolCallID, h.IsError = history.RoleTool, m.ToolCallID, m.Error != ""
			if h.Content == "" {
				h.Content = m.Error
			}
		default:
			continue
		}
		out = append(out, h)
	}
	return out
}

// FromDescriptor converts a stored descriptor to the AG-UI Interrupt, its
// metadata values kept byte for byte.
func FromDescriptor(raw json.RawMessage) (Interrupt, error) {
	var d interrupt.Descriptor
	if err := json.Unmarshal(raw, &d); err != nil {
		return Interrupt{}, fmt.Errorf("reading a stored interrupt: %w", err)
	}
	out := Interrupt{ID: d.ID, Reason: d.Reason, Message: d.Message, ToolCallID: d.ToolCallID,
		ResponseSchema: d.ResponseSchema, ExpiresAt: d.ExpiresAt}
	if len(d.Metadata) > 0 {
		out.Metadata = make(map[string]any, len(d.Metadata))
		for k, v := range d.Metadata {
			out.Metadata[k] = v
		}
	}
	return out, nil
}

package agent

import (
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
)

// ToAGUI converts stored messages to AG-UI messages for MESSAGES_SNAPSHOT.
// Reasoning travels as a "reasoning" message (id "<message id>-reasoning")
// just before its answer; failed answers carry their error in metadata-free
// form (the content they got to).
func ToAGUI(msgs []history.Message) []agui.Message {
	out := make([]agui.Message, 0, len(msgs))
	for _, m := range msgs {
		switch m.Role {
		case history.RoleAssistant:
			if m.Reasoning != "" {
				out = append(out, agui.Message{ID: m.ID + "-reasoning", Role: "reasoning", Content: agui.TextContent(m.Reasoning)})
			}
			a := agui.Message{ID: m.ID, Role: "assistant"}
			if m.Content != "" {
				a.Content = agui.TextContent(m.Content)
			}
			for _, c := range m.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, agui.ToolCall{ID: c.ID, Type: "function", Function: agui.FunctionCall{Name: c.Name, Arguments: c.Arguments}})
			}
			out = append(out, a)
		case history.RoleTool:
			t := agui.Message{ID: m.ID, Role: "tool", ToolCallID: m.ToolCallID, Content: agui.TextContent(m.Content)}
			if m.IsError {
				t.Error = m.Content
			}
			out = append(out, t)
		default:
			out = append(out, agui.Message{ID: m.ID, Role: string(m.Role), Content: agui.TextContent(m.Content)})
		}
	}
	return out
}

// FromAGUI converts AG-UI input messages to history records (reasoning and
// activity messages are display-only and skipped).
func FromAGUI(threadID string, msgs []agui.Message) []history.Message {
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

package history

import "encoding/json"

// ForModel returns the history to send to a Chat Completions endpoint, valid
// whatever the stored records look like (older data, a crash mid-turn, a
// damaged import):
//
//   - every assistant tool call is followed, before anything else, by exactly
//     one tool result; a missing result becomes an "Interrupted" error result;
//   - a tool result that answers no call, or answers one twice, is dropped;
//   - empty or invalid tool arguments are sent as "{}";
//   - assistant messages with neither text nor tool calls are dropped.
//
// The input is not modified. Repaired is true when anything had to change,
// so the caller can log it.
func ForModel(msgs []Message) (out []Message, repaired bool) {
	results := make(map[string]Message) // first result per tool call id
	calls := make(map[string]bool)
	for _, m := range msgs {
		if m.Role == RoleAssistant {
			for _, c := range m.ToolCalls {
				calls[c.ID] = true
			}
		}
	}
	for _, m := range msgs {
		if m.Role != RoleTool {
			continue
		}
		if _, dup := results[m.ToolCallID]; dup || !calls[m.ToolCallID] {
			repaired = true
			continue
		}
		results[m.ToolCallID] = m
	}

	out = make([]Message, 0, len(msgs))
	answered := make(map[string]bool)
	for _, m := range msgs {
		switch m.Role {
		case RoleTool:
			// Emitted right after the call that asked for it (below).
			continue
		case RoleAssistant:
			if m.Content == "" && len(m.ToolCalls) == 0 {
				// Nothing the model could use (an endpoint error, or a
				// stop before the first word); not a repair.
				continue
			}
			m.ToolCalls = append([]ToolCall(nil), m.ToolCalls...)
			seen := make(map[string]bool, len(m.ToolCalls))
			calls := m.ToolCalls[:0]
			for _, c := range m.ToolCalls {
				if seen[c.ID] || answered[c.ID] {
					repaired = true
					continue
				}
				seen[c.ID] = true
				if !json.Valid([]byte(c.Arguments)) {
					c.Arguments = "{}"
					repaired = true
				}
				calls = append(calls, c)
			}
			m.ToolCalls = calls
			if m.Content == "" && len(m.ToolCalls) == 0 {
				continue // only repeated calls: nothing left to send
			}
			out = append(out, m)
			for _, c := range m.ToolCalls {
				answered[c.ID] = true
				if r, ok := results[c.ID]; ok {
					out = append(out, r)
					continue
				}
				repaired = true
				out = append(out, Message{
					ID: "repair-" + c.ID, ThreadID: m.ThreadID, RunID: m.RunID,
					Role: RoleTool, ToolCallID: c.ID, ToolName: c.Name,
					Content: ResultInterrupted, IsError: true, Status: StatusComplete,
					CreatedAt: m.CreatedAt,
				})
			}
		default:
			out = append(out, m)
		}
	}
	return out, repaired
}

// ToolImagesNote is the text of the message that carries tool images to
// a model that accepts images.
const ToolImagesNote = "Images returned by the tool calls above."

// WithToolImages returns msgs with, after each run of tool results that
// holds images, a user message carrying those images (Chat Completions
// tool messages take text only). Nothing is stored: this is what a model
// that accepts images is sent; the tool results' text already describes
// each image for one that does not.
func WithToolImages(msgs []Message) []Message {
	found := false
	for _, m := range msgs {
		if m.Role == RoleTool && hasImage(m.Parts) {
			found = true
			break
		}
	}
	if !found {
		return msgs
	}
	out := make([]Message, 0, len(msgs)+1)
	var images []Part
	flush := func() {
		if len(images) > 0 {
			out = append(out, Message{Role: RoleUser, Content: ToolImagesNote, Parts: images, Status: StatusComplete})
			images = nil
		}
	}
	for _, m := range msgs {
		if m.Role != RoleTool {
			flush()
		}
		out = append(out, m)
		if m.Role == RoleTool {
			for _, p := range m.Parts {
				if p.Kind == PartImage {
					images = append(images, p)
				}
			}
		}
	}
	flush()
	return out
}

func hasImage(parts []Part) bool {
	for _, p := range parts {
		if p.Kind == PartImage {
			return true
		}
	}
	return false
}

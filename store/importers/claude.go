package importers

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/juncture-app/juncture/agent/history"
)

type claudeConversation struct {
	UUID        *string         `json:"uuid"`
	Name        *string         `json:"name"`
	CreatedAt   *string         `json:"created_at"`
	UpdatedAt   *string         `json:"updated_at"`
	CurrentLeaf *string         `json:"current_leaf_message_uuid"`
	Messages    []claudeMessage `json:"chat_messages"`
	hasMessages bool
}

type claudeMessage struct {
	UUID    string `json:"uuid"`
	Text    string `json:"text"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Sender    string  `json:"sender"`
	CreatedAt *string `json:"created_at"`
	Parent    *string `json:"parent_message_uuid"`
}

// claudeRoot is the parent Claude gives a conversation's first message.
const claudeRoot = "00000000-0000-4000-8000-000000000000"

// ParseClaude reads Claude's conversations.json: a list of conversations
// ({uuid, name, created_at, updated_at, chat_messages: [{uuid, sender,
// text, content, created_at, parent_message_uuid?}]}). Messages follow
// one another in the order listed, unless they name their parent
// (parent_message_uuid), which makes a tree; the active leaf is
// current_leaf_message_uuid when given, else the last message listed.
// The human's and the assistant's text is kept; other senders and
// messages without text are left out, as for ChatGPT.
func ParseClaude(data []byte) ([]Conversation, error) {
	return parseList(data, "chat_messages", func(raw []byte) (claudeConversation, error) {
		var c claudeConversation
		if err := json.Unmarshal(raw, &c); err != nil {
			return c, err
		}
		var probe struct {
			Messages json.RawMessage `json:"chat_messages"`
		}
		_ = json.Unmarshal(raw, &probe)
		c.hasMessages = probe.Messages != nil && string(probe.Messages) != "null"
		return c, nil
	})
}

func (c claudeConversation) title() *string { return c.Name }

func isoTime(s *string) (int64, error) {
	if s == nil || *s == "" {
		return 0, nil
	}
	t, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a time (RFC 3339, like 2024-05-01T12:00:00Z)", clip(*s, 40))
	}
	if t.UnixMilli() <= 0 {
		return 0, nil
	}
	return t.UnixMilli(), nil
}

func (c claudeConversation) convert() (Conversation, string) {
	if c.UUID == nil || *c.UUID == "" {
		return Conversation{}, `no "uuid"`
	}
	if !c.hasMessages {
		return Conversation{}, `no "chat_messages" (its messages)`
	}
	if len(c.Messages) > MaxMessages {
		return Conversation{}, fmt.Sprintf("%d messages; at most %d can be imported", len(c.Messages), MaxMessages)
	}
	src := *c.UUID
	if msg := checkID("the conversation's uuid", src); msg != "" {
		return Conversation{}, msg
	}
	threadID := "claude-" + src
	created, err := isoTime(c.CreatedAt)
	if err != nil {
		return Conversation{}, "created_at " + err.Error()
	}
	updated, err := isoTime(c.UpdatedAt)
	if err != nil {
		return Conversation{}, "updated_at " + err.Error()
	}
	tree := false
	ids := make(map[string]bool, len(c.Messages))
	for j, m := range c.Messages {
		if m.UUID == "" {
			return Conversation{}, fmt.Sprintf("message %d has no uuid", j+1)
		}
		if msg := checkID(fmt.Sprintf("message %d's uuid", j+1), m.UUID); msg != "" {
			return Conversation{}, msg
		}
		if ids[m.UUID] {
			return Conversation{}, fmt.Sprintf("message %s appears twice", m.UUID)
		}
		ids[m.UUID] = true
		if m.Parent != nil && *m.Parent != "" && *m.Parent != claudeRoot {
			tree = true
		}
	}
	nodes := make([]node, 0, len(c.Messages))
	skipped := 0
	prev := ""
	for j, m := range c.Messages {
		parent := prev
		if tree {
			switch {
			case m.Parent != nil && *m.Parent == claudeRoot:
				parent = ""
			case m.Parent != nil && *m.Parent != "":
				parent = *m.Parent
				if !ids[parent] {
					return Conversation{}, fmt.Sprintf("message %s has an unknown parent %s", m.UUID, clip(parent, 60))
				}
			}
		}
		prev = m.UUID
		at, err := isoTime(m.CreatedAt)
		if err != nil {
			return Conversation{}, fmt.Sprintf("message %d (%s): created_at %v", j+1, m.UUID, err)
		}
		nd := node{id: m.UUID, parent: parent}
		if text, role, ok := m.text(); ok {
			if msg := checkText(m.UUID, text); msg != "" {
				return Conversation{}, msg
			}
			nd.kept = true
			if role == history.RoleAssistant {
				text = answerBreaks(text) // the answer is rendered as Markdown; the human's text is shown as typed
			}
			nd.msg = history.Message{
				ID:        threadID + "-" + m.UUID,
				ThreadID:  threadID,
				Role:      role,
				Content:   text,
				Status:    history.StatusComplete,
				CreatedAt: at,
			}
		} else {
			skipped++
		}
		nodes = append(nodes, nd)
	}
	leaf := prev
	if c.CurrentLeaf != nil && ids[*c.CurrentLeaf] {
		leaf = *c.CurrentLeaf
	}
	msgs, active, cycle := buildTree(nodes, leaf)
	if cycle != "" {
		return Conversation{}, fmt.Sprintf("message %s is in a cycle of parents (it never reaches the first message)", cycle)
	}
	t := history.Thread{ID: threadID, CreatedAt: created, UpdatedAt: updated}
	if c.Name != nil {
		t.Title = clip(strings.TrimSpace(*c.Name), MaxTitleRunes)
	}
	return finish(t, msgs, active, src, skipped), ""
}

func (m claudeMessage) text() (string, history.Role, bool) {
	var role history.Role
	switch m.Sender {
	case "human", "user":
		role = history.RoleUser
	case "assistant":
		role = history.RoleAssistant
	default:
		return "", "", false
	}
	var texts []string
	for _, b := range m.Content {
		if b.Type == "text" && strings.TrimSpace(b.Text) != "" {
			texts = append(texts, b.Text)
		}
	}
	text := strings.Join(texts, "\n\n")
	if text == "" {
		text = m.Text
	}
	if strings.TrimSpace(text) == "" {
		return "", "", false
	}
	return text, role, true
}

package importers

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/juncture-app/juncture/agent/history"
)

type gptConversation struct {
	Title          *string            `json:"title"`
	CreateTime     *float64           `json:"create_time"`
	UpdateTime     *float64           `json:"update_time"`
	Mapping        map[string]gptNode `json:"mapping"`
	CurrentNode    *string            `json:"current_node"`
	ConversationID *string            `json:"conversation_id"`
	ID             *string            `json:"id"`
}

type gptNode struct {
	ID       string      `json:"id"`
	Message  *gptMessage `json:"message"`
	Parent   *string     `json:"parent"`
	Children []string    `json:"children"`
}

type gptMessage struct {
	ID     string `json:"id"`
	Author struct {
		Role string `json:"role"`
	} `json:"author"`
	CreateTime *float64 `json:"create_time"`
	Content    struct {
		ContentType string            `json:"content_type"`
		Parts       []json.RawMessage `json:"parts"`
	} `json:"content"`
	Metadata struct {
		Hidden bool `json:"is_visually_hidden_from_conversation"`
	} `json:"metadata"`
	Recipient string `json:"recipient"`
}

// ParseChatGPT reads ChatGPT's conversations.json: a list of
// conversations, each a tree of messages ("mapping", node id → {message,
// parent, children}) whose shown path ends at "current_node". The user's
// and the assistant's text messages are kept (text, and the text parts of
// multimodal messages); system, hidden, tool and other messages are left
// out, their children following the nearest message kept. Branches (an
// edited question, a regenerated answer) stay branches.
func ParseChatGPT(data []byte) ([]Conversation, error) {
	return parseList(data, "mapping", func(raw []byte) (gptConversation, error) {
		var c gptConversation
		err := json.Unmarshal(raw, &c)
		return c, err
	})
}

func (c gptConversation) title() *string { return c.Title }

// listed is one conversation as an export lists it.
type listed interface {
	// convert makes it a Conversation, or says why it cannot.
	convert() (Conversation, string)
	// title is its title as given, for errors.
	title() *string
}

// parseList is the pass both exports share: data is a list whose elements
// are objects holding the key need, each decoded into C, converted and
// counted against the budgets (tally), in one pass.
func parseList[C listed](data []byte, need string, decode func(raw []byte) (C, error)) ([]Conversation, error) {
	if err := checkSize(data); err != nil {
		return nil, err
	}
	var out []Conversation
	var sum tally
	err := eachElement(data, func(i int, start int64, raw []byte) error {
		if err := checkShape(data, i, start, raw, need); err != nil {
			return err
		}
		c, err := decode(raw)
		if err != nil {
			return typeError(data, start, raw, err, fmt.Sprintf("conversation %d", i+1))
		}
		conv, msg := c.convert()
		if msg != "" {
			return errorAt(data, start, "conversation %d%s: %s", i+1, quotedTitle(c.title()), msg)
		}
		if err := sum.add(data, i, start, conv); err != nil {
			return err
		}
		out = append(out, conv)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func quotedTitle(t *string) string {
	if t == nil || strings.TrimSpace(*t) == "" {
		return ""
	}
	return fmt.Sprintf(" (%q)", clip(*t, 60))
}

// clip cuts s to n runes (the last one "…"), without copying a long s.
func clip(s string, n int) string {
	count := 0
	for i := range s {
		if count == n-1 {
			// More than this last rune left: cut (without counting the rest).
			if _, size := utf8.DecodeRuneInString(s[i:]); i+size < len(s) {
				return s[:i] + "…"
			}
			return s
		}
		count++
	}
	return s
}

// seconds converts an export's seconds (float) to ms; 0 when unknown.
func seconds(s *float64) int64 {
	if s == nil || math.IsNaN(*s) || *s <= 0 || *s > 1e11 {
		return 0
	}
	return int64(math.Round(*s * 1000))
}

func (c gptConversation) convert() (Conversation, string) {
	src := ""
	switch {
	case c.ConversationID != nil && *c.ConversationID != "":
		src = *c.ConversationID
	case c.ID != nil && *c.ID != "":
		src = *c.ID
	default:
		return Conversation{}, `no "conversation_id" or "id"`
	}
	if msg := checkID("the conversation's id", src); msg != "" {
		return Conversation{}, msg
	}
	if c.Mapping == nil {
		return Conversation{}, `no "mapping" (its messages)`
	}
	if len(c.Mapping) > MaxMessages {
		return Conversation{}, fmt.Sprintf("%d messages; at most %d can be imported", len(c.Mapping), MaxMessages)
	}
	threadID := "chatgpt-" + src
	// Where each node is among its parent's children, for the order of siblings.
	childIndex := make(map[string]int, len(c.Mapping))
	for _, n := range c.Mapping {
		for j, ch := range n.Children {
			if _, seen := childIndex[ch]; !seen {
				childIndex[ch] = j
			}
		}
	}
	nodes := make([]node, 0, len(c.Mapping))
	skipped := 0
	for key, n := range c.Mapping {
		if key == "" {
			return Conversation{}, "a node has an empty id"
		}
		if msg := checkID("node", key); msg != "" {
			return Conversation{}, msg
		}
		parent := ""
		if n.Parent != nil {
			parent = *n.Parent
			if _, ok := c.Mapping[parent]; parent != "" && !ok {
				return Conversation{}, fmt.Sprintf("node %s has an unknown parent %s", key, clip(parent, 60))
			}
		}
		nd := node{id: key, parent: parent}
		if n.Message != nil {
			if text, role, ok := n.Message.text(); ok {
				if msg := checkText(key, text); msg != "" {
					return Conversation{}, msg
				}
				nd.kept = true
				nd.msg = history.Message{
					ID:        threadID + "-" + key,
					ThreadID:  threadID,
					Role:      role,
					Content:   text,
					Status:    history.StatusComplete,
					CreatedAt: seconds(n.Message.CreateTime),
				}
			} else {
				skipped++
			}
		}
		nodes = append(nodes, nd)
	}
	order := func(id string) int {
		if j, ok := childIndex[id]; ok {
			return j
		}
		return math.MaxInt
	}
	sort.Slice(nodes, func(a, b int) bool {
		oa, ob := order(nodes[a].id), order(nodes[b].id)
		if oa != ob {
			return oa < ob
		}
		if nodes[a].msg.CreatedAt != nodes[b].msg.CreatedAt {
			return nodes[a].msg.CreatedAt < nodes[b].msg.CreatedAt
		}
		return nodes[a].id < nodes[b].id
	})
	leaf := ""
	if c.CurrentNode != nil {
		leaf = *c.CurrentNode
	}
	msgs, active, cycle := buildTree(nodes, leaf)
	if cycle != "" {
		return Conversation{}, fmt.Sprintf("node %s is in a cycle of parents (it never reaches the first message)", cycle)
	}
	t := history.Thread{ID: threadID, CreatedAt: seconds(c.CreateTime), UpdatedAt: seconds(c.UpdateTime)}
	if c.Title != nil {
		t.Title = clip(strings.TrimSpace(*c.Title), MaxTitleRunes)
	}
	return finish(t, msgs, active, src, skipped), ""
}

// text is a message's text and role when it is one Juncture keeps.
func (m *gptMessage) text() (string, history.Role, bool) {
	var role history.Role
	switch m.Author.Role {
	case "user":
		role = history.RoleUser
	case "assistant":
		role = history.RoleAssistant
	default:
		return "", "", false
	}
	if m.Metadata.Hidden || (m.Recipient != "" && m.Recipient != "all") {
		return "", "", false
	}
	if m.Content.ContentType != "text" && m.Content.ContentType != "multimodal_text" {
		return "", "", false
	}
	var texts []string
	for _, p := range m.Content.Parts {
		var s string
		if len(p) > 0 && p[0] == '"' && json.Unmarshal(p, &s) == nil && strings.TrimSpace(s) != "" {
			texts = append(texts, s)
		}
	}
	text := strings.Join(texts, "\n\n")
	if strings.TrimSpace(text) == "" {
		return "", "", false
	}
	return text, role, true
}

// finish fills in times the export left out: a message without one takes
// its parent's (or the thread's), the thread's start its first message's,
// and its last activity is never before its start or its last message.
func finish(t history.Thread, msgs []history.Message, active, src string, skipped int) Conversation {
	at := make(map[string]int64, len(msgs))
	var last int64
	for i := range msgs {
		m := &msgs[i]
		if m.CreatedAt == 0 {
			if p, ok := at[m.ParentID]; ok && m.ParentID != "" {
				m.CreatedAt = p
			} else {
				m.CreatedAt = t.CreatedAt
			}
		}
		at[m.ID] = m.CreatedAt
		last = max(last, m.CreatedAt)
		if t.CreatedAt == 0 {
			t.CreatedAt = m.CreatedAt
		}
	}
	t.UpdatedAt = max(t.UpdatedAt, t.CreatedAt, last)
	if t.Title == "" {
		t.Title = untitled(msgs)
	}
	return Conversation{Thread: t, Messages: msgs, ActiveLeaf: active, SourceID: src, Skipped: skipped}
}

// untitled names a conversation without a title after its first question.
func untitled(msgs []history.Message) string {
	for _, m := range msgs {
		if m.Role == history.RoleUser {
			return clip(strings.Join(strings.Fields(m.Content), " "), 60)
		}
	}
	return "Imported conversation"
}

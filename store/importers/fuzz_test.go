package importers

import (
	"errors"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

// checkParsed holds for every successful parse: ids in their thread,
// parents before children, roles user or assistant, a leaf that is a
// message; and every failure is an ErrInvalid with a position.
func checkParsed(t *testing.T, convs []Conversation, err error) {
	if err != nil {
		if !errors.Is(err, ErrInvalid) {
			t.Fatalf("error %v does not wrap ErrInvalid", err)
		}
		var e *Error
		if errors.As(err, &e) && (e.Line < 1 || e.Column < 1) {
			t.Fatalf("position %d:%d", e.Line, e.Column)
		}
		return
	}
	threads := map[string]bool{}
	for _, c := range convs {
		if c.Thread.ID == "" || c.Thread.UpdatedAt < c.Thread.CreatedAt {
			t.Fatalf("thread %+v", c.Thread)
		}
		threads[c.Thread.ID] = true
		seen := map[string]bool{}
		for _, m := range c.Messages {
			if m.ThreadID != c.Thread.ID || m.ID == "" || seen[m.ID] {
				t.Fatalf("message %+v", m)
			}
			if m.ParentID != "" && !seen[m.ParentID] {
				t.Fatalf("message %s before its parent %s", m.ID, m.ParentID)
			}
			if m.Role != history.RoleUser && m.Role != history.RoleAssistant {
				t.Fatalf("role %s", m.Role)
			}
			seen[m.ID] = true
		}
		if c.ActiveLeaf != "" && !seen[c.ActiveLeaf] {
			t.Fatalf("leaf %s is not a message", c.ActiveLeaf)
		}
	}
}

// addHostile seeds a fuzz target with the hostile corpus (testdata/hostile
// and the generated files) whose names start with prefix.
func addHostile(f *testing.F, prefix string) {
	for name, data := range hostileFiles(f) {
		if strings.HasPrefix(strings.TrimPrefix(name, "gen-"), prefix) {
			f.Add(data)
		}
	}
}

// FuzzParseChatGPT fails on a panic, a broken invariant (checkParsed), and
// on a parse over its memory or time budget (withinBudget).
func FuzzParseChatGPT(f *testing.F) {
	f.Add(readFixture(f, "chatgpt-conversations.json"))
	addHostile(f, "chatgpt-")
	f.Add([]byte(`[{"id":"a","mapping":{"r":{"parent":null},"n":{"parent":"m"},"m":{"parent":"n"}}}]`))
	f.Add([]byte(`[{"id":"x","current_node":"b","mapping":{"a":{"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["hi"]}},"parent":null,"children":["b"]},"b":{"message":{"author":{"role":"assistant"},"content":{"content_type":"multimodal_text","parts":[{},"yo"]}},"parent":"a"}}}]`))
	f.Add([]byte(`[{"id":"x","mapping":{"a":{"parent":"a"}}}]`))
	f.Add([]byte("[\n{\"title\":1}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		convs, err := withinBudget(t, "input", data, ParseChatGPT)
		checkParsed(t, convs, err)
	})
}

// FuzzParseClaude: as FuzzParseChatGPT, for Claude's export and Detect.
func FuzzParseClaude(f *testing.F) {
	f.Add(readFixture(f, "claude-conversations.json"))
	addHostile(f, "claude-")
	f.Add([]byte(`[{"uuid":"c","chat_messages":[{"uuid":"1","sender":"human","text":"q","parent_message_uuid":"2"},{"uuid":"2","sender":"assistant","text":"a","parent_message_uuid":"1"}]}]`))
	f.Add([]byte(`[{"uuid":"c","current_leaf_message_uuid":"1","chat_messages":[{"uuid":"1","sender":"human","content":[{"type":"text","text":"x"}],"created_at":"2024-01-01T00:00:00Z"}]}]`))
	f.Add([]byte(`[{"uuid":"c","chat_messages":[{"uuid":"1","created_at":"bad"}]}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		convs, err := withinBudget(t, "input", data, ParseClaude)
		checkParsed(t, convs, err)
		// Detection never panics either, nor goes over the budget.
		_, _ = withinBudget(t, "input (auto)", data, func(b []byte) ([]Conversation, error) {
			c, _, err := Parse(FormatAuto, b)
			return c, err
		})
	})
}

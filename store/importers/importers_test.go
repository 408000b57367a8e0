package importers

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// shape is a conversation as "id<parent role" lines, parents first.
func shape(c Conversation) []string {
	var out []string
	for _, m := range c.Messages {
		p := strings.TrimPrefix(m.ParentID, c.Thread.ID+"-")
		out = append(out, strings.TrimPrefix(m.ID, c.Thread.ID+"-")+"<"+p+" "+string(m.Role))
	}
	return out
}

func TestImportParseChatGPTFixture(t *testing.T) {
	convs, err := ParseChatGPT(readFixture(t, "chatgpt-conversations.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(convs) != 3 {
		t.Fatalf("%d conversations, want 3", len(convs))
	}
	tests := []struct {
		thread, title      string
		created, updated   int64
		shape              []string
		leaf               string
		skipped            int
		firstContent       string
		firstCreatedAtWant int64
	}{
		{
			thread: "chatgpt-c0ffee00-0000-4000-8000-000000000001", title: "Keeping a sourdough starter",
			created: 1714561200250, updated: 1714564800500,
			// The hidden system message is left out: both versions of the
			// question are first messages, siblings in the order listed.
			shape:   []string{"u1< user", "a1<u1 assistant", "u2< user", "a2<u2 assistant"},
			leaf:    "a2",
			skipped: 1, firstContent: "How often should I feed my sourdough starter?", firstCreatedAtWant: 1714561201500,
		},
		{
			thread: "chatgpt-c0ffee00-0000-4000-8000-000000000002", title: "Which tram is this?",
			created: 1717243200000, updated: 1717243300000,
			// The code call and the tool's output are left out; the answer
			// after them follows the question.
			shape:   []string{"t-u1< user", "t-a1<t-u1 assistant", "t-u2<t-a1 user", "t-a2<t-u2 assistant"},
			leaf:    "t-a2",
			skipped: 2, firstContent: "Which tram model is in this photo from Lisbon?", firstCreatedAtWant: 1717243201000,
		},
		{
			thread: "chatgpt-c0ffee00-0000-4000-8000-000000000003", title: "Suggest a name for a grey cat",
			created: 1719835200000, updated: 1719835230000,
			shape:   []string{"p-u1< user", "p-a1<p-u1 assistant"},
			leaf:    "p-a1",
			skipped: 0, firstContent: "Suggest a name for a grey cat",
			// No time: it takes the conversation's.
			firstCreatedAtWant: 1719835200000,
		},
	}
	for i, tc := range tests {
		c := convs[i]
		if c.Thread.ID != tc.thread || c.Thread.Title != tc.title {
			t.Errorf("conversation %d: thread %q %q, want %q %q", i, c.Thread.ID, c.Thread.Title, tc.thread, tc.title)
		}
		if c.Thread.CreatedAt != tc.created || c.Thread.UpdatedAt != tc.updated {
			t.Errorf("conversation %d: times %d %d, want %d %d", i, c.Thread.CreatedAt, c.Thread.UpdatedAt, tc.created, tc.updated)
		}
		if got := strings.Join(shape(c), ", "); got != strings.Join(tc.shape, ", ") {
			t.Errorf("conversation %d: tree\n got %s\nwant %s", i, got, strings.Join(tc.shape, ", "))
		}
		if c.ActiveLeaf != tc.thread+"-"+tc.leaf {
			t.Errorf("conversation %d: leaf %s, want %s", i, c.ActiveLeaf, tc.leaf)
		}
		if c.Skipped != tc.skipped {
			t.Errorf("conversation %d: skipped %d, want %d", i, c.Skipped, tc.skipped)
		}
		if c.Messages[0].Content != tc.firstContent || c.Messages[0].CreatedAt != tc.firstCreatedAtWant {
			t.Errorf("conversation %d: first message %q at %d", i, c.Messages[0].Content, c.Messages[0].CreatedAt)
		}
		for _, m := range c.Messages {
			if m.ThreadID != c.Thread.ID || m.Status != history.StatusComplete {
				t.Errorf("conversation %d: message %s thread %s status %s", i, m.ID, m.ThreadID, m.Status)
			}
		}
	}
}

func TestImportParseClaudeFixture(t *testing.T) {
	convs, err := ParseClaude(readFixture(t, "claude-conversations.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(convs) != 2 {
		t.Fatalf("%d conversations, want 2", len(convs))
	}
	a, b := convs[0], convs[1]
	if a.Thread.ID != "claude-5e1f0a00-0000-4000-8000-00000000000a" || a.Thread.Title != "Haiku about autumn" {
		t.Errorf("first thread %q %q", a.Thread.ID, a.Thread.Title)
	}
	if a.Thread.CreatedAt != 1727769600000 || a.Thread.UpdatedAt != 1727769690500 {
		t.Errorf("first thread times %d %d", a.Thread.CreatedAt, a.Thread.UpdatedAt)
	}
	if got := strings.Join(shape(a), ", "); got != "m-1< user, m-2<m-1 assistant" {
		t.Errorf("linear tree %s", got)
	}
	// Text blocks joined; the tool block left out; "text" used when no block has text.
	// A line break inside a block stays one in Markdown (issue 22 item 27).
	if a.Messages[1].Content != "Crimson maple drifts\n\nover the persimmon path —  \nwind counts every one." {
		t.Errorf("answer %q", a.Messages[1].Content)
	}
	if a.Messages[1].CreatedAt != 1727769605250 {
		t.Errorf("answer time %d", a.Messages[1].CreatedAt)
	}
	if a.ActiveLeaf != a.Thread.ID+"-m-2" {
		t.Errorf("leaf %s", a.ActiveLeaf)
	}
	if got := strings.Join(shape(b), ", "); got != "e-1< user, e-2<e-1 assistant, e-3<e-1 assistant" {
		t.Errorf("branched tree %s", got)
	}
	if b.ActiveLeaf != b.Thread.ID+"-e-3" {
		t.Errorf("leaf %s", b.ActiveLeaf)
	}
	if b.Messages[2].CreatedAt != 1730536440000 { // 09:34+01:00
		t.Errorf("offset time %d", b.Messages[2].CreatedAt)
	}
	if b.Messages[0].Content != "How long do I boil an egg for a runny yolk?" {
		t.Errorf("text fallback %q", b.Messages[0].Content)
	}
}

func TestImportParseClaudeTree(t *testing.T) {
	// A current leaf not given: the last message listed. A skipped message
	// (another sender) passes its children to its parent.
	data := `[{"uuid":"c","name":"t","chat_messages":[
 {"uuid":"1","sender":"human","text":"q","parent_message_uuid":"00000000-0000-4000-8000-000000000000"},
 {"uuid":"2","sender":"system","text":"note","parent_message_uuid":"1"},
 {"uuid":"3","sender":"assistant","text":"a","parent_message_uuid":"2"},
 {"uuid":"4","sender":"human","text":"","parent_message_uuid":"3"}]}]`
	convs, err := ParseClaude([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	c := convs[0]
	if got := strings.Join(shape(c), ", "); got != "1< user, 3<1 assistant" {
		t.Errorf("tree %s", got)
	}
	if c.ActiveLeaf != "claude-c-3" || c.Skipped != 2 {
		t.Errorf("leaf %s skipped %d", c.ActiveLeaf, c.Skipped)
	}
}

func TestImportParseChatGPTActiveLeafOnSkippedNode(t *testing.T) {
	data := `[{"id":"x","title":"t","current_node":"tool","mapping":{
 "q":{"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["hi"]}},"parent":null,"children":["tool"]},
 "tool":{"message":{"author":{"role":"tool"},"content":{"content_type":"text","parts":["x"]}},"parent":"q","children":[]}}}]`
	convs, err := ParseChatGPT([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if convs[0].ActiveLeaf != "chatgpt-x-q" || len(convs[0].Messages) != 1 {
		t.Errorf("leaf %s, %d messages", convs[0].ActiveLeaf, len(convs[0].Messages))
	}
}

func TestImportParseMalformed(t *testing.T) {
	tests := []struct {
		name, format, data, want string
	}{
		{"empty", FormatChatGPT, "", "conversations.json:1:1: the file is empty or not JSON"},
		{"object", FormatChatGPT, `{"a":1}`, "conversations.json:1:1: expected a list of conversations ([…]); this is an object"},
		{"syntax", FormatChatGPT, "[\n  {\"id\": \"a\",, }\n]", "conversations.json:2:14: invalid character ',' looking for beginning of object key string"},
		{"truncated", FormatClaude, "[\n{\"uuid\":\"a\"", "conversations.json:2:12: the file ends in the middle of the JSON (is it complete?)"},
		{"trailing", FormatChatGPT, "[]\n[]", "conversations.json:2:1: unexpected text after the list of conversations"},
		{"type", FormatChatGPT, "[{\"id\":\"a\",\"mapping\":{}},\n {\"id\":\"b\",\"title\":7,\"mapping\":{}}]", "conversations.json:2:20: conversation 2: title is a number; expected a string"},
		{"no mapping", FormatChatGPT, "[\n {\"id\":\"a\",\"title\":\"Plans\"}]", `conversations.json:2:2: conversation 1 ("Plans"): no "mapping" (its messages)`},
		{"no id", FormatChatGPT, `[{"mapping":{}}]`, `conversations.json:1:2: conversation 1: no "conversation_id" or "id"`},
		{"unknown parent", FormatChatGPT, `[{"id":"a","title":"T","mapping":{"n":{"message":null,"parent":"zz","children":[]}}}]`,
			`conversations.json:1:2: conversation 1 ("T"): node n has an unknown parent zz`},
		{"cycle", FormatChatGPT, `[{"id":"a","mapping":{"r":{"parent":null},"n":{"parent":"m"},"m":{"parent":"n"}}}]`,
			`conversations.json:1:2: conversation 1: node m is in a cycle of parents (it never reaches the first message)`},
		{"claude no messages", FormatClaude, `[{"uuid":"a","name":"N"}]`, `conversations.json:1:2: conversation 1 ("N"): no "chat_messages" (its messages)`},
		{"claude bad time", FormatClaude, `[{"uuid":"a","chat_messages":[{"uuid":"m","sender":"human","text":"x","created_at":"yesterday"}]}]`,
			`conversations.json:1:2: conversation 1: message 1 (m): created_at "yesterday" is not a time (RFC 3339, like 2024-05-01T12:00:00Z)`},
		{"claude unknown parent", FormatClaude, `[{"uuid":"a","chat_messages":[{"uuid":"m","sender":"human","text":"x","parent_message_uuid":"p"}]}]`,
			`conversations.json:1:2: conversation 1: message m has an unknown parent p`},
		{"claude duplicate", FormatClaude, `[{"uuid":"a","chat_messages":[{"uuid":"m"},{"uuid":"m"}]}]`,
			`conversations.json:1:2: conversation 1: message m appears twice`},
		{"claude type", FormatClaude, `[{"uuid":"a","chat_messages":{}}]`, `conversations.json:1:30: conversation 1: chat_messages is an object; expected a list`},
		{"auto neither", FormatAuto, `[{"messages":[]}]`, `conversations.json:1:2: conversation 1 has neither "mapping" (ChatGPT) nor "chat_messages" (Claude): not a ChatGPT or Claude conversations.json`},
		{"auto juncture", FormatAuto, `{"format":"juncture.thread","version":2}`, `conversations.json:1:1: this is a Juncture thread export: import it with Import thread`},
		{"format", "gemini", `[]`, `invalid conversations export: unknown format "gemini" (use chatgpt, claude or auto)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			convs, _, err := Parse(tc.format, []byte(tc.data))
			if err == nil {
				t.Fatalf("no error; %d conversations", len(convs))
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("%v does not wrap ErrInvalid", err)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
		})
	}
}

func TestImportParseDetect(t *testing.T) {
	for name, want := range map[string]string{"chatgpt-conversations.json": FormatChatGPT, "claude-conversations.json": FormatClaude} {
		convs, got, err := Parse(FormatAuto, readFixture(t, name))
		if err != nil || got != want || len(convs) == 0 {
			t.Errorf("%s: %s, %d conversations, %v", name, got, len(convs), err)
		}
	}
	if convs, _, err := Parse(FormatAuto, []byte(" [ ] ")); err != nil || len(convs) != 0 {
		t.Errorf("empty list: %d, %v", len(convs), err)
	}
}

func TestImportParseTooLarge(t *testing.T) {
	big := make([]byte, MaxBytes+1)
	if _, err := ParseChatGPT(big); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "at most 64 MiB") {
		t.Errorf("too large: %v", err)
	}
}

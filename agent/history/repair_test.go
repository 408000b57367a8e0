package history

import (
	"strings"
	"testing"
)

func TestForModelRepairsDamagedHistories(t *testing.T) {
	t.Parallel()
	user := func(id, text string) Message {
		return Message{ID: id, Role: RoleUser, Content: text, Status: StatusComplete}
	}
	asst := func(id, text string, calls ...ToolCall) Message {
		return Message{ID: id, Role: RoleAssistant, Content: text, ToolCalls: calls, Status: StatusComplete}
	}
	tool := func(id, call, text string) Message {
		return Message{ID: id, Role: RoleTool, ToolCallID: call, Content: text, Status: StatusComplete}
	}
	call := func(id, args string) ToolCall { return ToolCall{ID: id, Name: "list_files", Arguments: args} }
	// shape renders what the model would receive: role[:call ids][=content].
	shape := func(ms []Message) string {
		var parts []string
		for _, m := range ms {
			s := string(m.Role)
			for _, c := range m.ToolCalls {
				s += ":" + c.ID + "(" + c.Arguments + ")"
			}
			if m.Role == RoleTool {
				s += ":" + m.ToolCallID + "=" + m.Content
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, " ")
	}
	cases := []struct {
		name     string
		in       []Message
		want     string
		repaired bool
	}{
		{"valid history is unchanged", []Message{user("u", "hi"), asst("a", "", call("c1", "{}")), tool("t", "c1", "ok"), asst("b", "done")},
			"user assistant:c1({}) tool:c1=ok assistant", false},
		{"a call without a result gets Interrupted (crash mid-tool)", []Message{user("u", "hi"), asst("a", "", call("c1", "{}")), user("u2", "again")},
			"user assistant:c1({}) tool:c1=Interrupted user", true},
		{"an orphan result is dropped", []Message{user("u", "hi"), tool("t", "nobody", "x"), asst("a", "ok")},
			"user assistant", true},
		{"a duplicate result is dropped", []Message{asst("a", "", call("c1", "{}")), tool("t1", "c1", "first"), tool("t2", "c1", "second")},
			"assistant:c1({}) tool:c1=first", true},
		{"a result stored after a later user message moves next to its call", []Message{asst("a", "", call("c1", "{}")), user("u", "typed ahead"), tool("t", "c1", "late")},
			"assistant:c1({}) tool:c1=late user", false},
		{"empty or broken arguments become {}", []Message{asst("a", "", call("c1", ""), call("c2", `{"path":`)), tool("t1", "c1", "x"), tool("t2", "c2", "y")},
			"assistant:c1({}):c2({}) tool:c1=x tool:c2=y", true},
		{"an empty failed answer is left out", []Message{user("u", "hi"), {ID: "e", Role: RoleAssistant, Status: StatusError, Error: "401"}, user("u2", "retry")},
			"user user", false},
		{"a call id repeated in a later message keeps only the first", []Message{asst("a", "", call("c1", "{}")), tool("t", "c1", "x"), asst("b", "", call("c1", "{}"))},
			"assistant:c1({}) tool:c1=x", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, repaired := ForModel(tc.in)
			if got := shape(out); got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
			if repaired != tc.repaired {
				t.Fatalf("repaired = %v, want %v", repaired, tc.repaired)
			}
		})
	}
}

func TestMarker(t *testing.T) {
	t.Parallel()
	cases := map[string]string{"": InterruptMarker, "partial": "partial\n\n" + InterruptMarker, "x\n\n" + InterruptMarker: "x\n\n" + InterruptMarker}
	for in, want := range cases {
		if got := WithMarker(in); got != want {
			t.Errorf("WithMarker(%q) = %q", in, got)
		}
		if back, ok := StripMarker(WithMarker(in)); !ok || back != strings.TrimSuffix(strings.TrimSuffix(in, InterruptMarker), "\n\n") {
			t.Errorf("StripMarker(WithMarker(%q)) = %q, %v", in, back, ok)
		}
	}
}

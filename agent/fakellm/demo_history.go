package fakellm

import (
	"fmt"
	"strings"
)

// The demo's "echo history" answer: it lists the messages of the request it
// answers, so a test in the window can see exactly what the model was sent
// (after an edit, neither the old question nor its answer may be there).
// demo.go registers it before every other trigger.

// historyTrigger, anywhere in the last user message (any case), asks for it.
const historyTrigger = "echo history"

// isHistoryRequest reports whether the user asks the demo to echo what it
// received.
func isHistoryRequest(user string) bool {
	return strings.Contains(strings.ToLower(user), historyTrigger)
}

// historyQuoteRunes bounds each message as quoted (its first line and a
// bit: enough to recognise it).
const historyQuoteRunes = 120

// demoHistory is a Markdown list of the request's messages in order: the
// role, then the content on one line (cut at historyQuoteRunes), and the
// names of the tools an assistant message called.
func demoHistory(req Request) string {
	var b strings.Builder
	fmt.Fprintf(&b, "I received %d %s:\n\n", len(req.Messages), plural(len(req.Messages), "message", "messages"))
	for i, m := range req.Messages {
		text := strings.Join(strings.Fields(m.Content), " ")
		if r := []rune(text); len(r) > historyQuoteRunes {
			text = string(r[:historyQuoteRunes]) + "…"
		}
		if text == "" {
			text = "(empty)"
		}
		fmt.Fprintf(&b, "%d. **%s**: %s", i+1, m.Role, text)
		for _, u := range m.Images {
			// The kind of image and its size, not its bytes.
			head, data, _ := strings.Cut(u, ",")
			fmt.Fprintf(&b, " (image_url %s, %d characters)", head, len(data))
		}
		if len(m.ToolCalls) > 0 {
			names := make([]string, len(m.ToolCalls))
			for j, c := range m.ToolCalls {
				names[j] = c.Name
			}
			fmt.Fprintf(&b, " (calls %s)", strings.Join(names, ", "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

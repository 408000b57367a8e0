package fakellm

import (
	"fmt"
	"strings"
)

// The demo's "echo instructions" answer: the model it was asked for and the
// request's system message in full (Juncture's own text, then the chat's
// instructions), so a test in the window can see which model answered and
// what it was told. Demo wraps its fallback with withEcho.

// instructionsTrigger, anywhere in the last user message (any case), asks
// for it.
const instructionsTrigger = "echo instructions"

// withEcho answers "echo instructions" itself and passes everything else
// (titles included) to next.
func (d *demo) withEcho(next func(Request) Response) func(Request) Response {
	return func(req Request) Response {
		if isTitleRequest(req) || req.LastMessage().Role == "tool" ||
			!strings.Contains(strings.ToLower(req.LastUser()), instructionsTrigger) {
			return next(req)
		}
		return d.answer(req, nil, demoInstructions(req))
	}
}

// demoInstructions says which model answers and quotes every system
// message of the request, each line as a Markdown quote.
func demoInstructions(req Request) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Model `%s` answering.\n\n", modelName(req))
	n := 0
	for _, m := range req.Messages {
		if m.Role != "system" {
			continue
		}
		n++
		fmt.Fprintf(&b, "System message %d:\n\n", n)
		for _, line := range strings.Split(strings.TrimSpace(m.Content), "\n") {
			b.WriteString("> " + line + "\n")
		}
		b.WriteString("\n")
	}
	if n == 0 {
		b.WriteString("I received no system message.\n")
	}
	return b.String()
}

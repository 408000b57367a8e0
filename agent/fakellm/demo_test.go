package fakellm

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

var demoTools = []string{
	"list_files", "read_file", "write_file", "run_command",
	"ask_user", "copy_to_clipboard", "open_url",
	"everything__echo", "edge__roots", // MCP tools, called with /tool
}

func demoParams(msgs ...openai.ChatCompletionMessageParamUnion) openai.ChatCompletionNewParams {
	p := openai.ChatCompletionNewParams{Model: "fake-model", Messages: msgs}
	for _, name := range demoTools {
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: name}))
	}
	return withUsage(p)
}

// startDemo is a server answering with the demo, without pacing.
func startDemo(t *testing.T) (*Server, openai.Client) {
	srv := Start(t)
	srv.SetFallback((&demo{}).respond)
	return srv, newClient(srv)
}

func TestDemoAnswers(t *testing.T) {
	t.Parallel()
	_, c := startDemo(t)
	for _, tc := range []struct {
		say       string
		tool      string // expected tool call, "" for a text answer
		args      string // expected arguments, if checked
		content   string // substring of the content
		reasoning bool
	}{
		{say: "Hello!", content: "| `list files` | I call the `list_files` tool |"},
		{say: "what is this?", content: "```go\n"},
		{say: "Please think about it", content: "> Please think about it", reasoning: true},
		{say: "list files", tool: "list_files", args: `{"path":"."}`},
		{say: "Can you read the file go.mod?", tool: "read_file", args: `{"path":"go.mod"}`},
		{say: "read notes", tool: "read_file", args: `{"path":"notes"}`},
		{say: "write a note", tool: "write_file"},
		{say: "run it", tool: "run_command", args: `{"command":"ls -la"}`},
		{say: "ask me something", tool: "ask_user"},
		{say: "copy this", tool: "copy_to_clipboard"},
		{say: "open a website", tool: "open_url", args: `{"url":"https://example.com"}`},
		{say: "think, then list files", tool: "list_files", reasoning: true},
		{say: "show hostile markdown", content: "<script>window.__pwned=1</script>"},
		{say: "fill in a form", tool: "ask_user"},
		{say: `/tool everything__echo {"message":"hi"}`, tool: "everything__echo", args: `{"message":"hi"}`},
		{say: "/tool edge__roots", tool: "edge__roots", args: `{}`},
		{say: "/tool edge__echo not json", content: "Write `/tool <name>"},
		{say: "count to four hundred", content: "w001 w002 w003"},
		{say: "show me some math", content: "$A = \\pi r^2$"},
		{say: "a hostile diagram", content: "click A call window.alert(1)"},
	} {
		r := collect(t, t.Context(), c, demoParams(openai.UserMessage(tc.say)))
		if r.err != nil {
			t.Fatalf("%q: %v", tc.say, r.err)
		}
		msg := r.acc.Choices[0].Message
		if tc.tool == "" {
			if len(msg.ToolCalls) != 0 || !strings.Contains(msg.Content, tc.content) || r.finishReason() != "stop" {
				t.Errorf("%q: content %q, %d tool calls", tc.say, msg.Content, len(msg.ToolCalls))
			}
		} else {
			if len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Function.Name != tc.tool || r.finishReason() != "tool_calls" {
				t.Errorf("%q: tool calls %+v", tc.say, msg.ToolCalls)
				continue
			}
			args := msg.ToolCalls[0].Function.Arguments
			if !json.Valid([]byte(args)) || (tc.args != "" && args != tc.args) {
				t.Errorf("%q: arguments %s, want %s", tc.say, args, tc.args)
			}
		}
		if got := r.reasoningContent != ""; got != tc.reasoning {
			t.Errorf("%q: reasoning %q", tc.say, r.reasoningContent)
		}
		if last := r.chunks[len(r.chunks)-1]; last.Usage.CompletionTokens == 0 {
			t.Errorf("%q: no usage chunk", tc.say)
		}
	}
}

func TestDemoLongAnswerAndToolResult(t *testing.T) {
	t.Parallel()
	_, c := startDemo(t)

	r := collect(t, t.Context(), c, demoParams(openai.UserMessage("Write me a long essay")))
	if n := len(strings.Fields(r.acc.Choices[0].Message.Content)); r.err != nil || n < 550 || n > 700 {
		t.Errorf("essay: %d words, err %v", n, r.err)
	}
	if !strings.Contains(r.acc.Choices[0].Message.Content, "|---|") {
		t.Errorf("essay has no table")
	}

	// After the tool result the demo quotes its first line.
	call := openai.ChatCompletionMessageParamUnion{OfAssistant: &openai.ChatCompletionAssistantMessageParam{
		ToolCalls: []openai.ChatCompletionMessageToolCallUnionParam{{
			OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
				ID:       "call_1",
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "list_files", Arguments: `{"path":"."}`},
			},
		}},
	}}
	r = collect(t, t.Context(), c, demoParams(
		openai.UserMessage("list files"), call, openai.ToolMessage("go.mod\nmain.go\nREADME.md", "call_1")))
	if got := r.acc.Choices[0].Message.Content; r.err != nil || !strings.Contains(got, "The `list_files` tool returned:\n\n> go.mod") ||
		!strings.Contains(got, "3 lines") {
		t.Errorf("summary = %q, err %v", got, r.err)
	}

	// A tool the chat does not offer is not called.
	p := demoParams(openai.UserMessage("open a website"))
	p.Tools = p.Tools[:1]
	r = collect(t, t.Context(), c, p)
	if msg := r.acc.Choices[0].Message; len(msg.ToolCalls) != 0 || !strings.Contains(msg.Content, "`open_url`") {
		t.Errorf("unavailable tool: %+v", msg)
	}
}

func TestDemoMath(t *testing.T) {
	t.Parallel()
	_, c := startDemo(t)
	r := collect(t, t.Context(), c, demoParams(openai.UserMessage("Show me some math")))
	got := r.acc.Choices[0].Message.Content
	// Each delimiter style, the prices that must stay text, a diagram that
	// draws and one that does not parse (the frontend's e2e story reads them).
	for _, want := range []string{
		"$r$", `\(e^{i\pi} + 1 = 0\)`, "$$\n\\int_0^1", "\\[\n\\sum_{n=1}", "$5 and $10", "`$x^2$`",
		"```mermaid\nflowchart LR\n", "```mermaid\ngraph TD; A-->\n```", "End of the math sample.",
	} {
		if r.err != nil || !strings.Contains(got, want) {
			t.Errorf("math answer lacks %q (err %v)", want, r.err)
		}
	}
	if n := strings.Count(got, "```"); n != 4 {
		t.Errorf("math answer has %d fences, want 4 (two diagrams, each closed)", n)
	}
	// "hostile" alone is still the hostile Markdown, not the diagram.
	r = collect(t, t.Context(), c, demoParams(openai.UserMessage("show hostile markdown")))
	if got := r.acc.Choices[0].Message.Content; strings.Contains(got, "```mermaid") {
		t.Errorf("hostile markdown became the hostile diagram: %q", got)
	}
}

func TestDemoHostileAndBatch(t *testing.T) {
	t.Parallel()
	_, c := startDemo(t)

	r := collect(t, t.Context(), c, demoParams(openai.UserMessage("show hostile markdown")))
	got := r.acc.Choices[0].Message.Content
	for _, want := range []string{
		`<img src=x onerror="window.__pwned=1">`, "](javascript:", `<svg onload=`, `<iframe src="javascript:`, "](data:text/html",
	} {
		if r.err != nil || !strings.Contains(got, want) {
			t.Errorf("hostile answer lacks %q (err %v)", want, r.err)
		}
	}

	// "batch": two calls in one reply, each with its own index and id.
	r = collect(t, t.Context(), c, demoParams(openai.UserMessage("do a batch")))
	calls := r.acc.Choices[0].Message.ToolCalls
	if r.err != nil || len(calls) != 2 || calls[0].Function.Name != "write_file" || calls[1].Function.Name != "ask_user" ||
		calls[0].ID == calls[1].ID || r.finishReason() != "tool_calls" {
		t.Fatalf("batch: %+v, err %v", calls, r.err)
	}
	for _, tc := range calls {
		if !json.Valid([]byte(tc.Function.Arguments)) {
			t.Errorf("batch %s arguments %s", tc.Function.Name, tc.Function.Arguments)
		}
	}

	// "form": an ask_user call carrying a JSON Schema.
	r = collect(t, t.Context(), c, demoParams(openai.UserMessage("fill in a form")))
	var args struct {
		Question string         `json:"question"`
		Schema   map[string]any `json:"schema"`
	}
	if err := json.Unmarshal([]byte(r.acc.Choices[0].Message.ToolCalls[0].Function.Arguments), &args); err != nil ||
		args.Schema["type"] != "object" || args.Question == "" {
		t.Errorf("form arguments %+v, err %v", args, err)
	}
}

func TestDemoTitle(t *testing.T) {
	t.Parallel()
	_, c := startDemo(t)
	for _, msgs := range [][]openai.ChatCompletionMessageParamUnion{
		{openai.SystemMessage("Generate a short title for this conversation."), openai.UserMessage("How do I bake sourdough bread at home?")},
		{openai.UserMessage("Write a 3-5 word title for this conversation:\nUser: hello there\nAssistant: Hi!")},
		{openai.SystemMessage("Reply with a title."), openai.UserMessage("?")},
	} {
		res, err := c.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{Model: "fake-model", Messages: msgs})
		if err != nil {
			t.Fatal(err)
		}
		title := res.Choices[0].Message.Content
		if n := len(strings.Fields(title)); n < 3 || n > 5 || strings.ContainsAny(title, "\n:?") {
			t.Errorf("title %q", title)
		}
	}
}

// The runtime asks for titles over a stream: a system prompt asking for a
// title is a title request either way, while a streaming chat whose user
// writes "title" is still a chat.
func TestDemoTitleStreaming(t *testing.T) {
	t.Parallel()
	title := Demo()(Request{Stream: true, Messages: []RequestMessage{
		{Role: "system", Content: "Write a short title (3 to 6 words) for this conversation."},
		{Role: "user", Content: "Person: Please write a long essay about rivers\n\nAssistant: On Working Offline\n\nTitle:"},
	}})
	if got := textOf(title); got == "" || strings.Contains(got, "Offline") || len(strings.Fields(got)) > 5 {
		t.Fatalf("streamed title %q", got)
	}
	chat := Demo()(Request{Stream: true, Messages: []RequestMessage{{Role: "user", Content: "suggest a title for my essay"}}})
	if got := textOf(chat); len(strings.Fields(got)) <= 5 {
		t.Fatalf("a chat mentioning title was answered as a title request: %q", got)
	}
}

func TestDemoIsPaced(t *testing.T) {
	t.Parallel()
	resp := Demo()(Request{Stream: true, Messages: []RequestMessage{{Role: "user", Content: "write me a story"}}})
	var delay time.Duration
	for _, st := range resp.Steps {
		if st.kind == kindDelay {
			delay += st.d
		}
	}
	// Long enough to press Stop, short enough to finish while watching.
	if delay < 5*time.Second || delay > 20*time.Second {
		t.Errorf("story streams for %v", delay)
	}
}

func TestServe(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() { errc <- Serve(ctx, "127.0.0.1:0") }()
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if err := Serve(t.Context(), "256.0.0.1:0"); err == nil {
		t.Error("Serve on a bad address should fail")
	}
}

// TestDemoFirehose measures the "firehose" rate at the client: about
// 1,000 words (tokens) a second, within ±30%, for about 6,000 words.
func TestDemoFirehose(t *testing.T) {
	t.Parallel()
	srv := Start(t)
	srv.SetFallback(Demo())
	c := newClient(srv)

	stream := c.Chat.Completions.NewStreaming(t.Context(), demoParams(openai.UserMessage("open the firehose")))
	defer stream.Close()
	var acc openai.ChatCompletionAccumulator
	var first, last time.Time
	firstWords := 0
	for stream.Next() {
		ch := stream.Current()
		acc.AddChunk(ch)
		if len(ch.Choices) == 0 || ch.Choices[0].Delta.Content == "" {
			continue
		}
		last = time.Now()
		if first.IsZero() {
			first, firstWords = last, len(strings.Fields(ch.Choices[0].Delta.Content))
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	content := acc.Choices[0].Message.Content
	words := len(strings.Fields(content))
	if words != firehoseWords || !strings.Contains(content, "### Section 2") || !strings.Contains(content, "**responsive**") {
		t.Fatalf("firehose: %d words, want %d, with Markdown", words, firehoseWords)
	}
	if acc.Usage.CompletionTokens != firehoseWords {
		t.Errorf("usage %d completion tokens, want %d", acc.Usage.CompletionTokens, firehoseWords)
	}
	// The first chunk's words were paced before the clock started.
	elapsed := last.Sub(first)
	rate := float64(words-firstWords) / elapsed.Seconds()
	t.Logf("firehose: %d words in %v after the first chunk: %.0f words/s", words, elapsed.Round(time.Millisecond), rate)
	// Only the upper bound is asserted: a loaded machine can only slow the
	// stream down (the rate itself is reported by e2e/bench-typing.mjs).
	if rate > 1300 {
		t.Errorf("firehose streams %.0f words/s: the 1,000 words/s pacing is missing", rate)
	}
}

// textOf is the answer text a scripted response streams.
func textOf(r Response) string {
	var b strings.Builder
	for _, st := range r.Steps {
		if st.kind == kindChunk && st.delta == deltaContent {
			for i := 0; i < max(st.n, 1); i++ {
				b.WriteString(st.text)
			}
		}
	}
	return b.String()
}

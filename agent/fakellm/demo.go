package fakellm

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
)

// demoPace is the delay between chunks of demo answers: about what a local
// model on a laptop streams.
const demoPace = 40 * time.Millisecond

// demoWordsPerChunk is how many words each demo chunk carries.
const demoWordsPerChunk = 3

// Demo returns a fallback that makes the app usable offline. It answers the
// last message of each request with realistic pacing (about 40 ms per three
// words):
//
//   - a tool result (last message role "tool"): a short answer quoting the
//     first line of the result;
//   - a title request: a system prompt that mentions "title" (streaming
//     or not), or a non-streaming request whose user prompt does: a 3–5
//     word title;
//   - "think": reasoning_content first, then the answer;
//   - "hostile" and "diagram": a Mermaid diagram that tries to run script
//     (click callbacks, javascript: links, <script> in labels);
//   - "hostile": Markdown full of script-injection attempts (raw HTML
//     with event handlers, javascript: and data: links), for the XSS tests;
//   - "math": KaTeX math in the four delimiter styles ($…$, \(…\), $$…$$,
//     \[…\]), prices that must stay text, a Mermaid flowchart and a
//     Mermaid block that does not parse;
//   - "firehose": about 6,000 words of Markdown prose at about 1,000 words
//     (tokens) a second, ten words every 10 ms whatever the demo's pacing,
//     to load the UI the way a fast provider does;
//   - "list files": a list_files {"path":"."} call;
//   - "essay", "story" or "long": about 600 words (long enough to try Stop);
//   - "read <file>": a read_file {"path":"<file>"} call;
//   - "write": write_file {"path":"notes.txt","content":…};
//   - "run": run_command {"command":"ls -la"}, or the command in backticks
//     ("run `git status`");
//   - "batch": write_file {"path":"batch.txt",…} and ask_user in one
//     reply (two decisions answered together);
//   - "form": ask_user with a JSON Schema (a name and an age 0–150);
//   - "ask": ask_user {"question":…,"options":[…]};
//   - "copy": copy_to_clipboard {"text":…};
//   - "open": open_url {"url":"https://example.com"};
//   - a greeting, or anything else: Markdown (a table and a code block) that
//     lists what to try.
//
// Words are matched whole and case-insensitively, in the order above. A
// tool is called only if the request offers it (or offers no tools at all);
// otherwise the demo says the tool is not enabled.
func Demo() func(Request) Response {
	d := &demo{pace: demoPace}
	return d.withEcho(d.respond) // "echo instructions": demo_echo.go
}

// Serve runs a fake server on addr with [Demo] as the fallback, logging
// each request on stderr, until ctx is done.
func Serve(ctx context.Context, addr string) error {
	s, err := New(addr)
	if err != nil {
		return err
	}
	defer s.Close()
	s.SetFallback(Demo())
	l := log.New(os.Stderr, "fakellm: ", log.Ltime)
	s.SetLogger(l)
	l.Printf("offline demo model serving at %s (model %q)", s.URL, "fake-model")
	<-ctx.Done()
	l.Printf("stopping")
	return nil
}

type demo struct {
	pace  time.Duration
	calls atomic.Int64
}

func (d *demo) respond(req Request) Response {
	if isTitleRequest(req) {
		return Reply(Text(demoTitle(req)), Usage(estimatePromptTokens(req), 6))
	}
	if last := req.LastMessage(); last.Role == "tool" {
		return d.answer(req, nil, d.toolSummary(req, last))
	}

	if i, ok := continuation(req); ok {
		return d.continueAnswer(req, i)
	}

	user := req.LastUser()
	words := lowerWords(user)
	var thinking []Step
	if words["think"] || words["thinking"] {
		thinking = d.paced(Reasoning, demoReasoning(user))
	}

	if name, args, ok := toolCommand(user); ok {
		if args == nil {
			return d.answer(req, thinking, "Write `/tool <name> <arguments as a JSON object>`, for example `/tool everything__echo {\"message\": \"hi\"}`.")
		}
		return d.tool(req, thinking, fmt.Sprintf("Calling `%s`.", name), name, args)
	}
	switch {
	case isHistoryRequest(user): // "echo history": what the model received (demo_history.go)
		return d.answer(req, thinking, demoHistory(req))
	case words["hostile"] && (words["diagram"] || words["mermaid"]):
		return d.answer(req, thinking, demoHostileDiagram)
	case words["hostile"]:
		return d.answer(req, thinking, demoHostile)
	case words["math"]:
		return d.answer(req, thinking, demoMath)
	case words["firehose"]:
		return d.firehose(req, thinking)
	case strings.Contains(strings.ToLower(user), "list files") || (words["list"] && words["files"]):
		return d.tool(req, thinking, "Let me look at the files in the current folder.",
			"list_files", map[string]any{"path": "."})
	case words["count"] || words["numbered"]:
		return d.answer(req, thinking, numberedWords(400))
	case words["essay"] || words["story"] || words["long"]:
		return d.answer(req, thinking, demoEssay)
	case words["read"]:
		path := readTarget(user)
		return d.tool(req, thinking, fmt.Sprintf("I'll open `%s` for you.", path),
			"read_file", map[string]any{"path": path})
	case words["write"]:
		return d.tool(req, thinking, "I'll save a note for you.",
			"write_file", map[string]any{
				"path":    "notes.txt",
				"content": "Notes from Juncture's offline demo\n\n- Streaming works\n- Tools work\n",
			})
	case words["run"]:
		return d.tool(req, thinking, "Let me run that in the workspace.",
			"run_command", map[string]any{"command": runTarget(user)})
	case words["batch"]:
		return d.tools(req, thinking, "I need two decisions from you.",
			toolCall{"write_file", map[string]any{"path": "batch.txt", "content": "Written by a batch of decisions\n"}},
			toolCall{"ask_user", map[string]any{
				"question": "Which theme do you prefer?",
				"options":  []string{"Light", "Dark", "System"},
			}})
	case words["form"]:
		return d.tool(req, thinking, "Please fill in this form.",
			"ask_user", map[string]any{
				"question": "Tell me about yourself.",
				"schema": map[string]any{
					"type":  "object",
					"title": "About you",
					"properties": map[string]any{
						"name": map[string]any{"type": "string", "title": "Name", "minLength": 1},
						"age":  map[string]any{"type": "integer", "title": "Age", "minimum": 0, "maximum": 150},
					},
					"required": []string{"name", "age"},
				},
			})
	case words["ask"]:
		return d.tool(req, thinking, "Let me ask you first.",
			"ask_user", map[string]any{
				"question": "Which theme do you prefer?",
				"options":  []string{"Light", "Dark", "System"},
			})
	case words["copy"]:
		return d.tool(req, thinking, "Copying it to your clipboard.",
			"copy_to_clipboard", map[string]any{"text": "Hello from Juncture's offline demo!"})
	case words["open"]:
		return d.tool(req, thinking, "Opening the page in your browser.",
			"open_url", map[string]any{"url": "https://example.com"})
	case isGreeting(words):
		return d.answer(req, thinking, demoGreeting)
	default:
		return d.answer(req, thinking, demoDefault(user))
	}
}

// ContinueInstruction is the runtime's hidden request to go on with a
// stopped answer (agent.ContinueInstruction; an agent test keeps the two
// equal, as fakellm cannot import agent).
const ContinueInstruction = "Continue your previous answer exactly where it stopped. Do not repeat anything you already wrote and do not comment on the interruption."

// continuation reports whether req asks to continue a stopped answer: the
// instruction last, after the stopped answer at index i.
func continuation(req Request) (i int, ok bool) {
	n := len(req.Messages)
	if n < 2 || req.Messages[n-1].Role != "user" || req.Messages[n-1].Content != ContinueInstruction ||
		req.Messages[n-2].Role != "assistant" {
		return 0, false
	}
	return n - 2, true
}

// continueAnswer continues the stopped answer at index i as a real model
// would: the demo works out the answer it was giving (its reply to the
// conversation before it) and streams what was left of it, so the stopped
// text and the continuation together are that answer.
func (d *demo) continueAnswer(req Request, i int) Response {
	stopped := req.Messages[i].Content
	before := req
	before.Messages = req.Messages[:i]
	var full strings.Builder
	for _, st := range d.respond(before).Steps {
		if st.kind == kindChunk && st.delta == deltaContent {
			full.WriteString(st.text)
		}
	}
	if rest, ok := strings.CutPrefix(full.String(), stopped); ok && rest != "" {
		return d.answer(req, nil, rest)
	}
	return d.answer(req, nil, " — and that is where this answer ends. (The offline demo can only continue the answers it writes itself.)")
}

// paced splits text into chunks of a few words made by mk, each preceded by
// a pacing delay.
func (d *demo) paced(mk func(string) Step, text string) []Step {
	var steps []Step
	for _, part := range splitWords(text, demoWordsPerChunk) {
		if d.pace > 0 {
			steps = append(steps, Delay(d.pace))
		}
		steps = append(steps, mk(part))
	}
	return steps
}

// Firehose pacing: firehoseWordsPerChunk words every firehosePace, that is
// 1,000 words (tokens) a second, for firehoseWords words.
const (
	firehoseWords         = 6000
	firehoseWordsPerChunk = 10
	firehosePace          = 10 * time.Millisecond
)

// firehose streams thinking (if any), then [firehoseText] at a fixed
// 1,000 words a second, then finish and usage (one token per word).
func (d *demo) firehose(req Request, thinking []Step) Response {
	steps := append([]Step(nil), thinking...)
	for _, part := range splitWords(firehoseText(), firehoseWordsPerChunk) {
		steps = append(steps, Delay(firehosePace), Text(part))
	}
	return Reply(append(steps, Usage(estimatePromptTokens(req), firehoseWords))...)
}

// firehoseText is firehoseWords words of prose with some Markdown
// (headings, emphasis, inline code, lists), built from a few paragraphs.
func firehoseText() string {
	paras := []string{
		"The river of tokens never stops. Each word arrives a millisecond after the last, and the interface must " +
			"keep up without ever making the person at the keyboard wait for their own typing to appear.",
		"A **responsive** composer is the whole point: the answer can be as fast as it likes, but keystrokes come " +
			"first. The renderer batches deltas once per `requestAnimationFrame` and leaves the rest of the frame free.",
		"- Markdown is parsed as it streams, so lists, *emphasis* and `code` appear as soon as they are complete.\n" +
			"- Long answers grow the transcript, and scrolling must follow without jank.\n" +
			"- Nothing typed may be lost, however busy the main thread is.",
		"Fast local models and hosted providers alike can stream a thousand tokens a second. At that rate a naive " +
			"store update per chunk costs more than a frame, and the page freezes until the answer is done.",
	}
	var b strings.Builder
	words := 0
	for section := 1; words < firehoseWords; section++ {
		head := fmt.Sprintf("### Section %d", section)
		b.WriteString(head + "\n\n")
		words += len(strings.Fields(head))
		for _, p := range paras {
			n := len(strings.Fields(p))
			if words+n > firehoseWords {
				// Trim the last paragraph to land exactly on the count.
				p = strings.Join(strings.Fields(p)[:firehoseWords-words], " ")
				n = firehoseWords - words
			}
			b.WriteString(p + "\n\n")
			if words += n; words >= firehoseWords {
				break
			}
		}
	}
	return strings.TrimSpace(b.String()) + "\n"
}

// answer streams thinking (if any), then text, then finish and usage.
func (d *demo) answer(req Request, thinking []Step, text string) Response {
	steps := append([]Step(nil), thinking...)
	steps = append(steps, d.paced(Text, text)...)
	return Reply(append(steps, Usage(estimatePromptTokens(req), countChunks(steps)))...)
}

// toolCall is one call of a demo reply.
type toolCall struct {
	name string
	args map[string]any
}

// tool streams thinking, a short preface and a tool call whose arguments
// arrive in a few fragments. If the request offers tools but not this one,
// it explains that instead.
func (d *demo) tool(req Request, thinking []Step, preface, name string, args map[string]any) Response {
	return d.tools(req, thinking, preface, toolCall{name, args})
}

// tools is [demo.tool] for several calls in one reply, streamed one after
// the other.
func (d *demo) tools(req Request, thinking []Step, preface string, calls ...toolCall) Response {
	for _, c := range calls {
		if len(req.Tools) > 0 && !req.HasTool(c.name) {
			return d.answer(req, thinking, fmt.Sprintf(
				"I would use the `%s` tool for that, but it is not enabled in this chat.", c.name))
		}
	}
	steps := append([]Step(nil), thinking...)
	steps = append(steps, d.paced(Text, preface)...)
	for i, c := range calls {
		enc, err := json.Marshal(c.args)
		if err != nil {
			panic(err) // the demo's own literals always encode
		}
		if d.pace > 0 {
			steps = append(steps, Delay(d.pace))
		}
		id := fmt.Sprintf("call_demo%04d", d.calls.Add(1))
		steps = append(steps, ToolCall(i, id, c.name, ""))
		for _, frag := range splitArgs(string(enc), 3) {
			if d.pace > 0 {
				steps = append(steps, Delay(d.pace/2))
			}
			steps = append(steps, ToolArgs(i, frag))
		}
	}
	return Reply(append(steps, Usage(estimatePromptTokens(req), countChunks(steps)))...)
}

func countChunks(steps []Step) int {
	n := 0
	for _, st := range steps {
		if st.kind == kindChunk {
			n += max(st.n, 1)
		}
	}
	return n
}

// splitArgs cuts s into about n fragments on rune boundaries.
func splitArgs(s string, n int) []string {
	r := []rune(s)
	size := (len(r) + n - 1) / n
	var out []string
	for len(r) > 0 {
		k := min(size, len(r))
		out = append(out, string(r[:k]))
		r = r[k:]
	}
	return out
}

// toolSummary answers a tool result by quoting its first line.
func (d *demo) toolSummary(req Request, result RequestMessage) string {
	name := result.Name
	for _, m := range req.Messages {
		for _, tc := range m.ToolCalls {
			if tc.ID == result.ToolCallID && tc.Name != "" {
				name = tc.Name
			}
		}
	}
	if name == "" {
		name = "tool"
	}
	out := strings.TrimSpace(result.Content)
	if out == "" {
		return fmt.Sprintf("The `%s` tool finished but returned no output.", name)
	}
	lines := strings.Split(out, "\n")
	first := strings.TrimSpace(lines[0])
	if r := []rune(first); len(r) > 200 {
		first = string(r[:200]) + "…"
	}
	if name == "ask_user" {
		return fmt.Sprintf("You answered:\n\n> %s\n\nThanks! I'll keep that in mind.", first)
	}
	more := "That was its only line of output."
	if len(lines) > 1 {
		more = fmt.Sprintf("That is the first of %d lines of output.", len(lines))
	}
	return fmt.Sprintf("The `%s` tool returned:\n\n> %s\n\n%s Anything else you want me to do with it?",
		name, first, more)
}

// numberedWords is "w001 w002 … wNNN": a stream whose every word says
// where it belongs, so a test sees any hole or repeat in what is shown.
func numberedWords(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "w%03d ", i)
	}
	return strings.TrimSpace(b.String())
}

// toolCommand reads "/tool <name> [JSON object]": the demo calls any tool
// the request offers (an MCP server's, say) with those arguments. args is
// nil when the arguments are not a JSON object.
func toolCommand(user string) (name string, args map[string]any, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(user), "/tool ")
	if !found {
		return "", nil, false
	}
	name, raw, _ := strings.Cut(strings.TrimSpace(rest), " ")
	raw = strings.TrimSpace(raw)
	if raw == "" {
		raw = "{}"
	}
	if json.Unmarshal([]byte(raw), &args) != nil || args == nil {
		return name, nil, true
	}
	return name, args, true
}

// lowerWords returns the set of lower-cased words of s.
func lowerWords(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		set[w] = true
	}
	return set
}

func isGreeting(words map[string]bool) bool {
	for _, g := range []string{"hi", "hello", "hey", "hallo", "hola", "bonjour", "greetings", "help"} {
		if words[g] {
			return true
		}
	}
	return false
}

// readTarget finds the file named after "read": the first following token
// that looks like a path, else the next token that is not a filler word,
// else README.md.
func readTarget(s string) string {
	fields := strings.Fields(s)
	clean := func(f string) string { return strings.Trim(f, "\"'`,;:!?()[]<>") }
	for i, f := range fields {
		if strings.ToLower(clean(f)) != "read" {
			continue
		}
		rest := fields[i+1:]
		for _, g := range rest {
			if g = clean(g); strings.ContainsAny(g, "./\\") && g != "." {
				return strings.TrimSuffix(g, ".")
			}
		}
		for _, g := range rest {
			switch g = clean(g); strings.ToLower(g) {
			case "", "the", "a", "an", "my", "this", "that", "file", "me", "please":
			default:
				return g
			}
		}
	}
	return "README.md"
}

// isTitleRequest reports whether a request asks for a title: its system
// (or developer) prompt says so, or, for a non-streaming request, a user
// message does. A streaming chat whose user happens to write "title" is a
// chat.
func isTitleRequest(req Request) bool {
	for _, m := range req.Messages {
		mentions := strings.Contains(strings.ToLower(m.Content), "title")
		switch m.Role {
		case "system", "developer":
			if mentions {
				return true
			}
		case "user":
			if mentions && !req.Stream {
				return true
			}
		}
	}
	return false
}

var titleStopWords = map[string]bool{
	"the": true, "and": true, "for": true, "you": true, "your": true, "can": true,
	"please": true, "with": true, "that": true, "this": true, "what": true,
	"about": true, "into": true, "from": true, "are": true, "was": true,
	"how": true, "me": true, "a": true, "an": true, "to": true, "of": true,
	"in": true, "on": true, "is": true, "it": true, "i": true, "my": true,
	"title": true, "user": true, "assistant": true, "conversation": true,
	"generate": true, "short": true, "words": true, "word": true,
	"do": true, "does": true, "did": true, "at": true, "be": true, "we": true,
	"should": true, "would": true, "could": true, "why": true, "when": true,
	"where": true, "which": true, "who": true, "some": true, "any": true,
	"give": true, "tell": true, "write": true, "make": true, "let": true,
}

// demoTitle makes a 3–5 word title from the user text the title request is
// about.
func demoTitle(req Request) string {
	text := ""
	for _, m := range req.Messages {
		if m.Role == "user" && !strings.Contains(strings.ToLower(m.Content), "title") {
			text = m.Content
		}
	}
	if text == "" {
		text = req.LastUser()
		// "Write a title for: <text>" or a transcript after the instruction.
		if i := strings.Index(text, "User:"); i >= 0 {
			text = text[i+len("User:"):]
		} else if i := strings.IndexAny(text, ":\n"); i >= 0 {
			text = text[i+1:]
		}
		if i := strings.Index(text, "\n"); i >= 0 && strings.TrimSpace(text[:i]) != "" {
			text = text[:i]
		}
	}
	var words []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if titleStopWords[strings.ToLower(w)] || len(w) < 2 {
			continue
		}
		r := []rune(strings.ToLower(w))
		r[0] = unicode.ToUpper(r[0])
		words = append(words, string(r))
		if len(words) == 4 {
			break
		}
	}
	switch len(words) {
	case 0:
		return "Offline Demo Chat"
	case 1:
		return words[0] + " Demo Chat"
	case 2:
		return strings.Join(words, " ") + " Chat"
	}
	return strings.Join(words, " ")
}

func demoReasoning(user string) string {
	topic := strings.Join(strings.Fields(user), " ")
	if r := []rune(topic); len(r) > 80 {
		topic = string(r[:80]) + "…"
	}
	return fmt.Sprintf("The user wrote \"%s\" and wants me to think first. "+
		"I am the offline demo model, so I cannot really reason, but I can show how "+
		"reasoning streams: these words arrive in the reasoning_content field, before "+
		"the answer. The app should show them in a collapsible block. "+
		"Now I will write the answer.", topic)
}

const demoGreeting = "Hello! 👋 I'm Juncture's **offline demo model**: no network, no API key, " +
	"just scripted answers so you can try the app.\n\n" +
	"Here is what you can ask me:\n\n" +
	"| Try saying | What happens |\n" +
	"|---|---|\n" +
	"| `write me a long essay` | about 600 words stream in (try **Stop**) |\n" +
	"| `think about it` | reasoning streams first, then the answer |\n" +
	"| `list files` | I call the `list_files` tool |\n" +
	"| `read go.mod` | I call `read_file` |\n" +
	"| `write a note` | I call `write_file` |\n" +
	"| `run something` | I call `run_command` |\n" +
	"| `ask me something` | I call `ask_user` |\n" +
	"| `copy this` | I call `copy_to_clipboard` |\n" +
	"| `open a website` | I call `open_url` |\n" +
	"| `batch` | two decisions at once: a file write and a question |\n" +
	"| `fill in a form` | `ask_user` with a form generated from a JSON Schema |\n" +
	"| `/tool <name> <JSON arguments>` | I call that tool (an MCP server's too) with those arguments |\n" +
	"| `show some math` | inline and display math (KaTeX) |\n" +
	"| `hostile diagram` | a Mermaid diagram that tries to run script (and does not) |\n" +
	"| `hostile` | Markdown that tries to smuggle HTML and links |\n" +
	"| `count` | 400 numbered words |\n" +
	"| `firehose` | thousands of tokens as fast as they can stream |\n" +
	"| `echo instructions` | the model and the instructions I was sent |\n" +
	"| `echo history` | the conversation I was sent, message by message |\n\n" +
	"Tool calls go through the normal approval flow, and I'll comment on each result. " +
	"Stop an answer, then **Continue**, and I go on where I stopped."

func demoDefault(user string) string {
	quote := strings.Join(strings.Fields(user), " ")
	if r := []rune(quote); len(r) > 120 {
		quote = string(r[:120]) + "…"
	}
	if quote == "" {
		quote = "(nothing)"
	}
	return "You said:\n\n> " + quote + "\n\n" +
		"I'm the **offline demo model**, so I don't really understand that, " +
		"but here is some Markdown to show how answers render.\n\n" +
		"```go\n" +
		"func greet(name string) string {\n" +
		"\treturn \"Hello, \" + name + \"!\"\n" +
		"}\n" +
		"```\n\n" +
		"| Feature | Status |\n" +
		"|---|---|\n" +
		"| Streaming | ✅ |\n" +
		"| Tool calls | ✅ |\n" +
		"| Reasoning | ✅ |\n\n" +
		"Say **hello** to see everything you can try."
}

// demoHostile is Markdown that tries every usual way to run script in the
// chat view; a safe renderer shows it as text or drops it.
const demoHostile = "Here is some **hostile Markdown**; none of it may run.\n\n" +
	"<img src=x onerror=\"window.__pwned=1\">\n\n" +
	"[click me](javascript:window.__pwned=1)\n\n" +
	"<script>window.__pwned=1</script>\n\n" +
	"<svg onload=\"window.__pwned=1\"><circle r=\"5\"/></svg>\n\n" +
	"<iframe src=\"javascript:window.parent.__pwned=1\"></iframe>\n\n" +
	"[data link](data:text/html;base64,PHNjcmlwdD53aW5kb3cub3BlbmVyLl9fcHduZWQ9MTwvc2NyaXB0Pg==)\n\n" +
	"<a href=\"javascript:window.__pwned=1\" onclick=\"window.__pwned=1\">raw anchor</a>\n\n" +
	"![image](javascript:window.__pwned=1)\n\n" +
	"<div onmouseover=\"window.__pwned=1\" style=\"position:fixed;inset:0\">hover</div>\n\n" +
	"End of the hostile sample."

// fence opens and closes the demos' code blocks (a raw string cannot hold backquotes).
const fence = "```"

// demoMath shows math in every delimiter style the chat renders, text that
// must not become math, and two diagrams: one that draws and one that does
// not parse (its source is shown instead).
const demoMath = `Here is some **math**, rendered with KaTeX.

Inline with dollars: a circle of radius $r$ has area $A = \pi r^2$. Prices such as $5 and $10 stay plain text.

Inline with parentheses: Euler's identity \(e^{i\pi} + 1 = 0\) links five constants.

Display with dollars:

$$
\int_0^1 x^2 \, dx = \frac{1}{3}
$$

Display with brackets:

\[
\sum_{n=1}^{\infty} \frac{1}{n^2} = \frac{\pi^2}{6}
\]

In code it stays code: ` + "`$x^2$`" + `.

A diagram:

` + fence + `mermaid
flowchart LR
  A[Question] --> B{Has math?}
  B -- yes --> C[KaTeX]
  B -- no --> D[Plain text]
  C --> E[Answer]
  D --> E
` + fence + `

And one that does not parse:

` + fence + `mermaid
graph TD; A-->
` + fence + `

End of the math sample.
`

// demoHostileDiagram is a Mermaid diagram that tries to run script; in
// strict mode none of it may run, link or load.
const demoHostileDiagram = "Here is a **hostile diagram**; none of it may run.\n\n" +
	fence + "mermaid\n" +
	"%%{init: {\"securityLevel\": \"loose\", \"themeCSS\": \"body { display: none }\"}}%%\n" +
	"flowchart TD\n" +
	"  A[\"<img src=x onerror=window.__pwned=1>\"] --> B[\"<script>window.__pwned=1</script>\"]\n" +
	"  B --> C[\"<a href='javascript:window.__pwned=1'>link</a>\"]\n" +
	"  click A call window.alert(1)\n" +
	"  click B href \"javascript:window.__pwned=1\"\n" +
	"  click C callback \"Tooltip\"\n" +
	fence + "\n\n" +
	"End of the hostile diagram."

// demoEssay is about 600 words, long enough to press Stop halfway.
const demoEssay = `## On Working Offline

Most software today assumes a connection. It loads its interface from a server, asks another server for permission to do its job, and sends a third server a note about what you did. When the network is fast and the servers are healthy, nobody notices. When the train enters a tunnel, everybody does.

An assistant that runs on your own machine changes the question. Instead of asking whether the network is up, it asks whether the work can be done with what is already here: your files, your tools, and a model that fits in memory. Surprisingly often, the answer is yes.

### What offline teaches

Building for the offline case forces a few good habits:

- **Be honest about latency.** A local model streams at its own pace, and the interface must stay responsive while it does. Tokens should appear as they arrive, and the Stop button must work at any moment.
- **Keep state local and durable.** If the app crashes halfway through an answer, the conversation should still be there when it restarts, with the partial answer marked as interrupted rather than lost.
- **Ask before acting.** Tools that touch files or run commands deserve a confirmation step, because a model that means well can still be wrong.
- **Degrade gracefully.** When a provider is unreachable, say so plainly, keep the draft, and offer to retry.

None of these habits are specific to offline software. They simply become impossible to ignore when the network is gone.

### A small experiment

Imagine two assistants answering the same question. The first sends every keystroke to a distant data centre and waits. The second runs a modest model on the laptop in front of you. The first is smarter, but the second answers while the first is still resolving a hostname. For many everyday tasks, such as renaming files, summarising a note or drafting an email, the second one wins, not because it is clever but because it is close.

| Task | Needs a large model? | Works offline? |
|---|---|---|
| Summarise a note | rarely | yes |
| Rename a batch of files | no | yes |
| Explain a stack trace | sometimes | usually |
| Research a new topic | often | no |

The table is not a verdict; it is a reminder that the right tool depends on the job. A good desktop assistant lets you pick the model per conversation and switch without ceremony.

### Streaming is a user interface

It is tempting to treat streaming as a transport detail, but it shapes how people read. Text that arrives word by word invites you to start reading early, to notice a wrong turn, and to press Stop before the model wastes a minute on it. That only works if stopping is instant and leaves a clean transcript behind: the words so far, a clear mark that the answer was cut short, and no half-finished tool call waiting in the dark.

` + "```text\nuser      > write me a long essay\nassistant > On Working Offline…\n[stopped by user]\n```" + `

### Closing thought

The best compliment for an offline assistant is that nobody notices it is offline. It starts quickly, answers steadily, asks before it touches anything important, and never loses your work. Those are old virtues of desktop software, and they are worth keeping as the models get better.

*This essay was streamed by Juncture's offline demo model, a few words at a time. Press **Stop** whenever you like; what you have read so far will stay in the conversation.*
`

package fakellm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Response is one scripted answer to one chat completions request.
//
// Steps are played in order. Build responses with [Reply] (which adds the
// finish chunk for you), with a literal Response{Steps: ...} (played verbatim,
// e.g. to end a stream without finish_reason), or with [HTTPError],
// [HeadersThenStall], [TokenStream] and [Bench].
type Response struct {
	Steps []Step

	status     int      // non-zero: plain HTTP error response
	body       string   // body of the HTTP error
	header     []string // key, value pairs for the HTTP error
	headerOnly bool     // HeadersThenStall
}

type stepKind uint8

const (
	kindChunk   stepKind = iota + 1 // a choices[0].delta chunk
	kindFinish                      // empty delta + finish_reason
	kindUsage                       // choices: [] + usage
	kindDelay                       // sleep
	kindStall                       // block until the client leaves
	kindCut                         // close the TCP connection
	kindDone                        // data: [DONE]
	kindBatch                       // change the flush policy
	kindRaw                         // data: <verbatim>
	kindComment                     // ": comment" line
)

type deltaKind uint8

const (
	deltaContent deltaKind = iota + 1
	deltaReasoningContent
	deltaReasoning
	deltaToolCall
	deltaToolArgs
)

// Step is one element of a scripted [Response]. Create steps with the
// constructors of this package; the zero Step is ignored.
type Step struct {
	kind  stepKind
	delta deltaKind
	text  string // content, reasoning, arguments, finish reason, raw data
	index int    // tool call index
	id    string // tool call id
	name  string // tool call function name
	n, m  int    // usage prompt/completion tokens, batch size, repeat count
	d     time.Duration
	enc   []byte // pre-encoded delta object or raw frame payload
}

// String describes the step, for test failure messages.
func (s Step) String() string {
	switch s.kind {
	case kindChunk:
		rep := ""
		if s.n > 1 {
			rep = fmt.Sprintf(" x%d", s.n)
		}
		return "chunk " + string(s.enc) + rep
	case kindFinish:
		return "finish " + s.text
	case kindUsage:
		return fmt.Sprintf("usage %d+%d", s.n, s.m)
	case kindDelay:
		return "delay " + s.d.String()
	case kindStall:
		return "stall"
	case kindCut:
		return "cut"
	case kindDone:
		return "done"
	case kindBatch:
		return "batch " + strconv.Itoa(s.n)
	case kindRaw:
		return "raw " + s.text
	case kindComment:
		return "comment " + s.text
	}
	return "noop"
}

// appendJSONString appends s as a JSON string literal. Unlike json.Marshal
// it does not escape <, > and &, matching what providers send.
func appendJSONString(dst []byte, s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(dst, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
}

func deltaStep(kind deltaKind, text string, enc []byte) Step {
	return Step{kind: kindChunk, delta: kind, text: text, enc: enc}
}

// Text is one chunk with delta.content.
func Text(s string) Step {
	b := []byte(`{"content":`)
	b = appendJSONString(b, s)
	return deltaStep(deltaContent, s, append(b, '}'))
}

// Words splits s into Text chunks of perChunk words each. Whitespace is kept
// (each chunk ends with the whitespace that follows its last word), so the
// chunks concatenate back to s exactly. perChunk < 1 means 1.
func Words(s string, perChunk int) []Step {
	parts := splitWords(s, perChunk)
	steps := make([]Step, len(parts))
	for i, p := range parts {
		steps[i] = Text(p)
	}
	return steps
}

// splitWords cuts s before every perChunk+1-th word, keeping whitespace.
func splitWords(s string, perChunk int) []string {
	if perChunk < 1 {
		perChunk = 1
	}
	var parts []string
	start, words := 0, 0
	inWord := false
	for i, r := range s {
		space := unicode.IsSpace(r)
		if !space && !inWord {
			if words == perChunk {
				parts = append(parts, s[start:i])
				start, words = i, 0
			}
			words++
		}
		inWord = !space
	}
	if start < len(s) {
		parts = append(parts, s[start:])
	}
	return parts
}

// Reasoning is one chunk with delta.reasoning_content, the field DeepSeek,
// vLLM and llama.cpp use (delta.content is null in that chunk).
func Reasoning(s string) Step {
	b := []byte(`{"content":null,"reasoning_content":`)
	b = appendJSONString(b, s)
	return deltaStep(deltaReasoningContent, s, append(b, '}'))
}

// ReasoningField is one chunk with delta.reasoning, the field OpenRouter and
// Ollama use (delta.content is "" in that chunk).
func ReasoningField(s string) Step {
	b := []byte(`{"content":"","reasoning":`)
	b = appendJSONString(b, s)
	return deltaStep(deltaReasoning, s, append(b, '}'))
}

// ToolCall is the first chunk of tool call number index: it carries the id,
// type "function", function.name and the first arguments fragment, which
// may be "" and continue with [ToolArgs].
func ToolCall(index int, id, name, args string) Step {
	b := []byte(`{"content":null,"tool_calls":[{"index":`)
	b = strconv.AppendInt(b, int64(index), 10)
	b = append(b, `,"id":`...)
	b = appendJSONString(b, id)
	b = append(b, `,"type":"function","function":{"name":`...)
	b = appendJSONString(b, name)
	b = append(b, `,"arguments":`...)
	b = appendJSONString(b, args)
	b = append(b, `}}]}`...)
	st := deltaStep(deltaToolCall, args, b)
	st.index, st.id, st.name = index, id, name
	return st
}

// ToolArgs is a later chunk of tool call number index: only the index and
// an arguments fragment.
func ToolArgs(index int, fragment string) Step {
	b := []byte(`{"tool_calls":[{"index":`)
	b = strconv.AppendInt(b, int64(index), 10)
	b = append(b, `,"function":{"arguments":`...)
	b = appendJSONString(b, fragment)
	b = append(b, `}}]}`...)
	st := deltaStep(deltaToolArgs, fragment, b)
	st.index = index
	return st
}

// Finish is the chunk with an empty delta and finish_reason set ("stop",
// "tool_calls", "length", "content_filter").
func Finish(reason string) Step {
	return Step{kind: kindFinish, text: reason, enc: []byte(`{}`)}
}

// Usage is the final usage chunk (`"choices":[]`). In a stream it is sent
// only if the request set stream_options.include_usage; a non-streaming
// response always reports usage (these numbers, or an estimate).
func Usage(prompt, completion int) Step {
	return Step{kind: kindUsage, n: prompt, m: completion}
}

// Delay flushes what was written so far and sleeps for d before the next
// step. It ends early, abandoning the response, if the client goes away.
func Delay(d time.Duration) Step { return Step{kind: kindDelay, d: d} }

// Stall flushes what was written so far, then blocks until the client goes
// away (request context done) or the server closes. Nothing after it is
// sent.
func Stall() Step { return Step{kind: kindStall} }

// Cut flushes what was written so far, then closes the TCP connection
// without ending the HTTP response: the client sees an unexpected EOF and
// no [DONE].
func Cut() Step { return Step{kind: kindCut} }

// Done sends `data: [DONE]`. It is added at the end of a stream
// automatically unless the script already has one or ends in Stall or Cut.
func Done() Step { return Step{kind: kindDone} }

// Batch changes how often the server flushes for the rest of the response:
// after every n chunks instead of after every chunk (n <= 1). Delays,
// stalls, cuts and the end of the response always flush.
func Batch(n int) Step {
	if n < 1 {
		n = 1
	}
	return Step{kind: kindBatch, n: n}
}

// Raw sends `data: <data>` verbatim, for frames no other step produces
// (a mid-stream `{"error":...}` event, a provider-specific chunk, invalid
// JSON).
func Raw(data string) Step {
	return Step{kind: kindRaw, text: data, enc: []byte(data)}
}

// Comment sends an SSE comment line (`: text`), like the keep-alives
// OpenRouter sends while a model is loading. Clients must ignore it.
func Comment(text string) Step {
	return Step{kind: kindComment, text: text, enc: []byte(text)}
}

// Repeat sends the chunk step st n times. It costs one Step however large n
// is, which keeps benchmark scripts small. Only chunk steps (Text,
// Reasoning, ReasoningField, ToolArgs, ...) repeat; other steps are returned
// unchanged.
func Repeat(st Step, n int) Step {
	if st.kind == kindChunk {
		st.n = n
	}
	return st
}

// Reply is a normal successful response: the steps followed by
// Finish("stop"), or Finish("tool_calls") if a ToolCall step is present.
// Nothing is added if the steps contain a Finish already. The finish chunk
// goes before any trailing Usage and Done steps.
func Reply(steps ...Step) Response {
	reason := "stop"
	for _, st := range steps {
		switch {
		case st.kind == kindFinish:
			return Response{Steps: steps}
		case st.kind == kindChunk && st.delta == deltaToolCall:
			reason = "tool_calls"
		}
	}
	at := len(steps)
	for at > 0 && (steps[at-1].kind == kindUsage || steps[at-1].kind == kindDone) {
		at--
	}
	out := make([]Step, 0, len(steps)+1)
	out = append(out, steps[:at]...)
	out = append(out, Finish(reason))
	out = append(out, steps[at:]...)
	return Response{Steps: out}
}

// HTTPError is a non-streaming error response with the given status, body
// and headers (key, value pairs), for example
//
//	HTTPError(429, `{"error":{"message":"Rate limit reached","type":"rate_limit"}}`, "Retry-After", "1")
//
// Unless the headers set it, the Content-Type is application/json when the
// body looks like JSON and text/plain otherwise. It panics on an odd number of header arguments.
func HTTPError(status int, body string, header ...string) Response {
	if len(header)%2 != 0 {
		panic("fakellm: HTTPError header arguments must be key, value pairs")
	}
	return Response{status: status, body: body, header: header}
}

// HeadersThenStall answers 200 with the SSE headers flushed, then sends no
// byte until the client goes away.
func HeadersThenStall() Response { return Response{headerOnly: true} }

// TokenStream streams n content chunks of token each, then finish "stop"
// and usage (n completion tokens). The server writes it from one
// pre-encoded frame; combine with [Batch] via WithSteps for fewer flushes.
func TokenStream(n int, token string) Response {
	return Response{Steps: []Step{Repeat(Text(token), n), Finish("stop"), Usage(10, n)}}
}

// Bench is TokenStream(tokens, " tok") flushed every 64 chunks: the
// cheapest stream the server can produce, for throughput benchmarks of the
// client side.
func Bench(tokens int) Response {
	return TokenStream(tokens, " tok").WithSteps(Batch(64))
}

// WithSteps returns a copy of r with steps inserted before its own steps.
// It is meant for prefix steps such as Batch or Delay.
func (r Response) WithSteps(prefix ...Step) Response {
	out := r
	out.Steps = append(append([]Step(nil), prefix...), r.Steps...)
	return out
}

// contentType picks the Content-Type for an HTTPError body.
func (r Response) contentType() string {
	t := strings.TrimSpace(r.body)
	if strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		return "application/json"
	}
	return "text/plain; charset=utf-8"
}

// errorBody is an OpenAI-style error object.
func errorBody(message, typ string) string {
	b := []byte(`{"error":{"message":`)
	b = appendJSONString(b, message)
	b = append(b, `,"type":`...)
	b = appendJSONString(b, typ)
	b = append(b, `,"param":null,"code":null}}`...)
	return string(b)
}

// noScript is the response when neither the queue nor a fallback answers.
var noScript = HTTPError(http.StatusInternalServerError,
	errorBody("fakellm: no scripted response", "server_error"))

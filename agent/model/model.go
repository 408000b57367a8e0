// Package model is the provider-neutral seam between the runtime and a
// language model: the request, the streamed deltas, the token usage, the
// endpoint error, and the Model interface a provider implements.
//
// It imports no provider SDK. The OpenAI-compatible client (OpenAI,
// Ollama, LM Studio, OpenRouter, Mistral, Groq, DeepSeek, llama.cpp,
// vLLM) is agent/model/openai; a native Anthropic or Gemini client, or an
// in-process runtime, implements [Model] beside it without importing that
// package.
//
// agent.Model is an alias of [Model] (type Model = model.Model), not a
// second interface: the runtime's options, the facade and some twenty
// tests name agent.Model, and an alias keeps every one of them unchanged
// while the seam itself lives here with its types, so there is one
// definition and no conversion between two identical interfaces.
//
// # Delta sequences
//
// [Model.Deltas] promises, whatever the provider:
//   - Deltas come in the endpoint's order, one per chunk that carried
//     something: text, reasoning, tool-call fragments, a finish reason or
//     usage. Chunks with none of these are skipped.
//   - At most one element has a non-nil error. It is the last one and its
//     Delta is zero. The error is ctx's error, unchanged, once ctx is
//     cancelled; otherwise an *EndpointError: 429 and 5xx are Retryable
//     (with RetryAfter), other statuses are not; network errors are
//     Retryable; an error reported inside the stream and a malformed chunk
//     are not; a stream cut before the answer was complete is Retryable
//     and Cut.
//   - A sequence without an error element is a complete answer.
//   - Tool-call fragments are keyed by Index. ID, Name and Arguments are
//     what each chunk sent, never joined: the consumer concatenates
//     Arguments and takes the first non-empty ID and Name (some servers
//     repeat the whole name in every fragment).
//   - Usage, when the endpoint reports it, is on a Delta with a non-nil
//     Usage; if several Deltas carry Usage, the last one counts. An
//     endpoint that sends none leaves it nil throughout.
//   - Breaking out of the loop, or cancelling ctx, closes the connection
//     before the range statement ends, also when the endpoint has stalled
//     mid-stream; no goroutine or connection is left behind.
//
// What each OpenAI-compatible server actually sends, and how its quirks
// map onto these promises, is in agent/model/openai's doc.
package model

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"time"

	"github.com/juncture-app/juncture/agent/history"
)

// Model is a language model a turn streams from. Deltas streams one
// completion: every element is a piece of the answer, in order; a failure
// is the last element (a *EndpointError says whether it may pass).
// Stopping the iteration early or cancelling ctx ends the request. See the
// package doc for what the sequence guarantees.
type Model interface {
	Deltas(ctx context.Context, req Request) iter.Seq2[Delta, error]
}

// ToolSpec is a function the model may call.
type ToolSpec struct {
	Name        string
	Description string
	Parameters  json.RawMessage
}

// Request is one model call.
type Request struct {
	System   string
	Messages []history.Message // already valid for the API (history.ForModel)
	Tools    []ToolSpec
	// MaxTokens caps the answer (0: the endpoint's default).
	MaxTokens int
}

// ToolCallDelta is a fragment of a streamed tool call, keyed by Index.
type ToolCallDelta struct {
	Index     int
	ID        string // set on the first fragment
	Name      string // set on the first fragment
	Arguments string
}

// Delta is what one chunk added.
type Delta struct {
	Text         string
	Reasoning    string
	ToolCalls    []ToolCallDelta
	FinishReason string
	// Usage is the endpoint's token count for the whole call, on the chunk
	// that reported it (nil on every other chunk).
	Usage *Usage
}

// Empty reports whether d carries nothing the runtime uses.
func (d *Delta) Empty() bool {
	return d.Text == "" && d.Reasoning == "" && len(d.ToolCalls) == 0 && d.FinishReason == "" && d.Usage == nil
}

// Usage is the token count an endpoint reports for one call. A count the
// endpoint did not send is 0.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
	TotalTokens      int
	ReasoningTokens  int // part of CompletionTokens
}

// EndpointError is a failure of the endpoint, with its own message.
type EndpointError struct {
	Status     int           // HTTP status, 0 for network errors
	Message    string        // the endpoint's message, or what went wrong
	RetryAfter time.Duration // from Retry-After, when given
	Retryable  bool
	Cut        bool // the stream ended early
}

func (e *EndpointError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("endpoint answered %d: %s", e.Status, e.Message)
	}
	return e.Message
}

// DefaultHTTPClient dials quickly and never times a whole stream out: the
// client every HTTP provider starts from (streams are long, but
// "connection refused" should be quick).
func DefaultHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = 0
	return &http.Client{Transport: t}
}

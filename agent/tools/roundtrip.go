package tools

import (
	"context"
	"encoding/json"
)

// NeedsInput is a call's answer when the tool needs the person before it
// can finish and keeps nothing open while it waits (MCP 2026-07-28's
// input_required result). The runtime stores the prompts as questions
// bound to the call together with State, ends the run, and once the
// person answered retries the call with a Retry in its context.
type NeedsInput struct {
	// Prompts are what to ask, by the tool's own key of each request.
	Prompts map[string]Prompt
	// State is the tool's own, opaque to the runtime (JSON); it comes
	// back in the Retry.
	State json.RawMessage
}

// Retry is what a retried call finds in its context (RetryOf).
type Retry struct {
	State   json.RawMessage  // NeedsInput.State of the previous round
	Replies map[string]Reply // by request key; a key without reply was dismissed
	Round   int              // rounds answered so far for this call (1 on the first retry)
}

type retryKey struct{}

// WithRetry returns a context that carries r to a tool's Run.
func WithRetry(ctx context.Context, r Retry) context.Context {
	return context.WithValue(ctx, retryKey{}, r)
}

// RetryOf returns the retry a call's Run is given, if it is one.
func RetryOf(ctx context.Context) (Retry, bool) {
	r, ok := ctx.Value(retryKey{}).(Retry)
	return r, ok
}

package openai

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/model"
)

// Regression tests for the stream quirks of real providers (issue 21,
// "Every real provider's stream"); the recorded transcripts of each are
// in testdata/streams (TestRecordedStreams).

// A hosted provider ends some streams with usage and [DONE] but never a
// finish_reason: that is a complete answer, not a cut one (it was stored
// as an error).
func TestDeltasDoneAfterUsageWithoutFinishReasonIsAStop(t *testing.T) {
	t.Parallel()
	text := `{"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}`
	c := testEndpoint(t, serveBody(frames(text, oaUsage, "[DONE]")))
	assertElements(t, collect(c.Deltas(context.Background(), hiReq)), []element{
		{d: model.Delta{Text: "a"}},
		{d: model.Delta{Usage: &model.Usage{PromptTokens: 19, CompletionTokens: 10, TotalTokens: 29}}},
	})
}

// Mistral's magistral models send delta.content as an array of parts:
// text parts are the answer, thinking parts its reasoning. It failed the
// whole answer as "malformed chunk".
func TestDeltasMistralContentParts(t *testing.T) {
	t.Parallel()
	head := `{"id":"6b4d1a1c","object":"chat.completion.chunk","created":1759000000,"model":"magistral-medium-2509","choices":[{"index":0,"delta":`
	c := testEndpoint(t, serveBody(frames(
		head+`{"role":"assistant","content":""},"finish_reason":null}]}`,
		head+`{"content":[{"type":"thinking","thinking":[{"type":"text","text":"Okay, "}]}]},"finish_reason":null}]}`,
		head+`{"content":[{"type":"thinking","thinking":[{"type":"text","text":"two."}]}]},"finish_reason":null}]}`,
		head+`{"content":[{"type":"text","text":"Two"}]},"finish_reason":null}]}`,
		head+`{"content":"."},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"total_tokens":30,"completion_tokens":21}}`,
		"[DONE]")))
	assertElements(t, collect(c.Deltas(context.Background(), hiReq)), []element{
		{d: model.Delta{Reasoning: "Okay, "}},
		{d: model.Delta{Reasoning: "two."}},
		{d: model.Delta{Text: "Two"}},
		{d: model.Delta{Text: ".", FinishReason: "stop", Usage: &model.Usage{PromptTokens: 9, CompletionTokens: 21, TotalTokens: 30}}},
	})
}

// OpenRouter may send reasoning only as delta.reasoning_details: text and
// summary details are the reasoning, encrypted ones carry nothing to show.
// It was lost.
func TestDeltasReasoningDetailsOnly(t *testing.T) {
	t.Parallel()
	head := `{"id":"gen-1","provider":"OpenAI","model":"openai/gpt-5","object":"chat.completion.chunk","created":1741000000,"choices":[{"index":0,"delta":{"role":"assistant","content":"",`
	c := testEndpoint(t, serveBody(frames(
		head+`"reasoning_details":[{"type":"reasoning.summary","summary":"**Plan**","format":"openai-responses-v1","index":0}]},"finish_reason":null}]}`,
		head+`"reasoning_details":[{"type":"reasoning.text","text":" then act","format":"unknown","index":0}]},"finish_reason":null}]}`,
		head+`"reasoning_details":[{"type":"reasoning.encrypted","data":"gAAAAABo","id":"rs_1","format":"openai-responses-v1","index":0}]},"finish_reason":null}]}`,
		`{"id":"gen-1","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}]}`,
		"[DONE]")))
	assertElements(t, collect(c.Deltas(context.Background(), hiReq)), []element{
		{d: model.Delta{Reasoning: "**Plan**"}},
		{d: model.Delta{Reasoning: " then act"}},
		{d: model.Delta{Text: "Hi", FinishReason: "stop"}},
	})
}

// A hostile endpoint can send one chunk of many small content parts (a
// frame may hold MaxFrameBytes). Joining them must cost memory in
// proportion to the chunk, not to the square of the parts' count.
func TestScanChunkManyPartsStayInBudget(t *testing.T) {
	const parts = 100_000
	var b strings.Builder
	b.WriteString(`{"choices":[{"delta":{"content":[`)
	for i := range parts {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"type":"text","text":"a"},{"type":"thinking","thinking":"b"}`)
	}
	b.WriteString(`],"reasoning_details":[`)
	for i := range parts {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"type":"reasoning.text","text":"c"}`)
	}
	b.WriteString(`]}}]}`)
	in := []byte(b.String())
	const budget = 64 << 20 // bytes allocated; the chunk is 10 MB
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d, ee, err := scanChunk(in)
	runtime.ReadMemStats(&after)
	if err != nil || ee != nil {
		t.Fatalf("scanChunk: %v %v", err, ee)
	}
	if len(d.Text) != parts || len(d.Reasoning) != parts {
		t.Fatalf("text %d bytes, reasoning %d, want %d each", len(d.Text), len(d.Reasoning), parts)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > budget {
		t.Fatalf("decoding a %d-byte chunk allocated %d bytes, budget %d", len(in), got, budget)
	}
}

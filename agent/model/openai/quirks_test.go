package openai

import (
	"context"
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

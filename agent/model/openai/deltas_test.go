package openai

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/model"
)

var hiReq = model.Request{Messages: []history.Message{{Role: history.RoleUser, Content: "hi"}}}

// testEndpoint serves handler on 127.0.0.1 and returns a client for it with
// its own transport, both shut down when the test ends.
func testEndpoint(t *testing.T, handler http.HandlerFunc) *Client {
	t.Helper()
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	return New(Config{BaseURL: srv.URL + "/v1", Model: "m", HTTPClient: &http.Client{Transport: tr}})
}

// sseFrames writes each payload as one flushed "data:" frame.
func sseFrames(w http.ResponseWriter, payloads ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, p := range payloads {
		fmt.Fprintf(w, "data: %s\n\n", p)
		w.(http.Flusher).Flush()
	}
}

// serveBody answers every call with the raw SSE body.
func serveBody(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(body))
	}
}

type element struct {
	d   model.Delta
	err error
}

func collect(seq func(func(model.Delta, error) bool)) []element {
	var out []element
	for d, err := range seq {
		out = append(out, element{d, err})
	}
	return out
}

func frames(payloads ...string) string {
	var sb strings.Builder
	for _, p := range payloads {
		sb.WriteString("data: " + p + "\n\n")
	}
	return sb.String()
}

func TestDeltasOpenAIStream(t *testing.T) {
	t.Parallel()
	var gotBody string
	c := testEndpoint(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		gotBody = string(b)
		serveBody(frames(oaFirst, oaText,
			oaHead+`"choices":[{"index":0,"delta":{"reasoning_content":"hmm"},"logprobs":null,"finish_reason":null}],"usage":null}`,
			oaTool, oaArgs,
			oaHead+`"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}],"usage":null}`,
			oaUsage, "[DONE]"))(w, r)
	})
	got := collect(c.Deltas(context.Background(), hiReq))
	want := []element{
		{d: model.Delta{Text: " tok"}},
		{d: model.Delta{Reasoning: "hmm"}},
		{d: model.Delta{ToolCalls: []model.ToolCallDelta{{ID: "call_DdmO9pD3xa9XTPNJ32zg2hcA", Name: "get_weather"}}}},
		{d: model.Delta{ToolCalls: []model.ToolCallDelta{{Arguments: `{"location":"Par`}}}},
		{d: model.Delta{FinishReason: "tool_calls"}},
		{d: model.Delta{Usage: &model.Usage{PromptTokens: 19, CompletionTokens: 10, TotalTokens: 29}}},
	}
	assertElements(t, got, want)
	if !strings.Contains(gotBody, `"stream_options":{"include_usage":true}`) || !strings.Contains(gotBody, `"stream":true`) {
		t.Fatalf("request body %s: want stream with include_usage", gotBody)
	}
}

// llama.cpp, Ollama and OpenRouter send the usage on the finish chunk.
func TestDeltasUsageOnFinishChunk(t *testing.T) {
	t.Parallel()
	c := testEndpoint(t, serveBody(frames(
		`{"choices":[{"finish_reason":null,"index":0,"delta":{"content":"Hello"}}],"created":1735000000,"id":"chatcmpl-Xq2","model":"m","object":"chat.completion.chunk"}`,
		`{"choices":[{"finish_reason":"stop","index":0,"delta":{}}],"created":1735000000,"id":"chatcmpl-Xq2","model":"m","object":"chat.completion.chunk","usage":{"completion_tokens":5,"prompt_tokens":10,"total_tokens":15},"timings":{"prompt_n":10,"prompt_ms":12.3}}`,
		"[DONE]")))
	assertElements(t, collect(c.Deltas(context.Background(), hiReq)), []element{
		{d: model.Delta{Text: "Hello"}},
		{d: model.Delta{FinishReason: "stop", Usage: &model.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}}},
	})
}

// Some servers repeat the whole name in every fragment of a call. The
// decoder passes each fragment's name on as sent, never concatenated: the
// consumer takes the first non-empty one.
func TestDeltasRepeatedToolName(t *testing.T) {
	t.Parallel()
	frag := func(args string) string {
		return `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":` + args + `}}]},"finish_reason":null}]}`
	}
	c := testEndpoint(t, serveBody(frames(frag(`""`), frag(`"{\"city\""`), frag(`":\"Paris\"}"`),
		`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`, "[DONE]")))
	var name, args string
	n := 0
	for d, err := range c.Deltas(context.Background(), hiReq) {
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range d.ToolCalls {
			n++
			if tc.Name != "get_weather" || tc.Index != 0 || tc.ID != "call_1" {
				t.Fatalf("fragment %d: %+v, want the name as sent", n, tc)
			}
			if name == "" {
				name = tc.Name
			}
			args += tc.Arguments
		}
	}
	if n != 3 || name != "get_weather" || args != `{"city":"Paris"}` {
		t.Fatalf("%d fragments, name %q, arguments %q", n, name, args)
	}
}

func TestDeltasErrors(t *testing.T) {
	t.Parallel()
	text := `{"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}`
	stop := `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`
	cases := []struct {
		name    string
		handler http.HandlerFunc
		texts   int // deltas before the error
		want    model.EndpointError
	}{
		{"500", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"error":{"message":"boom","type":"server_error"}}`, 500)
		}, 0, model.EndpointError{Status: 500, Message: "boom", Retryable: true}},
		{"429 with Retry-After", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "2")
			http.Error(w, `{"error":{"message":"slow down"}}`, http.StatusTooManyRequests)
		}, 0, model.EndpointError{Status: 429, Message: "slow down", Retryable: true, RetryAfter: 2 * time.Second}},
		{"400", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"error":{"message":"bad model"}}`, 400)
		}, 0, model.EndpointError{Status: 400, Message: "bad model"}},
		{"openrouter mid-stream error", serveBody(frames(text,
			`{"id":"cmpl-abc123","object":"chat.completion.chunk","created":1234567890,"model":"gpt-3.5-turbo","provider":"openai","error":{"code":"server_error","message":"Provider disconnected unexpectedly"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}`)),
			1, model.EndpointError{Message: "Provider disconnected unexpectedly"}},
		{"malformed chunk", serveBody(frames(text, `{"choices":[`)), 1,
			model.EndpointError{Message: "the endpoint sent a malformed chunk: unexpected end of JSON input"}},
		{"ends without finish_reason or [DONE]", serveBody(frames(text)), 1,
			model.EndpointError{Message: "the endpoint closed the stream before the answer was complete", Retryable: true, Cut: true}},
		{"[DONE] without finish_reason", serveBody(frames(text, "[DONE]")), 1,
			model.EndpointError{Message: "the endpoint closed the stream before the answer was complete", Retryable: true, Cut: true}},
		{"usage but no finish_reason", serveBody(frames(text, oaUsage, "[DONE]")), 2,
			model.EndpointError{Message: "the endpoint closed the stream before the answer was complete", Retryable: true, Cut: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := collect(testEndpoint(t, tc.handler).Deltas(context.Background(), hiReq))
			if len(got) != tc.texts+1 {
				t.Fatalf("%d elements %+v, want %d deltas and an error", len(got), got, tc.texts)
			}
			for _, e := range got[:tc.texts] {
				if e.err != nil {
					t.Fatalf("error %v before the last element", e.err)
				}
			}
			last := got[tc.texts]
			if !reflect.DeepEqual(last.d, model.Delta{}) {
				t.Fatalf("error element carries %+v", last.d)
			}
			var ee *model.EndpointError
			if !errors.As(last.err, &ee) {
				t.Fatalf("last element: %v (%T), want *model.EndpointError", last.err, last.err)
			}
			if *ee != tc.want {
				t.Fatalf("error %+v, want %+v", *ee, tc.want)
			}
		})
	}
	t.Run("finish_reason then end of body is complete", func(t *testing.T) {
		t.Parallel()
		got := collect(testEndpoint(t, serveBody(frames(text, stop))).Deltas(context.Background(), hiReq))
		assertElements(t, got, []element{{d: model.Delta{Text: "a"}}, {d: model.Delta{FinishReason: "stop"}}})
	})
	t.Run("connection refused", func(t *testing.T) {
		t.Parallel()
		srv := httptest.NewServer(http.NotFoundHandler())
		url := srv.URL
		srv.Close()
		tr := http.DefaultTransport.(*http.Transport).Clone()
		defer tr.CloseIdleConnections()
		c := New(Config{BaseURL: url + "/v1", Model: "m", HTTPClient: &http.Client{Transport: tr}})
		got := collect(c.Deltas(context.Background(), hiReq))
		var ee *model.EndpointError
		if len(got) != 1 || !errors.As(got[0].err, &ee) || !ee.Retryable || !strings.Contains(ee.Message, "connection refused") {
			t.Fatalf("got %+v, want one retryable connection-refused error", got)
		}
	})
}

// stallingEndpoint sends first and then nothing, holding the response open
// until the client goes away; gone is closed when the server sees that.
func stallingEndpoint(t *testing.T, first ...string) (*Client, chan struct{}) {
	gone := make(chan struct{})
	c := testEndpoint(t, func(w http.ResponseWriter, r *http.Request) {
		sseFrames(w, first...)
		select {
		case <-r.Context().Done():
			close(gone)
		case <-time.After(20 * time.Second):
		}
	})
	return c, gone
}

func waitGone(t *testing.T, gone chan struct{}) {
	t.Helper()
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the server still holds the connection: the response body was not closed")
	}
}

func TestDeltasBreakClosesBody(t *testing.T) {
	t.Parallel()
	c, gone := stallingEndpoint(t, oaText, oaText)
	n := 0
	for d, err := range c.Deltas(context.Background(), hiReq) {
		if err != nil || d.Text != " tok" {
			t.Fatalf("%+v %v", d, err)
		}
		n++
		break
	}
	if n != 1 {
		t.Fatalf("%d deltas", n)
	}
	waitGone(t, gone)
}

func TestDeltasCancelStalled(t *testing.T) {
	t.Parallel()
	c, gone := stallingEndpoint(t, oaText)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got []element
	start := time.Now()
	for d, err := range c.Deltas(ctx, hiReq) {
		got = append(got, element{d, err})
		if err == nil {
			time.AfterFunc(20*time.Millisecond, cancel) // while the endpoint sends nothing
		}
	}
	if len(got) != 2 || got[0].d.Text != " tok" || !errors.Is(got[1].err, context.Canceled) {
		t.Fatalf("got %+v, want a delta then context.Canceled", got)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("cancel took %v", d)
	}
	waitGone(t, gone)
}

// Cancelling stops the sequence even while chunks are still buffered.
func TestDeltasCancelBuffered(t *testing.T) {
	t.Parallel()
	payloads := make([]string, 200)
	for i := range payloads {
		payloads[i] = oaText
	}
	c, gone := stallingEndpoint(t, strings.Join(payloads, "\n\ndata: "))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got []element
	for d, err := range c.Deltas(ctx, hiReq) {
		got = append(got, element{d, err})
		cancel()
	}
	if len(got) != 2 || !errors.Is(got[1].err, context.Canceled) {
		t.Fatalf("got %d elements (last %+v), want a delta then context.Canceled", len(got), got[len(got)-1])
	}
	waitGone(t, gone)
}

func TestDeltasCancelledBeforeStart(t *testing.T) {
	t.Parallel()
	c := testEndpoint(t, serveBody(frames(oaText, "[DONE]")))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := collect(c.Deltas(ctx, hiReq))
	if len(got) != 1 || !errors.Is(got[0].err, context.Canceled) {
		t.Fatalf("got %+v, want only context.Canceled", got)
	}
}

// The Stream API and Deltas are one decoding path: the same elements.
func TestStreamMatchesDeltas(t *testing.T) {
	t.Parallel()
	body := frames(oaFirst, oaText, oaTool, oaArgs, `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`, oaUsage, "[DONE]")
	c := testEndpoint(t, serveBody(body))
	want := collect(c.Deltas(context.Background(), hiReq))
	s := c.Stream(context.Background(), hiReq)
	defer s.Close()
	var got []element
	for s.Next() {
		got = append(got, element{d: s.Current()})
	}
	if err := s.Err(); err != nil {
		got = append(got, element{err: err})
	}
	assertElements(t, got, want)
	if len(want) != 5 || want[4].d.Usage == nil {
		t.Fatalf("deltas %+v", want)
	}
}

func assertElements(t *testing.T, got, want []element) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d elements, want %d:\n%s", len(got), len(want), fmtElements(got))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i].d, want[i].d) || (got[i].err == nil) != (want[i].err == nil) {
			t.Fatalf("element %d:\n got %s %v\nwant %s %v", i, fmtDelta(got[i].d), got[i].err, fmtDelta(want[i].d), want[i].err)
		}
	}
}

func fmtElements(es []element) string {
	var sb strings.Builder
	for _, e := range es {
		fmt.Fprintf(&sb, "  %s %v\n", fmtDelta(e.d), e.err)
	}
	return sb.String()
}

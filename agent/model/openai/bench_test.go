package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/juncture-app/juncture/agent/model"
)

// Chunk shapes for the benchmarks, as servers send them.
var benchShapes = []struct{ name, in string }{
	{"text", oaText},
	{"tool-args", oaArgs},
	{"reasoning", `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1718000000,"model":"deepseek-ai/DeepSeek-R1","choices":[{"index":0,"delta":{"reasoning_content":" think"},"logprobs":null,"finish_reason":null,"stop_reason":null}]}`},
	{"usage", oaUsage},
}

type decodeFunc = func([]byte) (model.Delta, *model.EndpointError, error)

// BenchmarkDecodeChunk measures one chunk's decoding by each candidate:
// scan (the hand-written scanner), json (encoding/json into chunk) and
// openai (what openai-go's own stream does per event: a gjson look-up of
// "error", then json.Unmarshal into openai.ChatCompletionChunk).
func BenchmarkDecodeChunk(b *testing.B) {
	impls := []struct {
		name string
		fn   func(b *testing.B, data []byte)
	}{
		{"scan", loopDecode(scanChunk)},
		{"json", loopDecode(decodeChunk)},
		{"openai", func(b *testing.B, data []byte) {
			s := ssestream.NewStream[openai.ChatCompletionChunk](&repeatDecoder{evt: ssestream.Event{Data: data}}, nil)
			for b.Loop() {
				if !s.Next() {
					b.Fatal(s.Err())
				}
				c := s.Current()
				_ = deltaFromOpenAI(&c)
			}
		}},
	}
	for _, impl := range impls {
		for _, sh := range benchShapes {
			data := []byte(sh.in)
			b.Run(impl.name+"/"+sh.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(data)))
				impl.fn(b, data)
			})
		}
	}
}

func loopDecode(fn decodeFunc) func(*testing.B, []byte) {
	return func(b *testing.B, data []byte) {
		for b.Loop() {
			if _, _, err := fn(data); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// repeatDecoder is an SSE decoder that yields the same event forever.
type repeatDecoder struct{ evt ssestream.Event }

func (d *repeatDecoder) Event() ssestream.Event { return d.evt }
func (d *repeatDecoder) Next() bool             { return true }
func (d *repeatDecoder) Close() error           { return nil }
func (d *repeatDecoder) Err() error             { return nil }

// deltaFromOpenAI is decodeChunk's work done on openai-go's chunk type.
func deltaFromOpenAI(c *openai.ChatCompletionChunk) model.Delta {
	var d model.Delta
	if c.JSON.Usage.Valid() {
		d.Usage = &model.Usage{PromptTokens: int(c.Usage.PromptTokens), CompletionTokens: int(c.Usage.CompletionTokens),
			TotalTokens: int(c.Usage.TotalTokens), ReasoningTokens: int(c.Usage.CompletionTokensDetails.ReasoningTokens)}
	}
	if len(c.Choices) == 0 {
		return d
	}
	ch := &c.Choices[0]
	d.Text, d.FinishReason = ch.Delta.Content, ch.FinishReason
	for _, k := range []string{"reasoning_content", "reasoning"} {
		if f, ok := ch.Delta.JSON.ExtraFields[k]; ok && d.Reasoning == "" {
			_ = json.Unmarshal([]byte(f.Raw()), &d.Reasoning)
		}
	}
	for _, tc := range ch.Delta.ToolCalls {
		d.ToolCalls = append(d.ToolCalls, model.ToolCallDelta{Index: int(tc.Index), ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return d
}

const streamTokens = 20000

// streamBody is a whole OpenAI-shaped answer of n text tokens.
func streamBody(n int) []byte {
	var sb strings.Builder
	frame := func(s string) { sb.WriteString("data: "); sb.WriteString(s); sb.WriteString("\n\n") }
	frame(oaFirst)
	for i := range n {
		frame(oaHead + fmt.Sprintf(`"choices":[{"index":0,"delta":{"content":" tok%d"},"logprobs":null,"finish_reason":null}],"usage":null}`, i%1000))
	}
	frame(oaHead + `"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null}`)
	frame(oaUsage)
	sb.WriteString("data: [DONE]\n\n")
	return []byte(sb.String())
}

// BenchmarkStream runs a 20,000-token answer from an httptest server on
// 127.0.0.1 through Client.Deltas with each decoder (openai: openai-go's
// own NewStreaming, ssestream and ChatCompletionChunk), and reports the
// cost per token.
func BenchmarkStream(b *testing.B) {
	body := streamBody(streamTokens)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	hc := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	defer hc.Transport.(*http.Transport).CloseIdleConnections()
	cfg := Config{BaseURL: srv.URL + "/v1", Model: "m", HTTPClient: hc}
	req := model.Request{Messages: nil}

	run := func(b *testing.B, count func() (int, error)) {
		b.ReportAllocs()
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			n, err := count()
			if err != nil {
				b.Fatal(err)
			}
			if n != streamTokens {
				b.Fatalf("%d tokens, want %d", n, streamTokens)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/streamTokens, "ns/token")
	}
	deltas := func(c *Client) func() (int, error) {
		return func() (int, error) {
			n := 0
			for d, err := range c.Deltas(context.Background(), req) {
				if err != nil {
					return n, err
				}
				if d.Text != "" {
					n++
				}
			}
			return n, nil
		}
	}
	b.Run("scan", func(b *testing.B) { run(b, deltas(New(cfg))) })
	b.Run("json", func(b *testing.B) {
		c := New(cfg)
		c.decode = decodeChunk
		run(b, deltas(c))
	})
	b.Run("openai", func(b *testing.B) {
		c := New(cfg)
		run(b, func() (int, error) {
			params := c.params(req)
			params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
			s := c.api.stream(context.Background(), params)
			defer s.Close()
			n := 0
			for s.Next() {
				c := s.Current()
				if d := deltaFromOpenAI(&c); d.Text != "" {
					n++
				}
			}
			return n, s.Err()
		})
	})
}

package fakellm

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

const benchTokens = 20000

// BenchmarkStream measures tokens per second through the real openai-go
// client, read with stream.Next(): one token (" tok") per chunk, flushed
// per chunk or every 64 chunks, and eight tokens per chunk. Client-side
// JSON decoding dominates, so tokens per chunk matters far more than the
// flush policy.
func BenchmarkStream(b *testing.B) {
	for _, bc := range []struct {
		name string
		resp Response
	}{
		{"flush-each", TokenStream(benchTokens, " tok")},
		{"batch64", Bench(benchTokens)},
		{"batch64-8-per-chunk", TokenStream(benchTokens/8, strings.Repeat(" tok", 8)).WithSteps(Batch(64))},
	} {
		b.Run(bc.name, func(b *testing.B) {
			srv := Start(b)
			srv.SetFallback(func(Request) Response { return bc.resp })
			c := newClient(srv)
			p := withUsage(userParams("bench"))
			tokens := 0
			start := time.Now()
			for b.Loop() {
				stream := c.Chat.Completions.NewStreaming(b.Context(), p)
				for stream.Next() {
					if ch := stream.Current(); len(ch.Choices) > 0 {
						tokens += strings.Count(ch.Choices[0].Delta.Content, "tok")
					}
				}
				if err := stream.Err(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(tokens)/time.Since(start).Seconds(), "tokens/s")
		})
	}
}

// BenchmarkServerOnly measures what the server can write when the client
// does not parse: raw SSE bytes discarded.
func BenchmarkServerOnly(b *testing.B) {
	for _, bc := range []struct {
		name string
		resp Response
	}{
		{"flush-each", TokenStream(benchTokens, " tok")},
		{"batch64", Bench(benchTokens)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			srv := Start(b)
			srv.SetFallback(func(Request) Response { return bc.resp })
			body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"bench"}]}`
			start := time.Now()
			n := 0
			for b.Loop() {
				res, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				m, err := io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(m)
				n++
			}
			b.ReportMetric(float64(n*benchTokens)/time.Since(start).Seconds(), "tokens/s")
		})
	}
}

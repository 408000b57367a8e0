package openai

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestSSEReaderFraming(t *testing.T) {
	t.Parallel()
	chunk := func(text string) string {
		return `{"choices":[{"index":0,"delta":{"content":"` + text + `"},"finish_reason":null}]}`
	}
	cases := []struct {
		name, body string
		want       []string // texts, then "!" + error substring, or "." for a clean end
	}{
		{"lf frames", "data: " + chunk("a") + "\n\ndata: " + chunk("b") + "\n\ndata: [DONE]\n\n", []string{"a", "b", "."}},
		{"crlf frames", "data: " + chunk("a") + "\r\n\r\ndata: [DONE]\r\n\r\n", []string{"a", "."}},
		{"comments, event and id lines", ": keepalive\n\nevent: message\nid: 1\ndata: " + chunk("x") + "\n\n", []string{"x", "."}},
		{"no space after data:", "data:" + chunk("y") + "\n\n", []string{"y", "."}},
		{"unterminated last frame", "data: " + chunk("z"), []string{"z", "."}},
		{"mid-stream error event", "data: " + chunk("a") + "\n\ndata: {\"error\":{\"message\":\"overloaded\"}}\n\n", []string{"a", "!overloaded"}},
		{"malformed chunk", "data: {not json\n\n", []string{"!malformed"}},
		{"reasoning fields", `data: {"choices":[{"delta":{"reasoning_content":"r1"}}]}` + "\n\n" + `data: {"choices":[{"delta":{"reasoning":"r2"}}]}` + "\n\n", []string{"~r1", "~r2", "."}},
		{"long line", "data: " + chunk(strings.Repeat("w", 200000)) + "\n\n", []string{strings.Repeat("w", 200000), "."}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := &Stream{sse: newSSEReader(&http.Response{Body: io.NopCloser(strings.NewReader(tc.body))})}
			var got []string
			for s.Next() {
				d := s.Current()
				if d.Reasoning != "" {
					got = append(got, "~"+d.Reasoning)
				} else {
					got = append(got, d.Text)
				}
			}
			if s.err != nil {
				got = append(got, "!"+s.err.Error())
			} else {
				got = append(got, ".")
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d items %q, want %q", len(got), short(got), short(tc.want))
			}
			for i := range got {
				w := tc.want[i]
				if strings.HasPrefix(w, "!") {
					if !strings.Contains(got[i], w[1:]) {
						t.Fatalf("item %d: %q, want error with %q", i, got[i], w[1:])
					}
					continue
				}
				if got[i] != w {
					t.Fatalf("item %d: %q, want %q", i, short([]string{got[i]}), short([]string{w}))
				}
			}
		})
	}
}

func short(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		if len(v) > 40 {
			v = v[:40] + "…"
		}
		out[i] = v
	}
	return out
}

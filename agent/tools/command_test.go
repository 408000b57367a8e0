package tools

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCapBuffer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		input  string
		chunks []int // write sizes, cycled
		limit  int
		want   string
	}{
		{"under the cap", "hello world", []int{3}, 64, "hello world"},
		{"exactly the cap", "0123456789", []int{1}, 10, "0123456789"},
		{"head and tail", "0123456789abcdefghij", []int{7}, 10, "01234\n… 10 bytes omitted …\nfghij"},
		{"one big write", "0123456789abcdefghij", []int{20}, 10, "01234\n… 10 bytes omitted …\nfghij"},
		{"byte by byte", "0123456789abcdefghij", []int{1}, 10, "01234\n… 10 bytes omitted …\nfghij"},
		// "é" is two bytes: the cut never leaves half a rune on either side.
		{"whole runes at the edges", "aaaaéXXXXXXXXXXéb", []int{2}, 12, "aaaaé\n… 7 bytes omitted …\nXXXéb"},
		{"rune split at the head's end", "aaaaaéXXXXXXXXXXXXbbbbbb", []int{5}, 12, "aaaaa\n… 14 bytes omitted …\nbbbbbb"},
		{"rune split at the tail's start", "aaaaaaXXXXXXXXXXébbbbb", []int{3}, 12, "aaaaaa\n… 12 bytes omitted …\nbbbbb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := &capBuffer{limit: tc.limit}
			in := []byte(tc.input)
			for i := 0; len(in) > 0; i++ {
				n := min(tc.chunks[i%len(tc.chunks)], len(in))
				if k, err := c.Write(in[:n]); k != n || err != nil {
					t.Fatalf("Write = %d, %v", k, err)
				}
				in = in[n:]
			}
			got := c.String()
			if got != tc.want {
				t.Errorf("String = %q, want %q", got, tc.want)
			}
			if !utf8.ValidString(got) {
				t.Error("invalid UTF-8")
			}
		})
	}
}

func TestCapBufferCountsEverything(t *testing.T) {
	t.Parallel()
	c := &capBuffer{limit: MaxCommandOutput}
	total := 0
	for i := range 10000 {
		line := fmt.Sprintf("line %d\n", i)
		total += len(line)
		_, _ = c.Write([]byte(line))
	}
	got := c.String()
	if !strings.HasPrefix(got, "line 0\n") || !strings.HasSuffix(got, "line 9999\n") {
		t.Errorf("head or tail lost: %.40q … %q", got, got[len(got)-40:])
	}
	kept := len(got) - len(fmt.Sprintf("\n… %d bytes omitted …\n", total-MaxCommandOutput))
	if kept != MaxCommandOutput {
		t.Errorf("kept %d bytes, want %d", kept, MaxCommandOutput)
	}
}

package importers

import "testing"

// TestClaudeKeepsLineBreaks: a line break inside a Claude text block stays
// a line break once rendered as Markdown (issue 22 item 27).
func TestClaudeKeepsLineBreaks(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"poem", "over the path —\nwind counts every one.", "over the path —  \nwind counts every one."},
		{"paragraphs", "one\n\ntwo", "one\n\ntwo"},
		{"already hard", "a  \nb\\\nc", "a  \nb\\\nc"},
		{"fenced code", "see:\n```go\nx := 1\ny := 2\n```\ndone", "see:  \n```go\nx := 1\ny := 2\n```\ndone"},
		{"tilde fence", "~~~\na\nb\n~~~", "~~~\na\nb\n~~~"},
		{"one line", "hello", "hello"},
		{"trailing newline", "a\nb\n", "a  \nb\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hardBreaks(tt.in); got != tt.want {
				t.Errorf("hardBreaks(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

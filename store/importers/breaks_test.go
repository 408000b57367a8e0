package importers

import (
	"strings"
	"testing"
)

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

// TestClaudeHardBreaksKeepCodeAndBudget: the line-break change leaves
// every code block as it was (a fence closed only by a fence as long, of
// the same character, with nothing after it; indented code), keeps a
// Windows line end a line end, and never makes an answer larger than
// MaxMessageBytes: one that would grow past it is imported as written.
func TestClaudeHardBreaksKeepCodeAndBudget(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"longer fence", "````\n```\nx\ny\n````\nz", "````\n```\nx\ny\n````\nz"},
		{"closing fence with text", "```\n``` not a close\nx\ny\n```", "```\n``` not a close\nx\ny\n```"},
		{"indented code", "see:\n\n    a := 1\n    b := 2\n\nend", "see:\n\n    a := 1\n    b := 2\n\nend"},
		{"windows line ends", "a\r\nb", "a  \r\nb"},
	}
	for _, tt := range tests {
		if got := hardBreaks(tt.in); got != tt.want {
			t.Errorf("%s: hardBreaks(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
	answer := strings.Repeat(`a\n`, (MaxMessageBytes-16)/2) // just under the limit once decoded
	data := `[{"uuid":"c","name":"t","chat_messages":[
 {"uuid":"1","sender":"human","text":"q","parent_message_uuid":"00000000-0000-4000-8000-000000000000"},
 {"uuid":"2","sender":"assistant","text":"` + answer + `","parent_message_uuid":"1"}]}]`
	convs, err := ParseClaude([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range convs[0].Messages {
		if len(m.Content) > MaxMessageBytes {
			t.Errorf("message %s is %d bytes after the line-break change, over MaxMessageBytes (%d)", m.ID, len(m.Content), MaxMessageBytes)
		}
	}
}

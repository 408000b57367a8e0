package mcp

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The budgets of what a server offers, against hostile answers.

func TestListPagesStops(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		page      func(cursor string) (int, string)
		truncated bool
		maxCalls  int
	}{
		{"one page", func(string) (int, string) { return 3, "" }, false, 1},
		{"a cursor that loops", func(string) (int, string) { return 1, "same" }, true, 2},
		{"endless new cursors", func(c string) (int, string) { return 1, c + "x" }, true, maxListPages},
		{"a flood of items", func(c string) (int, string) { return maxListItems, c + "x" }, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			truncated, err := listPages(context.Background(), func(_ context.Context, cursor string) (int, string, error) {
				calls++
				n, next := tt.page(cursor)
				return n, next, nil
			})
			if err != nil || truncated != tt.truncated || calls > tt.maxCalls {
				t.Errorf("truncated %v, %d calls, %v", truncated, calls, err)
			}
		})
	}
}

func TestCompletionCapped(t *testing.T) {
	t.Parallel()
	values := make([]string, 5000)
	for i := range values {
		values[i] = strconv.Itoa(i)
	}
	values[3] = strings.Repeat("x", maxCompletionText+1)
	c := capCompletion(sdk.CompletionResultDetails{Values: values, Total: -4})
	if len(c.Values) != maxCompletionValues || !c.Cut || c.Total != 0 || c.Values[3] != "4" {
		t.Errorf("%d values, cut %v, total %d, [3] %q", len(c.Values), c.Cut, c.Total, c.Values[3])
	}
	if c := capCompletion(sdk.CompletionResultDetails{Values: []string{"a"}, HasMore: true, Total: 9}); c.Cut || !c.HasMore || c.Total != 9 {
		t.Errorf("%+v", c)
	}
}

func TestPromptTextCapped(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("é", maxPromptText) // 2 bytes a rune: twice the cap
	msgs := []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: big}}}
	for i := 0; i < maxPromptFiles+2; i++ {
		msgs = append(msgs, &sdk.PromptMessage{Role: "user", Content: &sdk.ImageContent{MIMEType: "image/png", Data: []byte("png")}})
	}
	msgs = append(msgs, &sdk.PromptMessage{Role: "assistant", Content: &sdk.TextContent{Text: "hi"}},
		&sdk.PromptMessage{Role: "user", Content: &sdk.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF")}}, nil)
	got := promptText(&sdk.GetPromptResult{Messages: msgs}, 1<<20)
	if len(got.Text) > maxPromptText || !strings.HasPrefix(got.Text, "éé") || strings.ContainsRune(got.Text, '\uFFFD') {
		t.Errorf("text of %d bytes", len(got.Text))
	}
	if len(got.Files) != maxPromptFiles || got.Files[0].Name != "prompt-image-2.png" {
		t.Errorf("%d files, first %+v", len(got.Files), got.Files[0])
	}
	notes := strings.Join(got.Notes, "\n")
	mustContain(t, notes, "at most 10 files", "audio cannot be sent", "The prompt's text was cut at 256.0 KB (it was 512.0 KB).")
}

func TestResourceFileNames(t *testing.T) {
	t.Parallel()
	tests := []struct{ uri, name, mime, want string }{
		{"demo://resource/static/document/features.md", "", "text/markdown", "features.md"},
		{"demo://resource/dynamic/text/1", "", "text/plain", "1.txt"},
		{"file:///etc/passwd", "../../etc/passwd", "", ".._.._etc_passwd"},
		{"urn:isbn:123", "", "application/json", "isbn:123.json"},
		{"demo://x/", "", "", "resource"},
		{"", "", "", "resource"},
	}
	for _, tt := range tests {
		if got := resourceFileName(tt.uri, tt.name, tt.mime); got != tt.want {
			t.Errorf("resourceFileName(%q, %q, %q) = %q, want %q", tt.uri, tt.name, tt.mime, got, tt.want)
		}
	}
}

func TestURLElicitationsRead(t *testing.T) {
	t.Parallel()
	mk := func(data string) error {
		return &jsonrpc.Error{Code: sdk.CodeURLElicitationRequired, Message: "x", Data: json.RawMessage(data)}
	}
	tests := []struct {
		name  string
		err   error
		ok    bool
		pages int
	}{
		{"another error", &jsonrpc.Error{Code: -32600}, false, 0},
		{"no data", mk(""), true, 0},
		{"not JSON", mk("{"), true, 0},
		{"a javascript: page", mk(`{"elicitations":[{"mode":"url","url":"javascript:alert(1)"}]}`), true, 0},
		{"a form", mk(`{"elicitations":[{"mode":"form","url":"https://a.example"}]}`), true, 0},
		{"too many", mk(`{"elicitations":[{"url":"https://a.example"},{"url":"https://b.example"},{"url":"https://c.example"},{"url":"https://d.example"}]}`), true, maxURLElicitations},
	}
	for _, tt := range tests {
		pages, ok := urlElicitations(tt.err)
		if ok != tt.ok || len(pages) != tt.pages {
			t.Errorf("%s: ok %v, %d pages", tt.name, ok, len(pages))
		}
	}
}

// TestPromptNotesBounded: a prompt of a hundred thousand tiny image and
// audio blocks (a few MB, within one frame) says what it left out in a
// bounded list of notes, not one note a block for the composer to show.
func TestPromptNotesBounded(t *testing.T) {
	t.Parallel()
	var msgs []*sdk.PromptMessage
	for i := 0; i < 50_000; i++ {
		msgs = append(msgs, &sdk.PromptMessage{Role: "user", Content: &sdk.ImageContent{MIMEType: "image/png", Data: []byte("p")}},
			&sdk.PromptMessage{Role: "user", Content: &sdk.AudioContent{MIMEType: "audio/wav", Data: []byte("R")}})
	}
	got := promptText(&sdk.GetPromptResult{Messages: msgs}, 1<<20)
	if len(got.Files) != maxPromptFiles {
		t.Errorf("%d files", len(got.Files))
	}
	if len(got.Notes) > maxPromptNotes+1 {
		t.Fatalf("%d notes", len(got.Notes))
	}
	mustContain(t, strings.Join(got.Notes, "\n"), "at most 10 files", "audio cannot be sent", "99970 more blocks were left out")
}

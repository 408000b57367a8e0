package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// Both client tools change something outside the app (the clipboard, the
// browser), so both ask first.
func TestClientToolsNeedApproval(t *testing.T) {
	t.Parallel()
	r, err := NewRegistry(ClientTools()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ tool, args string }{
		{ToolCopyToClipboard, `{"text":"hello"}`},
		{ToolOpenURL, `{"url":"https://example.com/"}`},
	} {
		c, res := r.Prepare(tc.tool, tc.args)
		if res != nil {
			t.Fatalf("%s: %+v", tc.tool, res)
		}
		if !c.Tool.Client || c.Tool.NeedsApproval == nil || !c.Tool.NeedsApproval(c.Args) {
			t.Errorf("%s runs without asking", tc.tool)
		}
	}
}

func TestCopyToClipboardPreview(t *testing.T) {
	t.Parallel()
	r, err := NewRegistry(ClientTools()...)
	if err != nil {
		t.Fatal(err)
	}
	manyLines := strings.Repeat("line\n", 100)
	wide := strings.Repeat("é", 3000) // 6000 bytes on one line
	tests := []struct {
		name, text string
		title      string
		body       string   // exact, when set
		want       []string // substrings otherwise
		maxBody    int
	}{
		{name: "short", text: "Hello from Juncture", title: "Copy to the clipboard (19 characters)", body: "Hello from Juncture"},
		{name: "one character", text: "x", title: "Copy to the clipboard (1 character)", body: "x"},
		{name: "exactly the line cap", text: strings.Repeat("a\n", maxCopyPreviewLines-1) + "a",
			title: "Copy to the clipboard (79 characters)", body: strings.Repeat("a\n", maxCopyPreviewLines-1) + "a"},
		{name: "many lines", text: manyLines, title: "Copy to the clipboard (500 characters)",
			body: strings.Repeat("line\n", maxCopyPreviewLines-1) + "line\n… 300 more characters not shown; all 500 characters will be copied …"},
		{name: "one wide line", text: wide, title: "Copy to the clipboard (3000 characters)",
			want: []string{"éé\n… 952 more characters not shown; all 3000 characters will be copied …"}, maxBody: maxCopyPreviewBytes + 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args, _ := json.Marshal(map[string]string{"text": tc.text})
			c, res := r.Prepare(ToolCopyToClipboard, string(args))
			if res != nil {
				t.Fatal(res.Content)
			}
			pv, err := r.Preview(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			if pv.Kind != PreviewText || pv.Title != tc.title || pv.Folder != "" {
				t.Errorf("preview = %+v", pv)
			}
			if tc.body != "" && pv.Body != tc.body {
				t.Errorf("body = %q, want %q", pv.Body, tc.body)
			}
			mustContain(t, pv.Body, tc.want...)
			if tc.maxBody > 0 && len(pv.Body) > tc.maxBody {
				t.Errorf("body is %d bytes, over %d", len(pv.Body), tc.maxBody)
			}
			if !utf8.ValidString(pv.Body) {
				t.Error("the cut split a character")
			}
		})
	}
}

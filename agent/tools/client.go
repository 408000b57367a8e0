package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Client tool names.
const (
	ToolCopyToClipboard = "copy_to_clipboard"
	ToolOpenURL         = "open_url"
)

// What a copy_to_clipboard approval card shows of the text at most.
const (
	maxCopyPreviewBytes = 4 << 10
	maxCopyPreviewLines = 40
)

// ClientTools returns the tools the app window executes: copy_to_clipboard
// and open_url (http/https only). Both need approval first: one replaces
// what the person has on their clipboard, the other opens a page.
func ClientTools() []Tool {
	return []Tool{
		{
			Name:        ToolCopyToClipboard,
			Description: "Copy text to the person's clipboard, after they approve it. The app window does it; the result says whether it worked.",
			Schema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","minLength":1,"maxLength":100000,` +
				`"description":"The text to copy."}},"required":["text"],"additionalProperties":false}`),
			Client:        true,
			NeedsApproval: always,
			Preview: withArgs(func(_ context.Context, a struct {
				Text string `json:"text"`
			}) (Preview, error) {
				return copyPreview(a.Text), nil
			}),
		},
		{
			Name:        ToolOpenURL,
			Description: "Open a web page (http or https) in the person's browser, after they approve it.",
			Schema: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string","minLength":1,"maxLength":4096,` +
				`"pattern":"^[hH][tT][tT][pP][sS]?://","description":"An http:// or https:// address."}},"required":["url"],"additionalProperties":false}`),
			Client:        true,
			NeedsApproval: always,
		},
	}
}

// copyPreview shows the text that would replace the clipboard: all of it
// when it is short, else its first lines with a note saying how much more
// would be copied, so the card stays readable while nothing is hidden
// silently.
func copyPreview(text string) Preview {
	n := utf8.RuneCountInString(text)
	pv := Preview{Kind: PreviewText, Title: "Copy to the clipboard (" + plural(n, "character") + ")", Body: text}
	cut := len(text)
	if i := nthIndex(text, '\n', maxCopyPreviewLines); i >= 0 && i+1 < cut {
		cut = i + 1 // the last shown line keeps its newline
	}
	if cut > maxCopyPreviewBytes {
		cut = runeStart([]byte(text), maxCopyPreviewBytes)
	}
	if cut < len(text) {
		head := text[:cut]
		if !strings.HasSuffix(head, "\n") {
			head += "\n"
		}
		rest := utf8.RuneCountInString(text[cut:])
		pv.Body = fmt.Sprintf("%s… %d more %s not shown; all %s will be copied …",
			head, rest, noun(rest, "character"), plural(n, "character"))
	}
	return pv
}

// nthIndex returns the index of the nth (1-based) c in s, or -1.
func nthIndex(s string, c byte, n int) int {
	off := 0
	for range n {
		i := strings.IndexByte(s[off:], c)
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	return off - 1
}

// plural is "1 character", "2 characters".
func plural(n int, word string) string { return fmt.Sprintf("%d %s", n, noun(n, word)) }

func noun(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// ValidOpenURL reports whether u is an absolute http/https address with a
// host (what open_url accepts).
func ValidOpenURL(u string) bool {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil || p.Host == "" {
		return false
	}
	s := strings.ToLower(p.Scheme)
	return s == "http" || s == "https"
}

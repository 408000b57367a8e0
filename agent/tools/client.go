package tools

import (
	"encoding/json"
	"net/url"
	"strings"
)

// Client tool names.
const (
	ToolCopyToClipboard = "copy_to_clipboard"
	ToolOpenURL         = "open_url"
)

// ClientTools returns the tools the app window executes: copy_to_clipboard
// and open_url (http/https only; it needs approval first).
func ClientTools() []Tool {
	return []Tool{
		{
			Name:        ToolCopyToClipboard,
			Description: "Copy text to the person's clipboard. The app window does it; the result says whether it worked.",
			Schema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","minLength":1,"maxLength":100000,` +
				`"description":"The text to copy."}},"required":["text"],"additionalProperties":false}`),
			Client: true,
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

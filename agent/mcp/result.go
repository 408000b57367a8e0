package mcp

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/agent/tools"
)

const (
	// maxResultText caps what the model reads of one result: a server that
	// returns a whole database must not fill the context window.
	maxResultText = 256 << 10
	// maxImageBytes is the largest image shown to the person; a larger one
	// would bloat the stored thread and the window.
	maxImageBytes = 4 << 20
)

// ConvertResult turns a server's tool result into what the model reads
// and the window shows. Every block leaves a line of text for the model,
// so it knows an image or a link was shown even though it cannot see it:
//   - text blocks are joined with "\n";
//   - an image becomes a PartImage (base64) and a placeholder such as
//     "[image: image/png, 1.2 KB — shown to the person]"; one over 4 MiB
//     is only described;
//   - audio and binary resources are described, not kept;
//   - a resource link becomes a PartLink and "[link: <name> <uri>]";
//   - an embedded text resource becomes a PartResource (its text cut at
//     256 KiB) and its text;
//   - the images and resources of one result are kept up to 8 MiB in
//     all; an image past that is only described (budget.go);
//   - structured content becomes a PartStructured (up to 256 KiB), and
//     the text when the result has no text block.
//
// The text is capped at 256 KiB with a note saying how much was cut.
func ConvertResult(res *sdk.CallToolResult) tools.Result {
	if res == nil {
		return tools.Result{Content: "The tool returned no result.", IsError: true}
	}
	var (
		texts   []string
		parts   []tools.Part
		hasText bool
		left    = maxPartBytes
	)
	for _, c := range res.Content {
		text, part, isText := convertBlock(c)
		if isText {
			hasText = true
		}
		if part != nil {
			part, text = fitPart(part, text, &left)
		}
		if part != nil {
			parts = append(parts, *part)
		}
		if text != "" || isText {
			texts = append(texts, text)
		}
	}
	if res.StructuredContent != nil {
		if raw, err := json.Marshal(res.StructuredContent); err == nil && string(raw) != "null" {
			part, note := structuredPart(raw)
			if part != nil {
				parts = append(parts, *part)
			} else {
				texts = append(texts, note)
			}
			if !hasText {
				texts = append(texts, string(raw))
			}
		}
	}
	return tools.Result{Content: capText(strings.Join(texts, "\n")), IsError: res.IsError, Parts: parts}
}

// convertBlock returns a content block's text for the model, the part the
// window shows (if any) and whether the block was a text block.
func convertBlock(c sdk.Content) (text string, part *tools.Part, isText bool) {
	switch b := c.(type) {
	case *sdk.TextContent:
		return b.Text, nil, true
	case *sdk.ImageContent:
		mime := orDefault(b.MIMEType, "image")
		if len(b.Data) > maxImageBytes {
			return fmt.Sprintf("[image: %s, %s — too large to show]", mime, humanSize(len(b.Data))), nil, false
		}
		// The window decodes what it is given: only an image whose header
		// reads and stays within the decode budget is handed over.
		if err := attach.CheckImage("", b.Data); err != nil {
			return fmt.Sprintf("[image: %s, %s — not shown: %s]", mime, humanSize(len(b.Data)), strings.TrimSuffix(err.Error(), ".")), nil, false
		}
		p := &tools.Part{Kind: tools.PartImage, MimeType: b.MIMEType, Data: base64.StdEncoding.EncodeToString(b.Data)}
		return fmt.Sprintf("[image: %s, %s — shown to the person]", mime, humanSize(len(b.Data))), p, false
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio: %s, %s — not kept]", orDefault(b.MIMEType, "audio"), humanSize(len(b.Data))), nil, false
	case *sdk.ResourceLink:
		p := &tools.Part{Kind: tools.PartLink, URI: b.URI, Name: b.Name, Title: b.Title}
		return fmt.Sprintf("[link: %s %s]", orDefault(b.Name, b.Title), b.URI), p, false
	case *sdk.EmbeddedResource:
		r := b.Resource
		if r == nil {
			return "[resource: empty]", nil, false
		}
		if r.Blob != nil {
			return fmt.Sprintf("[resource: %s (%s, %s of binary data) — not shown]", r.URI, orDefault(r.MIMEType, "binary"), humanSize(len(r.Blob))), nil, false
		}
		return r.Text, &tools.Part{Kind: tools.PartResource, URI: r.URI, MimeType: r.MIMEType, Data: r.Text}, false
	case nil:
		return "", nil, false
	default:
		// Tool use and tool result blocks belong to sampling, not to a
		// tool's result; say what arrived rather than drop it silently.
		return fmt.Sprintf("[unsupported content: %T]", c), nil, false
	}
}

// capText cuts text at maxResultText bytes (on a rune boundary).
func capText(s string) string {
	if len(s) <= maxResultText {
		return s
	}
	cut := runeCut(s, maxResultText)
	return s[:cut] + fmt.Sprintf("\n[… %s more cut: the result was %s, over the %s the model reads]",
		humanSize(len(s)-cut), humanSize(len(s)), humanSize(maxResultText))
}

// runeCut is where s (longer than n bytes) is cut to at most n bytes
// without splitting a rune: n, or the start of the rune n falls in.
func runeCut(s string, n int) int {
	for n > 0 && s[n]&0xC0 == 0x80 { // a continuation byte
		n--
	}
	return n
}

// humanSize writes a byte count the way a person reads it: 512 B, 1.2 KB,
// 3.4 MB (powers of 1024, as file managers do).
func humanSize(n int) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

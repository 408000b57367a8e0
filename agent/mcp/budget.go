package mcp

import (
	"encoding/json"
	"fmt"

	"github.com/juncture-app/juncture/agent/tools"
)

// Budgets for what a server sends during a call, decided before it is
// read. What goes over is cut or left out, and the text says so.
const (
	// maxProgressMessage bounds one progress message. The runtime shows
	// at most ten reports a second per call and keeps its last 8,192
	// events for replay, so a server's progress holds at most ~8 MiB
	// there, not 8 GiB.
	maxProgressMessage = 1 << 10
	// maxResourceText bounds an embedded text resource as the thread
	// stores it (and every GetThread returns it); the model's copy is
	// bounded by maxResultText.
	maxResourceText = 256 << 10
	// maxStructuredBytes bounds the structured content the window shows.
	maxStructuredBytes = 256 << 10
	// maxPartBytes bounds the images and resources of one result in all
	// (before base64): with maxImageBytes, two large images.
	maxPartBytes = 8 << 20
)

// fitPart keeps a result's part within the budgets: a resource's text is
// cut to maxResourceText, and a part that would take the result's parts
// over maxPartBytes is left out (an image is then only described). left
// is what remains of the result's budget; text is the block's line for
// the model, returned changed when the part was left out.
func fitPart(p *tools.Part, text string, left *int) (*tools.Part, string) {
	if p.Kind == tools.PartResource && len(p.Data) > maxResourceText {
		p.Data = cutText(p.Data, maxResourceText)
	}
	size := len(p.Data)
	if p.Kind == tools.PartImage {
		size = size * 3 / 4 // base64
	}
	if size > *left {
		if p.Kind == tools.PartImage {
			text = fmt.Sprintf("[image: %s, %s — not shown: this result's images and resources are over %s]",
				orDefault(p.MimeType, "image"), humanSize(size), humanSize(maxPartBytes))
		}
		return nil, text
	}
	*left -= size
	return p, text
}

// structuredPart is a result's structured content as a part, or nil and a
// line saying it was too large.
func structuredPart(raw json.RawMessage) (*tools.Part, string) {
	if len(raw) > maxStructuredBytes {
		return nil, fmt.Sprintf("[structured content: %s — too large to show]", humanSize(len(raw)))
	}
	return &tools.Part{Kind: tools.PartStructured, JSON: raw}, ""
}

package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
)

const tinyPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

// A tool result's image reaches a model that accepts images as an image
// part (through the real openai-go client and SSE), after the results;
// one that does not reads the result's text only. The window gets the
// parts either way.
func TestToolImagesReachTheModelWhenItSeesImages(t *testing.T) {
	t.Parallel()
	for _, sees := range []bool{true, false} {
		t.Run(map[bool]string{true: "sees images", false: "text only"}[sees], func(t *testing.T) {
			t.Parallel()
			img := tools.Tool{Name: "snap", Description: "returns an image", OnStop: tools.Abortable,
				Run: func(context.Context, json.RawMessage) (tools.Result, error) {
					return tools.Result{Content: "[image: image/png, 70 B — shown to the person]",
						Parts: []tools.Part{{Kind: history.PartImage, MimeType: "image/png", Data: tinyPNG}}}, nil
				}}
			reg, err := tools.NewRegistry(img)
			if err != nil {
				t.Fatal(err)
			}
			// The harness's model is the real openai-go client on fakellm.
			h := newHarness(t, func(o *agent.Options) {
				o.Tools = func(context.Context, string) *tools.Registry { return reg }
				o.ModelSeesImages = func() bool { return sees }
			})
			h.srv.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "call-1", "snap", `{}`)), fakellm.Reply(fakellm.Text("A tiny logo.")))
			h.send("th-1", "show me")
			finished(t, h.terminal(), agui.OutcomeSuccess)
			h.idle("th-1")
			reqs := h.srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d model calls", len(reqs))
			}
			raw := string(reqs[1].Raw)
			hasPart := strings.Contains(raw, `"image_url"`) && strings.Contains(raw, "data:image/png;base64,"+tinyPNG)
			if hasPart != sees {
				t.Fatalf("image part sent = %v, want %v: %s", hasPart, sees, raw)
			}
			if !strings.Contains(raw, "shown to the person") {
				t.Fatal("the tool result's text is missing")
			}
			for _, m := range h.messages("th-1") {
				if m.Role == history.RoleTool && (len(m.Parts) != 1 || m.Parts[0].Data != tinyPNG) {
					t.Fatalf("stored parts %+v", m.Parts)
				}
				if m.Role == history.RoleUser && m.Content == history.ToolImagesNote {
					t.Fatal("the images message was stored; it is only sent")
				}
			}
			h.assertValidHistory("th-1")
		})
	}
}

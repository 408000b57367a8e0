package mcp

import (
	"context"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestEdgeHostileSizes (issue 19, defect 18): what a server sends is kept
// within budgets decided in advance, and what was cut is said. Progress
// messages of 1 MiB reach the runtime (which keeps thousands of events for
// replay) cut to maxProgressMessage; a 15 MiB embedded text resource was
// stored whole, and is now cut to maxResourceText (the test sends 2 MiB:
// the race detector makes decoding more slow, not the cut different).
func TestEdgeHostileSizes(t *testing.T) {
	t.Parallel()
	m := startEdge(t, Options{}, nil)
	ctx := context.Background()

	t.Run("progress", func(t *testing.T) {
		env := &fakeEnv{}
		res := runTool(t, ctx, m, env, "edge", "bigprogress", map[string]any{"count": 3, "bytes": 256 << 10})
		if res.Content != "sent 3" {
			t.Fatalf("bigprogress: %+v", res)
		}
		got := env.reports()
		if len(got) == 0 {
			t.Fatal("no progress reported")
		}
		for _, p := range got {
			if len(p.Message) > maxProgressMessage+40 || !strings.HasSuffix(p.Message, fmt.Sprintf("… (cut: %d bytes)", 256<<10-maxProgressMessage)) {
				t.Fatalf("a progress message of %d bytes: …%q", len(p.Message), p.Message[max(0, len(p.Message)-40):])
			}
		}
	})

	t.Run("resource", func(t *testing.T) {
		res := runTool(t, ctx, m, nil, "edge", "bigresource", map[string]any{"bytes": 2 << 20})
		if len(res.Parts) != 1 {
			t.Fatalf("parts %d", len(res.Parts))
		}
		data := res.Parts[0].Data
		if len(data) > maxResourceText+40 || !strings.HasSuffix(data, fmt.Sprintf("… (cut: %d bytes)", 2<<20-maxResourceText)) {
			t.Errorf("the resource is stored with %d bytes: …%q", len(data), data[max(0, len(data)-40):])
		}
		if len(res.Content) > maxResultText+200 {
			t.Errorf("the model reads %d bytes", len(res.Content))
		}
	})
}

// TestConvertResultBudgets (defect 18): the parts of one result (images,
// resources, structured content) that the thread stores are bounded in all.
func TestConvertResultBudgets(t *testing.T) {
	t.Parallel()
	img := make([]byte, 3<<20) // a real PNG, padded: decoders stop at IEND
	copy(img, realPNG(t, 1, 1))
	var blocks []sdk.Content
	for range 3 {
		blocks = append(blocks, &sdk.ImageContent{MIMEType: "image/png", Data: img})
	}
	big := map[string]any{"s": strings.Repeat("x", maxStructuredBytes)}
	res := ConvertResult(&sdk.CallToolResult{Content: blocks, StructuredContent: big})
	stored := 0
	for _, p := range res.Parts {
		stored += len(p.Data) + len(p.JSON)
	}
	if stored > maxPartBytes*4/3+1024 {
		t.Errorf("the parts hold %d bytes, over the budget of %d (base64)", stored, maxPartBytes*4/3)
	}
	if got := strings.Count(res.Content, "shown to the person"); got != 2 {
		t.Errorf("%d images said to be shown:\n%s", got, res.Content)
	}
	mustContain(t, res.Content, "[image: image/png, 3.0 MB — not shown: this result's images and resources are over 8.0 MB]",
		"[structured content: 256.0 KB — too large to show]")
	for _, p := range res.Parts {
		if len(p.JSON) > 0 {
			t.Errorf("structured content of %d bytes kept", len(p.JSON))
		}
	}
}

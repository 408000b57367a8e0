package mcp

import (
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/juncture-app/juncture/agent/tools"
)

func TestConvertResult(t *testing.T) {
	t.Parallel()
	png := realPNG(t, 1, 1) // the window is handed only an image whose header reads
	big := make([]byte, maxImageBytes+1)
	tests := []struct {
		name  string
		in    *sdk.CallToolResult
		text  string
		isErr bool
		parts []tools.Part
	}{
		{
			name: "texts joined",
			in:   &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a"}, &sdk.TextContent{Text: "b"}}},
			text: "a\nb",
		},
		{
			name:  "error",
			in:    &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "broke"}}},
			text:  "broke",
			isErr: true,
		},
		{
			name:  "image",
			in:    &sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: png}}},
			text:  "[image: image/png, " + humanSize(len(png)) + " — shown to the person]",
			parts: []tools.Part{{Kind: tools.PartImage, MimeType: "image/png", Data: base64.StdEncoding.EncodeToString(png)}},
		},
		{
			name: "image too large",
			in:   &sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: big}}},
			text: "[image: image/png, 4.0 MB — too large to show]",
		},
		{
			name: "audio",
			in:   &sdk.CallToolResult{Content: []sdk.Content{&sdk.AudioContent{MIMEType: "audio/wav", Data: make([]byte, 2048)}}},
			text: "[audio: audio/wav, 2.0 KB — not kept]",
		},
		{
			name:  "link",
			in:    &sdk.CallToolResult{Content: []sdk.Content{&sdk.ResourceLink{URI: "https://x/doc", Name: "doc", Title: "Doc"}}},
			text:  "[link: doc https://x/doc]",
			parts: []tools.Part{{Kind: tools.PartLink, URI: "https://x/doc", Name: "doc", Title: "Doc"}},
		},
		{
			name:  "embedded text",
			in:    &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///a.txt", MIMEType: "text/plain", Text: "hello"}}}},
			text:  "hello",
			parts: []tools.Part{{Kind: tools.PartResource, URI: "file:///a.txt", MimeType: "text/plain", Data: "hello"}},
		},
		{
			name: "embedded blob",
			in:   &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///a.bin", Blob: []byte{1, 2, 3}}}}},
			text: "[resource: file:///a.bin (binary, 3 B of binary data) — not shown]",
		},
		{
			name:  "structured only",
			in:    &sdk.CallToolResult{Content: []sdk.Content{}, StructuredContent: map[string]any{"t": 21}},
			text:  `{"t":21}`,
			parts: []tools.Part{{Kind: tools.PartStructured, JSON: json.RawMessage(`{"t":21}`)}},
		},
		{
			name:  "structured with text",
			in:    &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "21 C"}}, StructuredContent: map[string]any{"t": 21}},
			text:  "21 C",
			parts: []tools.Part{{Kind: tools.PartStructured, JSON: json.RawMessage(`{"t":21}`)}},
		},
		{
			name:  "nil",
			in:    nil,
			text:  "The tool returned no result.",
			isErr: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := ConvertResult(tt.in)
			if got.Content != tt.text || got.IsError != tt.isErr || !reflect.DeepEqual(got.Parts, tt.parts) {
				t.Errorf("got %+v\nwant text %q isError %v parts %+v", got, tt.text, tt.isErr, tt.parts)
			}
		})
	}
}

func TestConvertResultCap(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", maxResultText) // 2 bytes each: twice the cap
	got := ConvertResult(&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: long}}}).Content
	head, note, ok := strings.Cut(got, "\n[… ")
	if !ok || len(head) != maxResultText || !strings.Contains(note, "256.0 KB more cut: the result was 512.0 KB") {
		t.Errorf("cut at %d bytes, note %q", len(head), note)
	}
	if !strings.HasSuffix(head, "é") {
		t.Error("cut inside a character")
	}
}

package mcp

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// pngHeader is the start of a PNG declaring w × h RGBA pixels: enough
// for a header check, and what a decompression bomb starts with.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	_ = binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

// realPNG is a w × h PNG.
func realPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestToolResultImageOverDecodeBudgetIsNotShown: an image in a tool's
// result goes to the window, which decodes it: one whose header declares
// more than the decode budget (a 4 MiB PNG of 30,000 × 30,000 pixels
// decodes to 3.4 GiB), or that cannot be read, is described, never
// handed over; a real image still is.
func TestToolResultImageOverDecodeBudgetIsNotShown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"bomb", pngHeader(30000, 30000), "image too large to decode"},
		{"unreadable", []byte("\x89PNG not an image"), "cannot be read"},
	} {
		res := ConvertResult(&sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: tc.data}}})
		if len(res.Parts) != 0 || !strings.Contains(res.Content, "not shown") || !strings.Contains(res.Content, tc.want) {
			t.Fatalf("%s: %d parts, text %q; want none and a note saying %q", tc.name, len(res.Parts), res.Content, tc.want)
		}
	}
	res := ConvertResult(&sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: realPNG(t, 2, 2)}}})
	if len(res.Parts) != 1 {
		t.Fatalf("a real image is not shown: %q", res.Content)
	}
}

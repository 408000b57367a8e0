package app

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/store"
)

// TestImportRefusesAToolImageOverTheDecodeBudget: a tool result's image
// in an imported thread is shown by the window as a thumbnail, so it gets
// the header check a sent image gets: a PNG claiming 200000 × 200000 (or
// bytes that are no image) refuses the import, naming the message, and
// nothing is stored; a real one is imported.
func TestImportRefusesAToolImageOverTheDecodeBudget(t *testing.T) {
	f := newFixture(t, nil)
	doc := func(data []byte) string {
		b, err := json.Marshal(map[string]any{
			"format": store.ExportFormat, "version": 3,
			"thread": map[string]any{"id": "th-parts", "title": "imported", "createdAt": 1, "updatedAt": 1},
			"messages": []map[string]any{
				{"id": "m-1", "role": "user", "content": "look", "status": "complete", "createdAt": 1},
				{"id": "m-2", "parentId": "m-1", "role": "assistant", "status": "complete", "createdAt": 2,
					"toolCalls": []map[string]any{{"id": "c-1", "name": "shot", "arguments": "{}"}}},
				{"id": "m-3", "parentId": "m-2", "role": "tool", "toolCallId": "c-1", "content": "[image]", "status": "complete", "createdAt": 3,
					"parts": []map[string]any{{"kind": "image", "mimeType": "image/png", "data": base64.StdEncoding.EncodeToString(data)}}},
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, bad := range [][]byte{hostilePNG(t), []byte("not an image")} {
		e := f.call(nil, "ImportThread", doc(bad))
		if e == nil || e.Code != CodeInvalidArgument || !strings.Contains(e.Message, "m-3") {
			t.Fatalf("import of a tool image that must not be decoded: %+v", e)
		}
		var page ThreadPage
		if e := f.call(&page, "ListThreads", "", 10); e != nil || len(page.Threads) != 0 {
			t.Fatalf("a refused import left threads: %+v %v", page, e)
		}
	}
	png, _ := base64.StdEncoding.DecodeString(tinyPNG)
	if e := f.call(nil, "ImportThread", doc(png)); e != nil {
		t.Fatalf("a real tool image refused: %+v", e)
	}
}

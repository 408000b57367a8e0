package store

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
)

// TestImportJSONCountsMessagesUnderEveryKeySpelling: encoding/json matches
// member names case-insensitively, unescapes them, and keeps the last of a
// repeated one; the message budget is counted on the member the decoder
// will fill, however it is spelled.
func TestImportJSONCountsMessagesUnderEveryKeySpelling(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	many := `[` + strings.Repeat(`{},`, MaxImportMessages) + `{}]`
	head := `{"format":"juncture.thread","version":3,"thread":{"id":"x"},`
	for name, doc := range map[string]string{
		"capitalised": head + `"Messages":` + many + `}`,
		"escaped":     head + `"m\u0065ssages":` + many + `}`,
		"long s":      head + `"me\u017f\u017fages":` + many + `}`,
		"repeated":    head + `"messages":[],"messages":` + many + `}`,
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := db.ImportJSON(context.Background(), []byte(doc))
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrInvalidImport) || !strings.Contains(err.Error(), "messages; at most") {
			t.Errorf("%s: %v", name, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*uint64(len(doc))+(16<<20) {
			t.Errorf("%s: %d MiB allocated to refuse %d MiB", name, alloc>>20, len(doc)>>20)
		}
	}
}

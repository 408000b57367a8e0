package store

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSearchQuery: whatever a person types, search neither fails nor
// panics, and snippets never carry the highlight markers.
// Seeds: testdata/fuzz/FuzzSearchQuery.
func FuzzSearchQuery(f *testing.F) {
	db := openTest(f)
	mustThread(f, db, "t", `Quotes " and 'apostrophes' AND OR NOT NEAR(x y)`)
	mustPut(f, db,
		userMsg("t", "m1", `He said "hello" -- col:val ^start (paren) a*b NEAR/2 日本語 🎉 café`),
		assistantMsg("t", "m2", "plain answer with \uE000 private use \uE001 markers"),
	)
	for _, s := range []string{"", `"`, `""`, `"a" "b`, "NOT", "a OR", "-", "*", "^", ":", "(", ")", "NEAR(", "\x00", "\xff"} {
		f.Add(s)
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, q string) {
		hits, err := db.SearchHistory(ctx, q, 10)
		if err != nil {
			t.Fatalf("SearchHistory(%q): %v (MATCH %s)", q, err, ftsQuery(q))
		}
		for _, h := range hits {
			for _, p := range h.Parts {
				if p.Text == "" {
					t.Errorf("empty snippet part for %q", q)
				}
				if h.MessageID == "m1" && strings.ContainsAny(p.Text, "\uE000\uE001") {
					t.Errorf("marker left in part %q", p.Text)
				}
			}
		}
		if strings.TrimSpace(q) == "" && len(hits) != 0 {
			t.Errorf("blank query %q found %d hits", q, len(hits))
		}
		if m := ftsQuery(q); m != "" && !utf8.ValidString(m) {
			t.Errorf("invalid UTF-8 in MATCH %q", m)
		}
	})
}

// FuzzImportJSON: any bytes are either imported whole or refused as an
// invalid document; never a crash or a database error. Seeds:
// testdata/fuzz/FuzzImportJSON.
func FuzzImportJSON(f *testing.F) {
	db := openTest(f)
	f.Add([]byte(`{"format":"juncture.thread","version":1,"thread":{"id":"x","title":"T"},"messages":[{"id":"m1","role":"user","content":"hi","status":"complete"}]}`))
	f.Add([]byte(`{"format":"juncture.thread","version":1,"thread":{"id":"x"},"messages":[]}`))
	f.Add([]byte(`{"format":"juncture.thread","version":2}`))
	f.Add([]byte(`{"format":"juncture.thread","version":2,"thread":{"id":"b"},"activeLeaf":"m3","messages":[{"id":"m1","role":"user","content":"hi","status":"complete"},` +
		`{"id":"m2","parentId":"m1","role":"assistant","content":"a","status":"complete","usage":{"promptTokens":3,"completionTokens":1,"totalTokens":4}},` +
		`{"id":"m3","parentId":"m1","role":"assistant","content":"b","status":"complete"},{"id":"m4","role":"user","content":"edited","status":"complete"}]}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`null`))
	// Hostile (issue 19 #5): two-byte messages and calls, deep nesting.
	f.Add([]byte(`{"format":"juncture.thread","version":3,"thread":{"id":"d"},"messages":[` + strings.Repeat(`{},`, 2000) + `{}]}`))
	f.Add([]byte(`{"format":"juncture.thread","version":2,"thread":{"id":"c"},"messages":[{"id":"m","role":"assistant","content":"","status":"complete","toolCalls":[` + strings.Repeat(`{},`, 2000) + `{}]}]}`))
	f.Add([]byte(`{"format":"juncture.thread","version":1,"thread":{"id":"n","title":` + strings.Repeat(`[`, 5000) + strings.Repeat(`]`, 5000) + `},"messages":[]}`))
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, data []byte) {
		// Fails over the memory budget too, not only on a crash.
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		th, err := db.ImportJSON(ctx, data)
		runtime.ReadMemStats(&after)
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 40*uint64(len(data))+(16<<20) {
			t.Fatalf("ImportJSON of %d bytes allocated %d MiB", len(data), alloc>>20)
		}
		if err != nil {
			if !errors.Is(err, ErrInvalidImport) {
				t.Fatalf("ImportJSON: %v (not ErrInvalidImport)", err)
			}
			return
		}
		out, err := db.ExportJSON(ctx, th.ID)
		if err != nil {
			t.Fatal(err)
		}
		var in, back struct {
			Messages []json.RawMessage `json:"messages"`
		}
		json.Unmarshal(data, &in)
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatal(err)
		}
		if len(in.Messages) != len(back.Messages) {
			t.Errorf("imported %d messages, exported %d", len(in.Messages), len(back.Messages))
		}
	})
}

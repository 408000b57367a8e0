package store

import (
	"testing"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/store/importers"
)

// TestSearchHitSourceOfImportedThreads: a hit in an imported ChatGPT or
// Claude conversation names its source (the window labels the answer
// "ChatGPT:" or "Claude:", not "Juncture:"); a thread of Juncture's own
// names none.
func TestSearchHitSourceOfImportedThreads(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	for _, f := range []string{importers.FormatChatGPT, importers.FormatClaude} {
		if _, err := db.ImportConversations(ctx, parsedFixture(t, f)); err != nil {
			t.Fatal(err)
		}
	}
	own := history.Thread{ID: "t-own", Title: "Own"}
	if err := db.CreateThread(ctx, own); err != nil {
		t.Fatal(err)
	}
	if err := db.PutMessage(ctx, history.Message{ID: "m-own", ThreadID: own.ID, Role: history.RoleAssistant,
		Content: "The sourdough starter and autumn leaves, said here.", Status: history.StatusComplete, CreatedAt: 1}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ query, thread, want string }{
		{"levain", "chatgpt-", importers.SourceChatGPT},
		{"haiku autumn", "claude-", importers.SourceClaude},
		{"said here", "t-own", ""},
	} {
		hits, err := db.SearchHistory(ctx, tc.query, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 {
			t.Fatalf("%q: no hits", tc.query)
		}
		for _, h := range hits {
			if h.Source != importers.SourceOf(h.ThreadID) {
				t.Errorf("%q: hit in %s has source %q", tc.query, h.ThreadID, h.Source)
			}
		}
		if h := hits[0]; h.Source != tc.want {
			t.Errorf("%q: first hit in %s has source %q, want %q", tc.query, h.ThreadID, h.Source, tc.want)
		}
	}
	for id, want := range map[string]string{"chatgpt-x": "chatgpt", "claude-y": "claude", "chatgpt": "", "t-1": "", "claudes-z": ""} {
		if got := importers.SourceOf(id); got != want {
			t.Errorf("SourceOf(%q) = %q, want %q", id, got, want)
		}
	}
}

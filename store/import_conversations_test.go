package store

import (
	"context"
	"errors"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/store/importers"
)

func parsedFixture(t *testing.T, format string) []importers.Conversation {
	t.Helper()
	data, err := os.ReadFile("importers/testdata/" + format + "-conversations.json")
	if err != nil {
		t.Fatal(err)
	}
	convs, _, err := importers.Parse(format, data)
	if err != nil {
		t.Fatal(err)
	}
	return convs
}

func TestImportConversationsChatGPT(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	sum, err := db.ImportConversations(ctx, parsedFixture(t, importers.FormatChatGPT))
	if err != nil {
		t.Fatal(err)
	}
	want := ConversationImport{Threads: 3, Messages: 10, SkippedMessages: 3, ThreadIDs: []string{
		"chatgpt-c0ffee00-0000-4000-8000-000000000001", "chatgpt-c0ffee00-0000-4000-8000-000000000002", "chatgpt-c0ffee00-0000-4000-8000-000000000003"}}
	if !reflect.DeepEqual(sum, want) {
		t.Fatalf("summary %+v, want %+v", sum, want)
	}
	id := want.ThreadIDs[0]
	th, err := db.Thread(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if th.Title != "Keeping a sourdough starter" || th.CreatedAt != 1714561200250 || th.UpdatedAt != 1714564800500 {
		t.Errorf("thread %+v", th)
	}
	// The active path is the edited question's, and it shows its sibling.
	path, err := db.Messages(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(path) != 2 || path[0].ID != id+"-u2" || path[1].ID != id+"-a2" {
		t.Fatalf("active path %+v", path)
	}
	if b := path[0].Branch; b == nil || b.Index != 2 || b.Count != 2 || !reflect.DeepEqual(b.Siblings, []string{id + "-u1", id + "-u2"}) {
		t.Errorf("branch of the edited question %+v", path[0].Branch)
	}
	if path[1].CreatedAt != 1714564710750 || path[1].Status != history.StatusComplete {
		t.Errorf("answer %+v", path[1])
	}
	// The other version is there, with its answer.
	if _, err := db.SelectBranch(ctx, id, id+"-u1"); err != nil {
		t.Fatal(err)
	}
	if path, err = db.Messages(ctx, id); err != nil || len(path) != 2 || path[1].Content != "Once a day at room temperature is usual." {
		t.Errorf("other branch %+v %v", path, err)
	}
	// Search finds the text.
	hits, err := db.SearchHistory(ctx, "levain", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].ThreadID != id || hits[0].MessageID != id+"-a2" {
		t.Errorf("search hits %+v", hits)
	}
	// Again: nothing is added twice.
	again, err := db.ImportConversations(ctx, parsedFixture(t, importers.FormatChatGPT))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, ConversationImport{AlreadyImported: 3, ThreadIDs: []string{}}) {
		t.Errorf("second import %+v", again)
	}
	all, err := db.AllMessages(ctx, id)
	if err != nil || len(all) != 4 {
		t.Errorf("%d messages after a second import, %v", len(all), err)
	}
}

func TestImportConversationsClaude(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	sum, err := db.ImportConversations(ctx, parsedFixture(t, importers.FormatClaude))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Threads != 2 || sum.Messages != 5 || sum.AlreadyImported != 0 {
		t.Fatalf("summary %+v", sum)
	}
	id := "claude-5e1f0a00-0000-4000-8000-00000000000b"
	path, err := db.Messages(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(path) != 2 || path[1].ID != id+"-e-3" || path[1].Branch == nil || path[1].Branch.Count != 2 {
		t.Errorf("active path %+v", path)
	}
}

func TestImportConversationsAllOrNothing(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	convs := parsedFixture(t, importers.FormatChatGPT)
	// A bad conversation in the middle: nothing is imported.
	convs[1].Messages[1].Role = "narrator"
	if _, err := db.ImportConversations(ctx, convs); !errors.Is(err, ErrInvalidImport) {
		t.Fatalf("import = %v, want ErrInvalidImport", err)
	}
	page, err := db.ListThreads(ctx, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Threads) != 0 {
		t.Errorf("%d threads after a failed import", len(page.Threads))
	}
	if hits, _ := db.SearchHistory(ctx, "levain", 10); len(hits) != 0 {
		t.Errorf("search finds a message of a failed import: %+v", hits)
	}
	// A message id another thread uses is refused too.
	mustThread(t, db, "other", "Other")
	mustPut(t, db, history.Message{ID: "chatgpt-c0ffee00-0000-4000-8000-000000000003-p-a1", ThreadID: "other", Role: history.RoleUser, Content: "x", Status: history.StatusComplete})
	if _, err := db.ImportConversations(ctx, parsedFixture(t, importers.FormatChatGPT)); !errors.Is(err, ErrInvalidImport) {
		t.Fatalf("import with a used message id = %v", err)
	}
	if page, _ = db.ListThreads(ctx, "", 10); len(page.Threads) != 1 {
		t.Errorf("%d threads after a refused import", len(page.Threads))
	}
}

// Issue 19 #5: a conversation without a message makes no thread (a file
// of 300,000 of them made as many empty threads); a file of nothing else
// is refused.
func TestImportConversationsLeavesOutEmptyOnes(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	data, err := os.ReadFile("importers/testdata/hostile/chatgpt-empty-conversations.json")
	if err != nil {
		t.Fatal(err)
	}
	empty, _, err := importers.Parse(importers.FormatAuto, data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ImportConversations(ctx, empty); !errors.Is(err, ErrInvalidImport) {
		t.Fatalf("a file of empty conversations: %v, want ErrInvalidImport", err)
	}
	convs := append(empty[:3:3], parsedFixture(t, importers.FormatChatGPT)...)
	sum, err := db.ImportConversations(ctx, convs)
	if err != nil {
		t.Fatal(err)
	}
	page, err := db.ListThreads(ctx, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	if sum.EmptyConversations != 3 || sum.Threads != len(convs)-3 || len(page.Threads) != sum.Threads {
		t.Fatalf("summary %+v, %d threads stored", sum, len(page.Threads))
	}
	for _, th := range page.Threads {
		if msgs, _ := db.Messages(ctx, th.ID); len(msgs) == 0 {
			t.Errorf("empty thread %s stored", th.ID)
		}
	}
}

// Issue 19 #5: a Juncture thread export of two-byte messages is refused
// by counting them before they are decoded (decoded, each costs hundreds
// of bytes).
//
// Not parallel: TotalAlloc counts the whole process, and the parallel
// tests beside it (the bench corpus builders) allocated 133 MiB during it.
func TestImportJSONCountsMessagesBeforeDecoding(t *testing.T) {
	db := openTest(t)
	for name, doc := range map[string]string{
		"messages": `{"format":"juncture.thread","version":3,"thread":{"id":"x"},"messages":[` + strings.Repeat(`{},`, MaxImportMessages) + `{}]}`,
		"values":   `{"format":"juncture.thread","version":3,"thread":{"id":"x"},"messages":[{"id":"m","role":"user","content":"hi","toolCalls":[` + strings.Repeat(`{},`, MaxImportValues) + `{}]}]}`,
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := db.ImportJSON(context.Background(), []byte(doc))
		runtime.ReadMemStats(&after)
		if !errors.Is(err, ErrInvalidImport) || !strings.Contains(err.Error(), "at most") {
			t.Fatalf("%s: %v", name, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*uint64(len(doc))+(16<<20) {
			t.Errorf("%s: %d MiB allocated to refuse %d MiB", name, alloc>>20, len(doc)>>20)
		}
	}
}

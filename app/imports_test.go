package app

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/juncture-app/juncture/store"
)

func TestImportConversationsOverHTTP(t *testing.T) {
	f := newFixture(t, nil)
	data, err := os.ReadFile("../store/importers/testdata/chatgpt-conversations.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs := f.events(ctx)
	var sum store.ConversationImport
	f.must(&sum, "ImportConversations", "auto", string(data))
	if sum.Threads != 3 || sum.Messages != 10 || sum.SkippedMessages != 3 || sum.AlreadyImported != 0 {
		t.Fatalf("summary %+v", sum)
	}
	// The sidebar is told.
	timeout := time.After(10 * time.Second)
wait:
	for {
		select {
		case ev := <-evs:
			if ev["name"] == "threads" {
				break wait
			}
		case <-timeout:
			t.Fatal("no threads event")
		}
	}
	var hits []store.SearchHit
	if e := f.call(&hits, "SearchHistory", "Remodelado", 10); e != nil || len(hits) != 1 || hits[0].ThreadID != "chatgpt-c0ffee00-0000-4000-8000-000000000002" {
		t.Fatalf("search: %+v %v", hits, e)
	}
	var view ThreadView
	f.must(&view, "GetThread", "chatgpt-c0ffee00-0000-4000-8000-000000000001")
	if view.Thread.Title != "Keeping a sourdough starter" || len(view.Messages) != 2 || view.Messages[0].Branch == nil {
		t.Errorf("thread %+v", view)
	}
	// Again: nothing twice.
	if e := f.call(&sum, "ImportConversations", "chatgpt", string(data)); e != nil || sum.Threads != 0 || sum.AlreadyImported != 3 {
		t.Errorf("second import %+v %v", sum, e)
	}
	claude, err := os.ReadFile("../store/importers/testdata/claude-conversations.json")
	if err != nil {
		t.Fatal(err)
	}
	if e := f.call(&sum, "ImportConversations", "auto", string(claude)); e != nil || sum.Threads != 2 {
		t.Errorf("claude import %+v %v", sum, e)
	}
	// A malformed file: refused with where.
	e := f.call(&sum, "ImportConversations", "chatgpt", "[\n  {\"id\": \"a\",, }\n]")
	if e == nil || e.Code != CodeInvalidArgument || e.Details["line"] != "2" || e.Details["column"] != "14" ||
		e.Message != "conversations.json:2:14: invalid character ',' looking for beginning of object key string" {
		t.Errorf("malformed: %+v", e)
	}
	if e := f.call(&sum, "ImportConversations", "gemini", "[]"); e == nil || e.Code != CodeInvalidArgument {
		t.Errorf("unknown format: %+v", e)
	}
}

package store

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

func TestMessagesKeepInsertionOrder(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t, "t")
	// Timestamps disagree with the order things happened in.
	m1 := userMsg("t", "m1", "first")
	m1.CreatedAt = 900
	m2 := assistantMsg("t", "m2", "second")
	m2.CreatedAt = 100
	m3 := userMsg("t", "m3", "third")
	m3.CreatedAt = 500
	mustPut(t, db, m1)
	mustPut(t, db, m2, m3)
	// Updating the first message keeps its place.
	m1.Content = "first, edited"
	if err := db.PutMessage(ctx, m1); err != nil {
		t.Fatal(err)
	}
	got := mustMessages(t, db, "t")
	if ids(got) != "m1,m2,m3" {
		t.Fatalf("order = %s, want m1,m2,m3", ids(got))
	}
	if got[0].Content != "first, edited" || len(got) != 3 {
		t.Errorf("update did not replace: %+v", got[0])
	}
	if one, err := db.Message(ctx, "m2"); err != nil || one.Content != "second" {
		t.Errorf("Message(m2) = %+v, %v", one, err)
	}
}

func TestMessageRoundTrip(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	mustThread(t, db, "t", "")
	msgs := []history.Message{
		{ID: "u", ThreadID: "t", RunID: "r", Role: history.RoleUser, Content: "héllo 👋\x00nul", Status: history.StatusComplete, CreatedAt: 1},
		{ID: "a", ThreadID: "t", RunID: "r", Role: history.RoleAssistant, Content: "calling", Reasoning: "think",
			ToolCalls: []history.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a b"}`}, {ID: "c2", Name: "list", Arguments: "{}"}},
			Status:    history.StatusComplete, CreatedAt: 2, ParentID: "u",
			Usage: &history.Usage{PromptTokens: 12, CompletionTokens: 3, TotalTokens: 15}, Model: "llama3"},
		{ID: "tl", ThreadID: "t", RunID: "r", Role: history.RoleTool, Content: "boom", ToolCallID: "c1", ToolName: "read_file", IsError: true, Status: history.StatusComplete, CreatedAt: 3, ParentID: "a"},
		{ID: "e", ThreadID: "t", Role: history.RoleAssistant, Status: history.StatusError, Error: "HTTP 500", CreatedAt: 4, ParentID: "tl"},
		{ID: "s", ThreadID: "t", Role: history.RoleSystem, Content: "sys", Status: history.StatusComplete, CreatedAt: 5, ParentID: "e"},
	}
	// Messages stored without a parent follow the active leaf: the same
	// chain, written implicitly.
	mustThread(t, db, "t2", "")
	implicit := slices.Clone(msgs)
	for i := range implicit {
		implicit[i].ID, implicit[i].ThreadID, implicit[i].ParentID = "2"+implicit[i].ID, "t2", ""
	}
	implicit[1].ToolCalls = nil
	implicit[2].ToolCallID = "c9"
	mustPut(t, db, implicit...)
	for i, m := range mustMessages(t, db, "t2") {
		if want := map[bool]string{true: "", false: "2" + msgs[max(i-1, 0)].ID}[i == 0]; m.ParentID != want {
			t.Errorf("implicit message %d: parent %q, want %q", i, m.ParentID, want)
		}
	}
	mustPut(t, db, msgs...)
	if got := mustMessages(t, db, "t"); !reflect.DeepEqual(got, msgs) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, msgs)
	}
}

func TestEmptyToolArgumentsStoredAsEmptyObject(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	mustThread(t, db, "t", "")
	mustPut(t, db, assistantMsg("t", "a", "", history.ToolCall{ID: "c", Name: "now"}))
	if got := mustMessages(t, db, "t")[0].ToolCalls[0].Arguments; got != "{}" {
		t.Errorf("arguments = %q, want {}", got)
	}
}

func TestPutMessagesIsAllOrNothing(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t, "t", "other")
	mustPut(t, db, userMsg("other", "taken", "belongs to other"))
	for _, c := range []struct {
		name string
		msgs []history.Message
	}{
		{"missing thread", []history.Message{userMsg("t", "ok1", "a"), userMsg("ghost", "x", "b")}},
		{"id of another thread", []history.Message{userMsg("t", "ok1", "a"), userMsg("t", "taken", "steal")}},
		{"unknown role", []history.Message{userMsg("t", "ok1", "a"), {ID: "x", ThreadID: "t", Role: "robot"}}},
		{"empty id", []history.Message{userMsg("t", "ok1", "a"), {ThreadID: "t", Role: history.RoleUser}}},
	} {
		if err := db.PutMessages(ctx, c.msgs); err == nil {
			t.Errorf("%s: PutMessages succeeded", c.name)
		}
	}
	if got := mustMessages(t, db, "t"); len(got) != 0 {
		t.Errorf("partial write: %s", ids(got))
	}
	if got := mustMessages(t, db, "other"); got[0].Content != "belongs to other" {
		t.Errorf("another thread's message was changed: %+v", got[0])
	}
	if err := db.PutMessage(ctx, userMsg("ghost", "y", "z")); !isNotFound(err) {
		t.Errorf("PutMessage to a missing thread = %v, want ErrNotFound", err)
	}
	if _, err := db.Messages(ctx, "ghost"); !isNotFound(err) {
		t.Errorf("Messages(ghost) = %v, want ErrNotFound", err)
	}
	if got := mustMessages(t, db, "t"); got == nil {
		t.Error("Messages of an empty thread is nil, want empty")
	}
}

func TestSearchIndexFollowsUpdates(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	mustThread(t, db, "t", "")
	m := assistantMsg("t", "m", "original wording")
	mustPut(t, db, m)
	m.Content = "replacement phrasing"
	mustPut(t, db, m)
	if hits := search(t, db, "original"); len(hits) != 0 {
		t.Errorf("old text still found: %+v", hits)
	}
	if hits := search(t, db, "phrasing"); len(hits) != 1 {
		t.Errorf("new text not found: %+v", hits)
	}
	// Streaming text is not indexed until it is final.
	m.Status = history.StatusStreaming
	m.Content = "halfway streamed"
	mustPut(t, db, m)
	if hits := search(t, db, "halfway"); len(hits) != 0 {
		t.Errorf("streaming text indexed: %+v", hits)
	}
	m.Status = history.StatusInterrupted
	m.Content = history.WithMarker("halfway streamed")
	mustPut(t, db, m)
	hits := search(t, db, "halfway")
	if len(hits) != 1 {
		t.Fatalf("interrupted text not found: %+v", hits)
	}
	for _, p := range hits[0].Parts {
		if strings.Contains(p.Text, "system") {
			t.Errorf("snippet shows the marker: %+v", hits[0].Parts)
		}
	}
	// Titles follow renames.
	ctx := context.Background()
	if err := db.RenameThread(ctx, "t", "Quarterly budget"); err != nil {
		t.Fatal(err)
	}
	if err := db.RenameThread(ctx, "t", "Holiday plans"); err != nil {
		t.Fatal(err)
	}
	if hits := search(t, db, "quarterly "); len(hits) != 0 {
		t.Errorf("old title still found: %+v", hits)
	}
	if hits := search(t, db, "holiday "); len(hits) != 1 || hits[0].MessageID != "" {
		t.Errorf("new title not found: %+v", hits)
	}
	checkIndex(t, db)
}

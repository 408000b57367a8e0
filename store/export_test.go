package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

// exportCorpus is one thread with every kind of message.
func exportCorpus(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	if err := db.CreateThread(ctx, history.Thread{ID: "t", Title: "Fix the build", Pinned: true, CreatedAt: 1_700_000_000_000, UpdatedAt: 1_700_000_900_000}); err != nil {
		t.Fatal(err)
	}
	mustPut(t, db,
		history.Message{ID: "u", ThreadID: "t", RunID: "r1", Role: history.RoleUser, Content: "Why does `go build` fail?", Status: history.StatusComplete, CreatedAt: 1_700_000_000_001},
		history.Message{ID: "a", ThreadID: "t", RunID: "r1", Role: history.RoleAssistant, Content: "Let me look.", Reasoning: "Check go.mod first.\nThen main.go.",
			ToolCalls: []history.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"go.mod"}`}}, Status: history.StatusComplete, CreatedAt: 1_700_000_000_002},
		history.Message{ID: "tr", ThreadID: "t", RunID: "r1", Role: history.RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: "module x\n```\nfenced inside\n```", ToolState: "done", Status: history.StatusComplete, CreatedAt: 1_700_000_000_003},
		history.Message{ID: "a2", ThreadID: "t", RunID: "r1", Role: history.RoleAssistant, Content: history.WithMarker("The module path is"), Status: history.StatusInterrupted, CreatedAt: 1_700_000_000_004},
		history.Message{ID: "a3", ThreadID: "t", RunID: "r2", Role: history.RoleAssistant, Status: history.StatusError, Error: "HTTP 502 from endpoint", CreatedAt: 1_700_000_000_005},
	)
}

func TestExportMarkdown(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	exportCorpus(t, db)
	md, err := db.ExportMarkdown(context.Background(), "t")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# Fix the build\n",
		"## You\n\nWhy does `go build` fail?\n",
		"## Assistant\n\n> **Reasoning**\n>\n> Check go.mod first.\n> Then main.go.\n\nLet me look.\n",
		"**Tool call:** `read_file`\n\n```json\n{\n  \"path\": \"go.mod\"\n}\n```\n",
		"## Tool result: `read_file`\n\n````\nmodule x\n```\nfenced inside\n```\n````\n", // fence longer than the content's
		"The module path is\n\n_(interrupted)_\n",
		"_(error: HTTP 502 from endpoint)_",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q\n---\n%s", want, md)
		}
	}
	if strings.Contains(md, history.InterruptMarker) {
		t.Error("markdown shows the raw interrupt marker")
	}
	if strings.Index(md, "Why does") > strings.Index(md, "Let me look") {
		t.Error("messages out of order")
	}
	if _, err := db.ExportMarkdown(context.Background(), "nope"); !isNotFound(err) {
		t.Errorf("export of a missing thread = %v", err)
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := openTest(t)
	exportCorpus(t, src)
	doc, err := src.ExportJSON(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	var head struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(doc, &head); err != nil || head.Format != "juncture.thread" || head.Version != ExportVersion {
		t.Fatalf("document header = %+v, %v", head, err)
	}

	if !bytes.Contains(doc, []byte(`"toolState": "done"`)) {
		t.Errorf("export lacks the tool message's toolState:\n%s", doc)
	}

	dst := openTest(t)
	th, err := dst.ImportJSON(ctx, doc)
	if err != nil {
		t.Fatal(err)
	}
	if th.ID != "t" {
		t.Errorf("imported into a fresh database under a new id %s", th.ID)
	}
	again, err := dst.ExportJSON(ctx, th.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(doc, again) {
		t.Errorf("round trip changed the document:\n%s\n---\n%s", doc, again)
	}
	if m, err := dst.Message(ctx, "tr"); err != nil || m.ToolState != "done" {
		t.Errorf("imported tool message = %+v, %v; want toolState done", m, err)
	}
	if hits := search(t, dst, "module path "); len(hits) != 1 {
		t.Errorf("imported thread not searchable: %+v", hits)
	}
}

func TestImportCollisionGetsFreshIDs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t)
	exportCorpus(t, db)
	doc, err := db.ExportJSON(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	orig := mustMessages(t, db, "t")
	th, err := db.ImportJSON(ctx, doc)
	if err != nil {
		t.Fatal(err)
	}
	if th.ID == "t" || th.Title != "Fix the build" {
		t.Fatalf("collision import = %+v", th)
	}
	copied := mustMessages(t, db, th.ID)
	if len(copied) != len(orig) {
		t.Fatalf("%d messages copied, want %d", len(copied), len(orig))
	}
	seen := map[string]bool{}
	for _, m := range orig {
		seen[m.ID] = true
	}
	for i, m := range copied {
		if seen[m.ID] || m.ThreadID != th.ID {
			t.Errorf("message %d kept id %s / thread %s", i, m.ID, m.ThreadID)
		}
		if m.Content != orig[i].Content || m.Role != orig[i].Role || m.ToolState != orig[i].ToolState {
			t.Errorf("message %d changed: %+v", i, m)
		}
	}
	call := copied[1].ToolCalls[0].ID
	if call == "c1" || copied[2].ToolCallID != call {
		t.Errorf("tool call link broken: call %s, result for %s", call, copied[2].ToolCallID)
	}
	if _, repaired := history.ForModel(copied); repaired {
		t.Error("imported copy needs repair")
	}
	if got := mustMessages(t, db, "t"); ids(got) != ids(orig) {
		t.Errorf("original changed: %s", ids(got))
	}
}

func TestImportRejectsBadDocuments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t)
	good := func(edit func(map[string]any)) []byte {
		d := map[string]any{
			"format": "juncture.thread", "version": 1,
			"thread": map[string]any{"id": "x", "title": "T"},
			"messages": []any{
				map[string]any{"id": "m1", "role": "user", "content": "hi", "status": "complete"},
				map[string]any{"id": "m2", "role": "assistant", "content": "yo", "status": "complete"},
			},
		}
		edit(d)
		b, _ := json.Marshal(d)
		return b
	}
	msg := func(d map[string]any, i int) map[string]any { return d["messages"].([]any)[i].(map[string]any) }
	for _, c := range []struct {
		name string
		doc  []byte
		want string
	}{
		{"not JSON", []byte("# Markdown export"), "not a JSON document"},
		{"no format", good(func(d map[string]any) { delete(d, "format") }), `missing "format"`},
		{"other format", good(func(d map[string]any) { d["format"] = "chatgpt" }), "not a Juncture thread export"},
		{"newer version", good(func(d map[string]any) { d["version"] = ExportVersion + 1 }), "newer Juncture"},
		{"parent after its child", good(func(d map[string]any) { d["version"] = 2; msg(d, 0)["parentId"] = "m2" }), "its parent m2 is not an earlier message"},
		{"unknown parent", good(func(d map[string]any) { d["version"] = 2; msg(d, 1)["parentId"] = "zz" }), "its parent zz is not an earlier message"},
		{"unknown active leaf", good(func(d map[string]any) { d["version"] = 2; d["activeLeaf"] = "zz" }), "activeLeaf zz is not a message"},
		{"negative usage", good(func(d map[string]any) { msg(d, 1)["usage"] = map[string]any{"promptTokens": -1} }), "negative token usage"},
		{"no version", good(func(d map[string]any) { delete(d, "version") }), `missing "version"`},
		{"no thread", good(func(d map[string]any) { delete(d, "thread") }), `missing "thread"`},
		{"no messages", good(func(d map[string]any) { delete(d, "messages") }), `missing "messages"`},
		{"thread without id", good(func(d map[string]any) { d["thread"] = map[string]any{"title": "T"} }), "no id"},
		{"message without id", good(func(d map[string]any) { delete(msg(d, 1), "id") }), "message 2: empty message id"},
		{"bad role", good(func(d map[string]any) { msg(d, 0)["role"] = "wizard" }), `unknown role "wizard"`},
		{"bad status", good(func(d map[string]any) { msg(d, 0)["status"] = "done" }), `unknown status "done"`},
		{"duplicate id", good(func(d map[string]any) { msg(d, 1)["id"] = "m1" }), "appears twice"},
		{"other thread", good(func(d map[string]any) { msg(d, 1)["threadId"] = "y" }), "belongs to thread"},
		{"orphan tool message", good(func(d map[string]any) { msg(d, 1)["role"] = "tool" }), "no toolCallId"},
		{"wrong type", good(func(d map[string]any) { d["messages"] = "lots" }), "cannot unmarshal"},
		{"too large", append([]byte(`{"format":"juncture.thread","version":1,"pad":"`), bytes.Repeat([]byte("x"), MaxImportBytes)...), "at most 128 MiB"},
	} {
		_, err := db.ImportJSON(ctx, c.doc)
		if !errors.Is(err, ErrInvalidImport) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: ImportJSON = %v, want ErrInvalidImport mentioning %q", c.name, err, c.want)
		}
	}
	if page, _ := db.ListThreads(ctx, "", 10); len(page.Threads) != 0 {
		t.Errorf("a rejected document left threads behind: %+v", page.Threads)
	}
	// And a good one goes in whole.
	th, err := db.ImportJSON(ctx, good(func(map[string]any) {}))
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(mustMessages(t, db, th.ID)); got != "m1,m2" {
		t.Errorf("imported messages = %s", got)
	}
}

func TestImportStreamingBecomesInterrupted(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	doc := fmt.Sprintf(`{"format":"juncture.thread","version":1,"thread":{"id":"s"},"messages":[{"id":"m","role":"assistant","content":"half","status":%q}]}`, history.StatusStreaming)
	th, err := db.ImportJSON(context.Background(), []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	m := mustMessages(t, db, th.ID)[0]
	if m.Status != history.StatusInterrupted || m.Content != history.WithMarker("half") {
		t.Errorf("imported streaming message = %+v", m)
	}
}

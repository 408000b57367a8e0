package store

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

func TestCreateThreadIsIdempotent(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	mustThread(t, db, "t1", "First title")
	if err := db.CreateThread(ctx, history.Thread{ID: "t1", Title: "Other", CreatedAt: 5, UpdatedAt: 5}); err != nil {
		t.Fatal(err)
	}
	got, err := db.Thread(ctx, "t1")
	if err != nil || got.Title != "First title" || got.CreatedAt != 100 {
		t.Errorf("Thread = %+v, %v; want the first version kept", got, err)
	}
	if _, err := db.Thread(ctx, "nope"); !isNotFound(err) {
		t.Errorf("Thread(nope) = %v, want ErrNotFound", err)
	}
	if err := db.CreateThread(ctx, history.Thread{}); err == nil {
		t.Error("CreateThread accepted an empty id")
	}
}

func TestListThreadsOrderAndPages(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	threads := []history.Thread{
		{ID: "a", UpdatedAt: 10},
		{ID: "b", UpdatedAt: 50},
		{ID: "c", UpdatedAt: 30, Pinned: true},
		{ID: "d", UpdatedAt: 50}, // same activity as b: id breaks the tie
		{ID: "e", UpdatedAt: 40},
		{ID: "f", UpdatedAt: 5, Pinned: true},
		{ID: "g", UpdatedAt: 20},
	}
	for _, th := range threads {
		th.CreatedAt = 1
		if err := db.CreateThread(ctx, th); err != nil {
			t.Fatal(err)
		}
	}
	want := "c,f,d,b,e,g,a"
	for _, size := range []int{1, 2, 3, 7, 100} {
		t.Run(fmt.Sprint("page size ", size), func(t *testing.T) {
			var got []string
			cursor, pages := "", 0
			for {
				page, err := db.ListThreads(ctx, cursor, size)
				if err != nil {
					t.Fatal(err)
				}
				pages++
				if len(page.Threads) > size {
					t.Fatalf("page of %d for limit %d", len(page.Threads), size)
				}
				for _, th := range page.Threads {
					got = append(got, th.ID)
				}
				if page.NextCursor == "" {
					break
				}
				cursor = page.NextCursor
				if pages > 10 {
					t.Fatal("pagination does not end")
				}
			}
			if s := join(got); s != want {
				t.Errorf("order = %s, want %s", s, want)
			}
		})
	}
	if _, err := db.ListThreads(ctx, "garbage!", 10); !errors.Is(err, ErrBadCursor) {
		t.Errorf("bad cursor = %v, want ErrBadCursor", err)
	}
}

func TestActivityMovesThreadUp(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	for _, id := range []string{"old", "new"} {
		if err := db.CreateThread(ctx, history.Thread{ID: id, CreatedAt: 1, UpdatedAt: map[string]int64{"old": 10, "new": 20}[id]}); err != nil {
			t.Fatal(err)
		}
	}
	mustPut(t, db, userMsg("old", "m1", "hi again"))
	page, _ := db.ListThreads(ctx, "", 10)
	if page.Threads[0].ID != "old" {
		t.Errorf("after a message the thread list starts with %s, want old", page.Threads[0].ID)
	}
	// Renaming and pinning are not activity.
	before, _ := db.Thread(ctx, "new")
	if err := db.RenameThread(ctx, "new", "Renamed"); err != nil {
		t.Fatal(err)
	}
	after, _ := db.Thread(ctx, "new")
	if after.Title != "Renamed" || after.UpdatedAt != before.UpdatedAt {
		t.Errorf("after rename: %+v (before %+v)", after, before)
	}
	if err := db.SetPinned(ctx, "new", true); err != nil {
		t.Fatal(err)
	}
	page, _ = db.ListThreads(ctx, "", 10)
	if page.Threads[0].ID != "new" || !page.Threads[0].Pinned {
		t.Errorf("pinned thread not first: %+v", page.Threads)
	}
	for name, err := range map[string]error{
		"rename": db.RenameThread(ctx, "ghost", "x"),
		"pin":    db.SetPinned(ctx, "ghost", true),
		"delete": db.DeleteThread(ctx, "ghost"),
	} {
		if !isNotFound(err) {
			t.Errorf("%s of a missing thread = %v, want ErrNotFound", name, err)
		}
	}
}

// fillThread gives a thread one of every kind of record.
func fillThread(t *testing.T, db *DB, id, word string) {
	t.Helper()
	ctx := context.Background()
	mustThread(t, db, id, "About "+word)
	mustPut(t, db,
		userMsg(id, id+"-u", "tell me about "+word),
		assistantMsg(id, id+"-a", "", history.ToolCall{ID: id + "-call", Name: "read_file", Arguments: "{}"}),
		toolMsg(id, id+"-t", id+"-call", "read_file", word+" facts"),
	)
	if err := db.PutRun(ctx, history.Run{ID: id + "-run", ThreadID: id, Status: history.RunRunning, StartedAt: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.BeginToolExecution(ctx, history.ToolExecution{ToolCallID: id + "-call", ThreadID: id, ToolName: "read_file"}); err != nil {
		t.Fatal(err)
	}
	if err := db.PutInterrupts(ctx, []history.Interrupt{{ID: id + "-int", ThreadID: id, Kind: history.KindGeneric, Descriptor: []byte(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	if err := db.PutClientToolCall(ctx, history.ClientToolCall{ToolCallID: id + "-client", ThreadID: id, ToolName: "open_url"}); err != nil {
		t.Fatal(err)
	}
	if err := db.StageAnswers(ctx, id, []history.StagedAnswer{
		{ItemID: id + "-int", Payload: []byte(`{"approved":true}`)},
		{ItemID: id + "-client", Payload: []byte(`{"result":"opened"}`)},
	}); err != nil {
		t.Fatal(err)
	}
}

// rowsOf counts every record of a thread, in every table.
func rowsOf(t *testing.T, db *DB, thread string) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, table := range []string{"messages", "runs", "tool_executions", "interrupts", "client_tool_calls", "staged_answers", "threads"} {
		col := "thread_id"
		if table == "threads" {
			col = "id"
		}
		var n int
		if err := db.r.QueryRow("SELECT count(*) FROM "+table+" WHERE "+col+" = ?", thread).Scan(&n); err != nil {
			t.Fatal(err)
		}
		counts[table] = n
	}
	return counts
}

func checkIndex(t *testing.T, db *DB) {
	t.Helper()
	for _, table := range []string{"messages_fts", "threads_fts"} {
		if _, err := db.w.Exec("INSERT INTO " + table + " (" + table + ", rank) VALUES ('integrity-check', 1)"); err != nil {
			t.Errorf("%s out of step with its content: %v", table, err)
		}
	}
}

func TestDeleteThreadDeletesEverything(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	fillThread(t, db, "gone", "aardvarks")
	fillThread(t, db, "kept", "zebras")

	for table, n := range rowsOf(t, db, "gone") {
		if n == 0 {
			t.Fatalf("setup: no %s rows", table)
		}
	}
	if len(search(t, db, "aardvarks")) == 0 {
		t.Fatal("setup: not searchable")
	}
	if err := db.DeleteThread(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	for table, n := range rowsOf(t, db, "gone") {
		if n != 0 {
			t.Errorf("%d %s rows left after delete", n, table)
		}
	}
	if hits := search(t, db, "aardvarks"); len(hits) != 0 {
		t.Errorf("deleted thread still found by search: %+v", hits)
	}
	if hits := search(t, db, "zebras"); len(hits) == 0 {
		t.Error("the other thread is no longer searchable")
	}
	if got := ids(mustMessages(t, db, "kept")); got != "kept-u,kept-a,kept-t" {
		t.Errorf("other thread's messages = %s", got)
	}
	checkIndex(t, db)
}

func TestDeleteAllHistory(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	fillThread(t, db, "one", "llamas")
	fillThread(t, db, "two", "alpacas")
	if err := db.AddPermissionRule(ctx, history.PermissionRule{ID: "r", Tool: "read_file", Scope: history.ScopeTool}); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveSettings(ctx, map[string]string{"theme": "dark"}); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteAllHistory(ctx); err != nil {
		t.Fatal(err)
	}
	for _, th := range []string{"one", "two"} {
		for table, n := range rowsOf(t, db, th) {
			if n != 0 {
				t.Errorf("%s: %d %s rows left", th, n, table)
			}
		}
	}
	if page, _ := db.ListThreads(ctx, "", 10); len(page.Threads) != 0 {
		t.Errorf("threads left: %+v", page.Threads)
	}
	if hits := search(t, db, "llamas OR alpacas OR about"); len(hits) != 0 {
		t.Errorf("search still finds deleted history: %+v", hits)
	}
	if rules, _ := db.PermissionRules(ctx); len(rules) != 1 {
		t.Errorf("permission rules were deleted: %v", rules)
	}
	if s, _ := db.Settings(ctx); s["theme"] != "dark" {
		t.Errorf("settings were deleted: %v", s)
	}
	checkIndex(t, db)
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ","
		}
		out += x
	}
	return out
}

package store

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

// branchCorpus builds, in thread "t":
//
//	q1 ─ a1 ─ q2 ─ a2        (first version)
//	   └ a1b                  (a1 regenerated)
//	q1b ─ a1c                 (q1 edited: a second first message)
//
// and leaves q1b ─ a1c active.
func branchCorpus(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	mustThread(t, db, "t", "Tree")
	mustPut(t, db, userMsg("t", "q1", "first question about otters"), assistantMsg("t", "a1", "first answer"),
		userMsg("t", "q2", "second question"), assistantMsg("t", "a2", "second answer"))
	if err := db.SetActiveLeaf(ctx, "t", "q1"); err != nil { // regenerate a1
		t.Fatal(err)
	}
	mustPut(t, db, assistantMsg("t", "a1b", "another first answer"))
	if err := db.SetActiveLeaf(ctx, "t", ""); err != nil { // edit q1
		t.Fatal(err)
	}
	mustPut(t, db, userMsg("t", "q1b", "first question about beavers"), assistantMsg("t", "a1c", "beaver answer"))
}

func TestBranchesActivePathAndSiblings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t)
	branchCorpus(t, db)

	got := mustMessages(t, db, "t")
	if ids(got) != "q1b,a1c" {
		t.Fatalf("active path = %s, want q1b,a1c", ids(got))
	}
	if b := got[0].Branch; b == nil || !reflect.DeepEqual(*b, history.Branch{Index: 2, Count: 2, Siblings: []string{"q1", "q1b"}}) {
		t.Errorf("q1b branch = %+v, want 2 of 2 [q1 q1b]", b)
	}
	if got[1].Branch != nil || got[1].ParentID != "q1b" {
		t.Errorf("a1c = parent %q branch %+v; want parent q1b, no branch", got[1].ParentID, got[1].Branch)
	}

	for _, c := range []struct {
		name, selectID, wantPath string
		wantBranch               map[string]string // id → "index/count"
	}{
		// Back to the first version of q1: to where the person last was
		// in it (a1b, the regenerated answer), not to the oldest leaf.
		{"previous question version", "q1", "q1,a1b", map[string]string{"q1": "1/2", "a1b": "2/2"}},
		{"older answer", "a1", "q1,a1,q2,a2", map[string]string{"q1": "1/2", "a1": "1/2"}},
		{"already on the path", "q2", "q1,a1,q2,a2", nil},
		{"newest version again", "q1b", "q1b,a1c", map[string]string{"q1b": "2/2"}},
	} {
		leaf, err := db.SelectBranch(ctx, "t", c.selectID)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		path := mustMessages(t, db, "t")
		if ids(path) != c.wantPath || leaf != path[len(path)-1].ID {
			t.Errorf("%s: path = %s (leaf %s), want %s", c.name, ids(path), leaf, c.wantPath)
		}
		for _, m := range path {
			want, has := c.wantBranch[m.ID]
			switch {
			case has && (m.Branch == nil || strings.Join([]string{itoa(m.Branch.Index), itoa(m.Branch.Count)}, "/") != want):
				t.Errorf("%s: %s branch = %+v, want %s", c.name, m.ID, m.Branch, want)
			case !has && c.wantBranch != nil && m.Branch != nil:
				t.Errorf("%s: %s has branch %+v, want none", c.name, m.ID, m.Branch)
			}
		}
	}

	// A new message follows the active leaf, whatever was stored last.
	if _, err := db.SelectBranch(ctx, "t", "a2"); err != nil {
		t.Fatal(err)
	}
	mustPut(t, db, userMsg("t", "q3", "third"))
	if p := mustMessages(t, db, "t"); ids(p) != "q1,a1,q2,a2,q3" {
		t.Errorf("after a new message: %s", ids(p))
	}

	if p, err := db.PathTo(ctx, "t", "a1c"); err != nil || ids(p) != "q1b,a1c" {
		t.Errorf("PathTo(a1c) = %s, %v", ids(p), err)
	}
	all, err := db.AllMessages(ctx, "t")
	if err != nil || ids(all) != "q1,a1,q2,a2,a1b,q1b,a1c,q3" {
		t.Errorf("AllMessages = %s, %v", ids(all), err)
	}
	for _, e := range []struct {
		name string
		err  error
	}{
		{"select unknown", func() error { _, err := db.SelectBranch(ctx, "t", "nope"); return err }()},
		{"leaf unknown", db.SetActiveLeaf(ctx, "t", "nope")},
		{"leaf in another thread", func() error { mustThread(t, db, "u", ""); return db.SetActiveLeaf(ctx, "u", "q1") }()},
		{"path to unknown", func() error { _, err := db.PathTo(ctx, "t", "nope"); return err }()},
		{"unknown parent", db.PutMessage(ctx, history.Message{ID: "x", ThreadID: "t", Role: history.RoleUser, ParentID: "nope"})},
	} {
		if e.err == nil || (e.name != "unknown parent" && !errors.Is(e.err, ErrNotFound)) {
			t.Errorf("%s: err = %v", e.name, e.err)
		}
	}
	// Search finds text on every branch.
	for _, q := range []string{"otters", "beavers", "another"} {
		hits, err := db.SearchHistory(ctx, q, 10)
		if err != nil || len(hits) != 1 {
			t.Errorf("search %q = %+v, %v; want one hit", q, hits, err)
		}
	}
}

func TestBranchExportImportKeepsTheTree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := openTest(t)
	branchCorpus(t, src)
	if _, err := src.SelectBranch(ctx, "t", "a1b"); err != nil {
		t.Fatal(err)
	}
	doc, err := src.ExportJSON(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	md, err := src.ExportMarkdown(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md, "another first answer") || strings.Contains(md, "beaver") || strings.Contains(md, "second answer") {
		t.Errorf("Markdown export is not the active path:\n%s", md)
	}
	for _, into := range []struct {
		name  string
		db    *DB
		fresh bool
	}{{"empty database", openTest(t), false}, {"same database (ids taken)", src, true}} {
		th, err := into.db.ImportJSON(ctx, doc)
		if err != nil {
			t.Fatalf("%s: %v", into.name, err)
		}
		all, err := into.db.AllMessages(ctx, th.ID)
		if err != nil || len(all) != 7 {
			t.Fatalf("%s: imported %d messages, %v", into.name, len(all), err)
		}
		path := mustMessages(t, into.db, th.ID)
		texts := []string{}
		for _, m := range path {
			texts = append(texts, m.Content)
		}
		if strings.Join(texts, "|") != "first question about otters|another first answer" {
			t.Errorf("%s: active path after import = %q", into.name, texts)
		}
		if b := path[1].Branch; b == nil || b.Index != 2 || b.Count != 2 {
			t.Errorf("%s: regenerated answer branch = %+v", into.name, b)
		}
		if into.fresh == (th.ID == "t") {
			t.Errorf("%s: imported as %s", into.name, th.ID)
		}
		if !into.fresh {
			again, _ := into.db.ExportJSON(ctx, th.ID)
			if string(again) != string(doc) {
				t.Errorf("round trip changed the document:\n%s\n---\n%s", doc, again)
			}
		}
	}
	// A version 1 document (linear, no parents) still imports, as a chain.
	v1 := `{"format":"juncture.thread","version":1,"thread":{"id":"old"},"messages":[
{"id":"o1","role":"user","content":"a","status":"complete"},{"id":"o2","role":"assistant","content":"b","status":"complete"},
{"id":"o3","role":"user","content":"c","status":"complete"}]}`
	dst := openTest(t)
	if _, err := dst.ImportJSON(ctx, []byte(v1)); err != nil {
		t.Fatal(err)
	}
	if p := mustMessages(t, dst, "old"); ids(p) != "o1,o2,o3" || p[2].ParentID != "o2" || p[0].ParentID != "" {
		t.Errorf("version 1 import = %s parents %q %q", ids(p), p[0].ParentID, p[2].ParentID)
	}
}

func TestThreadOptionsAndUsage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t)
	mustThread(t, db, "t", "")
	o := history.ThreadOptions{EndpointID: "ep-2", Model: "qwen3:8b", PresetID: "code", Tools: &[]string{"read_file"}, SystemPrompt: "not stored here"}
	if err := db.SetThreadOptions(ctx, "t", o); err != nil {
		t.Fatal(err)
	}
	got, err := db.Thread(ctx, "t")
	o.SystemPrompt = ""
	if err != nil || !reflect.DeepEqual(got.Options, o) {
		t.Errorf("options = %+v, %v; want %+v", got.Options, err, o)
	}
	if err := db.SetThreadOptions(ctx, "missing", o); !errors.Is(err, ErrNotFound) {
		t.Errorf("options of a missing thread: %v", err)
	}
	if err := db.SetThreadOptions(ctx, "t", history.ThreadOptions{}); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Thread(ctx, "t"); !reflect.DeepEqual(got.Options, history.ThreadOptions{}) {
		t.Errorf("cleared options = %+v", got.Options)
	}
	// No tools at all is a choice, not "the default".
	if err := db.SetThreadOptions(ctx, "t", history.ThreadOptions{Tools: &[]string{}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Thread(ctx, "t"); got.Options.Tools == nil || len(*got.Options.Tools) != 0 {
		t.Errorf("an empty tool list read back as %#v", got.Options.Tools)
	}

	a := assistantMsg("t", "a1", "x")
	a.Usage = &history.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120}
	b := assistantMsg("t", "a2", "y") // the endpoint sent no usage
	c := assistantMsg("t", "a3", "z")
	c.Usage = &history.Usage{PromptTokens: 130, CompletionTokens: 5, TotalTokens: 135}
	streaming := assistantMsg("t", "a4", "")
	streaming.Status = history.StatusStreaming
	mustPut(t, db, userMsg("t", "q", "hi"), a, b)
	if err := db.SetActiveLeaf(ctx, "t", "q"); err != nil {
		t.Fatal(err)
	}
	mustPut(t, db, c, streaming) // another branch still counts: it was paid for
	u, err := db.ThreadUsage(ctx, "t")
	want := history.ThreadUsage{Total: history.Usage{PromptTokens: 230, CompletionTokens: 25, TotalTokens: 255}, Answers: 3, Unreported: 1}
	if err != nil || u != want {
		t.Errorf("usage = %+v, %v; want %+v", u, err, want)
	}
}

// TestMigrateFromV4 opens a committed v4 database (linear threads) and
// checks that every thread reads exactly as v4 read it.
func TestMigrateFromV4(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := copyFixture(t, fixtureV4)

	// What v4 held, read raw before the migration.
	raw := openRaw(t, path, "mode=ro")
	before := map[string][]string{}
	rows, err := raw.Query("SELECT thread_id, id, role, content, reasoning, coalesce(tool_calls, ''), tool_call_id, coalesce(parts, ''), status, created_at FROM messages ORDER BY seq")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var tid, id, role, content, reasoning, calls, callID, parts, status string
		var created int64
		if err := rows.Scan(&tid, &id, &role, &content, &reasoning, &calls, &callID, &parts, &status, &created); err != nil {
			t.Fatal(err)
		}
		before[tid] = append(before[tid], strings.Join([]string{id, role, content, reasoning, calls, callID, parts, status, itoa64(created)}, "\x1f"))
	}
	rows.Close()
	raw.Close()

	db := mustOpen(t, ctx, path)
	defer db.Close()
	for _, tid := range []string{"t-trip", "t-img", "t-empty"} {
		msgs := mustMessages(t, db, tid)
		var after []string
		for i, m := range msgs {
			calls, parts := "", ""
			if len(m.ToolCalls) > 0 {
				b, _ := encodeToolCalls(m.ToolCalls)
				calls = b.(string)
			}
			if len(m.Parts) > 0 {
				b, _ := encodeParts(m.Parts)
				parts = b.(string)
			}
			after = append(after, strings.Join([]string{m.ID, string(m.Role), m.Content, m.Reasoning, calls, m.ToolCallID, parts, string(m.Status), itoa64(m.CreatedAt)}, "\x1f"))
			wantParent := ""
			if i > 0 {
				wantParent = msgs[i-1].ID
			}
			if m.ParentID != wantParent || m.Branch != nil || m.Usage != nil {
				t.Errorf("%s/%s: parent %q branch %+v usage %+v; want parent %q", tid, m.ID, m.ParentID, m.Branch, m.Usage, wantParent)
			}
		}
		if !reflect.DeepEqual(after, before[tid]) {
			t.Errorf("%s after migration:\n%q\nwant\n%q", tid, after, before[tid])
		}
	}
	// The tree goes on from the old leaf; search and pending items held.
	mustPut(t, db, userMsg("t-trip", "p7", "Thanks"))
	if p := mustMessages(t, db, "t-trip"); p[len(p)-1].ParentID != "p6" {
		t.Errorf("a new message after the migration follows %q, want p6", p[len(p)-1].ParentID)
	}
	if err := db.SetActiveLeaf(ctx, "t-trip", "p4"); err != nil {
		t.Fatal(err)
	}
	mustPut(t, db, userMsg("t-trip", "p5b", "And on Monday?"))
	if p := mustMessages(t, db, "t-trip"); ids(p) != "p1,p2,p3,p4,p5b" || p[4].Branch == nil || p[4].Branch.Count != 2 {
		t.Errorf("a branch on a migrated thread: %s", ids(p))
	}
	if hits, err := db.SearchHistory(ctx, "Lyon", 10); err != nil || len(hits) != 1 {
		t.Errorf("search after migration = %+v, %v", hits, err)
	}
	if p, err := db.PendingInterrupts(ctx, "t-img"); err != nil || len(p) != 1 || p[0].ID != "int-w" {
		t.Errorf("pending after migration = %+v, %v", p, err)
	}
	if th, err := db.Thread(ctx, "t-trip"); err != nil || !th.Pinned || th.Title != "Plan the trip" {
		t.Errorf("thread after migration = %+v, %v", th, err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// A crash while a branch streams: recovery ends the answer on its branch
// (marked interrupted) and adds the result of a call that was running
// right after it, on that branch; the other versions are untouched.
func TestRecoverMidBranch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t)
	branchCorpus(t, db) // active: q1b ─ a1c
	call := history.ToolCall{ID: "c9", Name: "run_command", Arguments: `{"cmd":"make"}`}
	mustPut(t, db, userMsg("t", "q2b", "build it"), assistantMsg("t", "a2b", "building", call))
	if _, err := db.BeginToolExecution(ctx, history.ToolExecution{ToolCallID: "c9", ThreadID: "t", ToolName: "run_command", Arguments: call.Arguments, State: history.ToolStarted, StartedAt: 1}); err != nil {
		t.Fatal(err)
	}
	// A second branch point, its answer cut mid-stream by the crash.
	if err := db.SetActiveLeaf(ctx, "t", "q1b"); err != nil {
		t.Fatal(err)
	}
	half := assistantMsg("t", "a1d", "half an ans")
	half.Status = history.StatusStreaming
	mustPut(t, db, half)
	if _, err := db.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	path := mustMessages(t, db, "t")
	if ids(path) != "q1b,a1d" || path[1].Status != history.StatusInterrupted || !strings.HasSuffix(path[1].Content, history.InterruptMarker) {
		t.Fatalf("recovered path = %s %+v", ids(path), path[len(path)-1])
	}
	if b := path[1].Branch; b == nil || b.Count != 2 || b.Index != 2 {
		t.Errorf("recovered answer branch = %+v", b)
	}
	// The running call's result went to the end of the active path: the
	// branch switch came after the call, which a runtime never does while
	// a call runs, so this is the worst case and still valid.
	all, err := db.AllMessages(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	var result *history.Message
	for i := range all {
		if all[i].Role == history.RoleTool && all[i].ToolCallID == "c9" {
			result = &all[i]
		}
	}
	if result == nil || result.Content != history.ResultAppStoppedMidRun {
		t.Fatalf("no recovered result for c9: %+v", result)
	}
	if old := mustPathTo(t, db, "a2b"); ids(old) != "q1b,a1c,q2b,a2b" {
		t.Errorf("other version = %s", ids(old))
	}
}

func mustPathTo(t *testing.T, db *DB, id string) []history.Message {
	t.Helper()
	p, err := db.PathTo(context.Background(), "t", id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestToolCallIDsCoverEveryBranch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t)
	branchCorpus(t, db) // active: q1b ─ a1c
	if _, err := db.SelectBranch(ctx, "t", "a2"); err != nil {
		t.Fatal(err)
	}
	mustPut(t, db, assistantMsg("t", "a3", "", history.ToolCall{ID: "call_0", Name: "read_file"}, history.ToolCall{ID: "call_1", Name: "list"}))
	if _, err := db.SelectBranch(ctx, "t", "q1b"); err != nil {
		t.Fatal(err)
	}
	mustPut(t, db, assistantMsg("t", "a4", "", history.ToolCall{ID: "call_2", Name: "read_file"}))
	got, err := db.ToolCallIDs(ctx, "t")
	if err != nil || !reflect.DeepEqual(got, map[string]bool{"call_0": true, "call_1": true, "call_2": true}) {
		t.Errorf("ToolCallIDs = %v, %v", got, err)
	}
	if got, err := db.ToolCallIDs(ctx, "nobody"); err != nil || len(got) != 0 {
		t.Errorf("a thread without calls: %v, %v", got, err)
	}
}

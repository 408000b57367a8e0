package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

func TestOpenConfiguresDurability(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	for _, c := range []struct {
		pragma string
		want   string
	}{
		{"journal_mode", "wal"},
		{"foreign_keys", "1"},
		{"synchronous", "2"}, // FULL
		{"busy_timeout", "5000"},
		{"user_version", strconv.Itoa(SchemaVersion)},
	} {
		var got string
		if err := db.w.QueryRowContext(ctx, "PRAGMA "+c.pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("PRAGMA %s = %s, want %s", c.pragma, got, c.want)
		}
	}
	// The read pool cannot write, whatever a bug would try.
	if _, err := db.r.ExecContext(ctx, "INSERT INTO settings (key, value) VALUES ('x', 'y')"); err == nil {
		t.Error("read pool accepted a write")
	}
	// A brand-new database has nothing to back up.
	if matches, _ := filepath.Glob(db.Path() + ".pre-*"); len(matches) != 0 {
		t.Errorf("backup made for a new database: %v", matches)
	}
}

func TestReopenKeepsData(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "dir", "j?#%.db") // odd characters must not break the URI
	db := mustOpen(t, ctx, path)
	mustThread(t, db, "t1", "kept")
	mustPut(t, db, userMsg("t1", "m1", "hello"))
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database not at the given path: %v", err)
	}
	db = mustOpen(t, ctx, path)
	defer db.Close()
	if got := ids(mustMessages(t, db, "t1")); got != "m1" {
		t.Errorf("after reopen messages = %q", got)
	}
	if matches, _ := filepath.Glob(path + ".pre-*"); len(matches) != 0 {
		t.Errorf("backup made when nothing was migrated: %v", matches)
	}
}

// migrated opens a copy of fixture (migrating it) and its pre-migration
// backup, which must be at version from; both close when the test ends.
func migrated(t *testing.T, fixture string, from int) (*DB, *sql.DB) {
	t.Helper()
	ctx := context.Background()
	path := copyFixture(t, fixture)
	db := mustOpen(t, ctx, path)
	t.Cleanup(func() { db.Close() })
	bak := openRaw(t, BackupPath(path, from+1), "mode=ro")
	t.Cleanup(func() { bak.Close() })
	if v, err := userVersion(ctx, bak); err != nil || v != from {
		t.Errorf("backup user_version = %d, %v; want %d", v, err, from)
	}
	return db, bak
}

func TestMigrateFromV1(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, bak := migrated(t, fixtureV1, 1) // the backup is a faithful v1 copy
	var n int
	if err := bak.QueryRow("SELECT count(*) FROM messages").Scan(&n); err != nil || n != 6 {
		t.Errorf("backup holds %d messages (%v), want 6", n, err)
	}

	// Every record survived.
	page, err := db.ListThreads(ctx, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Threads) != 2 || page.Threads[0].ID != "t-zurich" || !page.Threads[0].Pinned {
		t.Fatalf("threads after migration = %+v", page.Threads)
	}
	msgs := mustMessages(t, db, "t-zurich")
	if ids(msgs) != "m1,m2,m3,m4" {
		t.Fatalf("messages after migration = %s", ids(msgs))
	}
	if len(msgs[1].ToolCalls) != 1 || msgs[1].ToolCalls[0].Arguments != `{"q":"fondue"}` {
		t.Errorf("tool call after migration = %+v", msgs[1].ToolCalls)
	}
	if r, err := db.Run(ctx, "r2"); err != nil || string(r.Outcome) != `{"type":"success"}` {
		t.Errorf("run r2 = %+v, %v", r, err)
	}
	if e, err := db.ToolExecution(ctx, "t-zurich", "call-1"); err != nil || e.State != history.ToolFinished {
		t.Errorf("tool execution = %+v, %v", e, err)
	}
	if s, err := db.Settings(ctx); err != nil || s["model"] != "llama3" {
		t.Errorf("settings = %v, %v", s, err)
	}
	if r, err := db.PermissionRules(ctx); err != nil || len(r) != 1 {
		t.Errorf("rules = %v, %v", r, err)
	}

	// v1 text is searchable after the upgrade, marker excluded.
	for _, c := range []struct{ q, wantMsg, wantThread string }{
		{"fondue tonight", "m1", "t-zurich"},
		{"dezaley", "m3", "t-zurich"}, // tool result, diacritics folded
		{"frost", "m6", "t-garden"},
	} {
		hits := search(t, db, c.q)
		if len(hits) == 0 || hits[0].MessageID != c.wantMsg || hits[0].ThreadID != c.wantThread {
			t.Errorf("search %q = %+v, want message %s", c.q, hits, c.wantMsg)
		}
	}
	if hits := search(t, db, "zurich"); len(hits) == 0 || hits[0].MessageID != "" || hits[0].ThreadTitle != "Trip to Zürich" {
		t.Errorf("title search after migration = %+v", hits)
	}
	if hits := search(t, db, "system user interrupted "); len(hits) != 0 {
		t.Errorf("the interrupt marker was indexed: %+v", hits)
	}
	// New writes are indexed too.
	mustPut(t, db, userMsg("t-garden", "m7", "and raclette?"))
	if hits := search(t, db, "raclette"); len(hits) != 1 {
		t.Errorf("new message not searchable: %+v", hits)
	}
}

// failedMigration copies fixture, creates a table named obstacle in the
// way of a later migration, and checks that Open fails and leaves
// user_version at want. It returns the copy's path and a raw handle on it,
// closed at the end of the test.
func failedMigration(t *testing.T, fixture, obstacle string, want int) (string, *sql.DB) {
	t.Helper()
	ctx := context.Background()
	path := copyFixture(t, fixture)
	raw := openRaw(t, path)
	exec(t, raw, "CREATE TABLE "+obstacle+" (x)")
	raw.Close()

	if _, err := Open(ctx, path); err == nil {
		t.Fatal("Open succeeded despite a failing migration")
	}
	raw = openRaw(t, path)
	t.Cleanup(func() { raw.Close() })
	if v, _ := userVersion(ctx, raw); v != want {
		t.Errorf("user_version = %d after a failed migration, want %d", v, want)
	}
	return path, raw
}

func TestFailedMigrationChangesNothing(t *testing.T) {
	t.Parallel()
	// Something in the way of migration 2.
	path, raw := failedMigration(t, fixtureV1, "messages_fts", 1)
	var n int
	if err := raw.QueryRow("SELECT count(*) FROM messages").Scan(&n); err != nil || n != 6 {
		t.Errorf("messages after failed migration = %d, %v", n, err)
	}
	if _, err := os.Stat(BackupPath(path, 2)); err != nil {
		t.Errorf("no backup before the failed migration: %v", err)
	}
}

func TestRefuseNewerSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := copyFixture(t, fixtureNewer)
	before, _ := os.ReadFile(path)

	_, err := Open(ctx, path)
	var newer *NewerSchemaError
	if !errors.As(err, &newer) {
		t.Fatalf("Open = %v, want *NewerSchemaError", err)
	}
	if newer.Found != newerVersion || newer.Supported != SchemaVersion || newer.Path != path {
		t.Errorf("error = %+v", newer)
	}
	if !strings.Contains(err.Error(), "newer Juncture") {
		t.Errorf("message does not tell the person what to do: %s", err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("the newer database was modified")
	}
	// The lock file stays (a lock file is never deleted: a waiting
	// opener could lock a file already unlinked); nothing else is added.
	if matches, _ := filepath.Glob(path + "*"); len(matches) != 2 || matches[1] != LockPath(path) {
		t.Errorf("files left next to the database: %v", matches)
	}

	// It can still be browsed through a copy.
	ro, _, err := OpenReadOnlyCopy(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if th, err := ro.Thread(ctx, "t-future"); err != nil || th.Title != "From the future" {
		t.Errorf("read-only copy thread = %+v, %v", th, err)
	}
}

func TestCorruptDatabase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "juncture.db")
	db := mustOpen(t, ctx, path)
	mustThread(t, db, "t1", "Survivor")
	mustPut(t, db, userMsg("t1", "m1", "still readable"))
	if err := db.SaveSettings(ctx, map[string]string{"theme": "dark"}); err != nil {
		t.Fatal(err)
	}
	var root, pageSize int64
	db.w.QueryRow("SELECT rootpage FROM sqlite_schema WHERE name = 'settings'").Scan(&root)
	db.w.QueryRow("PRAGMA page_size").Scan(&pageSize)
	if err := db.Close(); err != nil { // checkpoints the WAL into the file
		t.Fatal(err)
	}
	// Break the settings table's root page: invalid b-tree page type.
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{0x77}, (root-1)*pageSize); err != nil {
		t.Fatal(err)
	}
	f.Close()
	before, _ := os.ReadFile(path)

	_, err = Open(ctx, path)
	var corrupt *CorruptError
	if !errors.As(err, &corrupt) || corrupt.Path != path || corrupt.Detail == "" {
		t.Fatalf("Open = %v, want *CorruptError", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the corrupt database was modified")
	}
	if _, err := os.Stat(BackupPath(path, SchemaVersion+1)); err == nil {
		t.Error("a backup was attempted")
	}

	ro, copyPath, err := OpenReadOnlyCopy(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if copyPath == path || filepath.Dir(copyPath) == filepath.Dir(path) {
		t.Errorf("copy at %s is not a separate copy", copyPath)
	}
	if got := ids(mustMessages(t, ro, "t1")); got != "m1" {
		t.Errorf("read-only copy messages = %q", got)
	}
	if err := ro.RenameThread(ctx, "t1", "x"); !errors.Is(err, ErrReadOnly) {
		t.Errorf("write through read-only copy = %v, want ErrReadOnly", err)
	}
	if err := ro.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(copyPath); !os.IsNotExist(err) {
		t.Errorf("copy not removed on Close: %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the corrupt database was modified by the copy")
	}
}

func TestNotADatabase(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "juncture.db")
	junk := bytes.Repeat([]byte("this is not sqlite "), 400)
	if err := os.WriteFile(path, junk, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path)
	var corrupt *CorruptError
	if !errors.As(err, &corrupt) {
		t.Fatalf("Open = %v, want *CorruptError", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(junk, after) {
		t.Error("the file was modified")
	}
}

// A crash leaves recent commits in the -wal file; a read-only copy must
// include them.
func TestReadOnlyCopyIncludesWAL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t) // still open: its last commits are only in the WAL
	mustThread(t, db, "t1", "Only in the WAL")
	mustPut(t, db, userMsg("t1", "m1", "recent words"))
	if fi, err := os.Stat(db.Path() + "-wal"); err != nil || fi.Size() == 0 {
		t.Fatalf("setup: no WAL content (%v)", err)
	}
	ro, _, err := OpenReadOnlyCopy(ctx, db.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if th, err := ro.Thread(ctx, "t1"); err != nil || th.Title != "Only in the WAL" {
		t.Errorf("copy thread = %+v, %v", th, err)
	}
	if hits := search(t, ro, "recent words"); len(hits) != 1 {
		t.Errorf("copy search = %+v", hits)
	}
}

// v3 rebuilds tool_executions and client_tool_calls keyed per thread: every
// row of a v2 database survives, the new columns take their defaults, and
// the rebuilt tables keep their constraints, indexes and cascade.
func TestMigrateFromV2(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _ := migrated(t, fixtureV2, 2)

	// Tool executions and client tool calls survived the rebuild.
	for _, c := range []struct {
		thread, call string
		want         history.ToolExecution
	}{
		{"t-build", "functions.read_file:0", history.ToolExecution{ToolCallID: "functions.read_file:0", ThreadID: "t-build", RunID: "rb1",
			ToolName: "read_file", Arguments: `{"path":"go.mod"}`, State: history.ToolFinished, Result: "module example.com/x",
			StartedAt: 1710000150000, FinishedAt: 1710000200000}},
		{"t-notes", "call_9", history.ToolExecution{ToolCallID: "call_9", ThreadID: "t-notes", RunID: "rn1",
			ToolName: "run_command", Arguments: `{"cmd":"sleep 60"}`, State: history.ToolStarted, StartedAt: 1710001150000}},
	} {
		if got, err := db.ToolExecution(ctx, c.thread, c.call); err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ToolExecution(%s, %s) = %+v, %v; want %+v", c.thread, c.call, got, err, c.want)
		}
	}
	wantDone := history.ClientToolCall{ToolCallID: "call_0", ThreadID: "t-notes", RunID: "rn1", ToolName: "copy_to_clipboard",
		Arguments: "{}", State: history.ClientToolDone, Result: "copied", CreatedAt: 1710001110000}
	if got, err := db.ClientToolCall(ctx, "t-notes", "call_0"); err != nil || got != wantDone {
		t.Errorf("ClientToolCall(call_0) = %+v, %v; want %+v", got, err, wantDone)
	}
	if p, err := db.PendingClientToolCalls(ctx, "t-notes"); err != nil || len(p) != 1 || p[0].ToolCallID != "call_1" || p[0].Arguments != `{"url":"https://example.com"}` {
		t.Errorf("pending client calls = %+v, %v", p, err)
	}
	if p, err := db.PendingInterrupts(ctx, "t-build"); err != nil || len(p) != 1 || p[0].ID != "int-write" || p[0].ToolCallID != "functions.write_file:1" {
		t.Errorf("pending interrupts = %+v, %v", p, err)
	}
	if got, err := db.PendingCounts(ctx, []string{"t-build", "t-notes"}); err != nil || !reflect.DeepEqual(got, map[string]int{"t-build": 1, "t-notes": 1}) {
		t.Errorf("PendingCounts = %v, %v", got, err)
	}
	if r, err := db.PermissionRules(ctx); err != nil || len(r) != 1 || r[0].Pattern != "git status" {
		t.Errorf("rules = %+v, %v", r, err)
	}

	// New columns default.
	for _, m := range append(mustMessages(t, db, "t-build"), mustMessages(t, db, "t-notes")...) {
		if m.ToolState != "" {
			t.Errorf("message %s: ToolState = %q after migration, want empty", m.ID, m.ToolState)
		}
	}
	if r, err := db.Run(ctx, "rb1"); err != nil || r.Steps != 0 || string(r.Outcome) != `{"type":"interrupt"}` {
		t.Errorf("run rb1 = %+v, %v", r, err)
	}
	if s, err := db.StagedAnswers(ctx, "t-build"); err != nil || len(s) != 0 {
		t.Errorf("staged answers after migration = %+v, %v", s, err)
	}

	// The rebuilt tables are sound: keys, indexes, foreign keys.
	var fkProblems int
	if err := db.r.QueryRowContext(ctx, "SELECT count(*) FROM pragma_foreign_key_check").Scan(&fkProblems); err != nil || fkProblems != 0 {
		t.Errorf("foreign_key_check: %d problems, %v", fkProblems, err)
	}
	for table, want := range map[string]string{
		"tool_executions":   "thread_id,tool_call_id",
		"client_tool_calls": "seq",
		"staged_answers":    "thread_id,item_id",
	} {
		rows, err := db.r.QueryContext(ctx, "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", table)
		if err != nil {
			t.Fatal(err)
		}
		var pk []string
		for rows.Next() {
			var n string
			rows.Scan(&n)
			pk = append(pk, n)
		}
		rows.Close()
		if got := strings.Join(pk, ","); got != want {
			t.Errorf("%s primary key = (%s), want (%s)", table, got, want)
		}
	}
	for _, idx := range []string{"tool_executions_started", "client_tool_calls_thread"} {
		var n int
		if err := db.r.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = ?", idx).Scan(&n); err != nil || n != 1 {
			t.Errorf("index %s: %d, %v", idx, n, err)
		}
	}
	var leftovers int
	db.r.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE name LIKE '%_v3'").Scan(&leftovers)
	if leftovers != 0 {
		t.Errorf("%d temporary v3 tables left in the schema", leftovers)
	}

	// The ids the v2 schema made global are now per thread.
	if prior, err := db.BeginToolExecution(ctx, history.ToolExecution{ToolCallID: "functions.read_file:0", ThreadID: "t-notes", ToolName: "read_file"}); err != nil || prior != nil {
		t.Errorf("Begin of t-build's call id in t-notes = %+v, %v; want a new execution", prior, err)
	}
	if err := db.PutClientToolCall(ctx, history.ClientToolCall{ToolCallID: "call_1", ThreadID: "t-build", ToolName: "open_url"}); err != nil {
		t.Errorf("PutClientToolCall of t-notes's call id in t-build: %v", err)
	}
	if c, err := db.ClientToolCall(ctx, "t-notes", "call_1"); err != nil || c.State != history.ClientToolPending || c.RunID != "rn1" {
		t.Errorf("t-notes's call_1 after t-build stored its own = %+v, %v", c, err)
	}

	// Recovery finishes the execution the v2 build left started.
	rep, err := db.Recover(ctx)
	if err != nil || rep.FinishedToolExecutions != 2 || rep.PendingInterrupts != 1 || rep.PendingClientToolCalls != 2 {
		t.Errorf("Recover = %+v, %v", rep, err)
	}
	if e, _ := db.ToolExecution(ctx, "t-notes", "call_9"); e.State != history.ToolFinished || e.Result != history.ResultAppStoppedMidRun {
		t.Errorf("call_9 after recovery = %+v", e)
	}
	if e, _ := db.ToolExecution(ctx, "t-build", "functions.read_file:0"); e.Result != "module example.com/x" {
		t.Errorf("t-build's finished execution changed by recovery: %+v", e)
	}

	// The cascade still reaches the rebuilt tables.
	if err := db.DeleteThread(ctx, "t-notes"); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"tool_executions", "client_tool_calls"} {
		var n int
		db.r.QueryRowContext(ctx, "SELECT count(*) FROM "+table+" WHERE thread_id = 't-notes'").Scan(&n)
		if n != 0 {
			t.Errorf("%d %s rows of a deleted thread", n, table)
		}
	}
	if _, err := db.ToolExecution(ctx, "t-build", "functions.read_file:0"); err != nil {
		t.Errorf("the other thread's execution went with the delete: %v", err)
	}
	checkIndex(t, db)
}

// A v3 migration that fails halfway leaves the v2 tables as they were.
func TestFailedV3MigrationChangesNothing(t *testing.T) {
	t.Parallel()
	// staged_answers is in the way of the last statement.
	_, raw := failedMigration(t, fixtureV2, "staged_answers", 2)
	for table, want := range map[string]int{"tool_executions": 2, "client_tool_calls": 2} {
		var n int
		if err := raw.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil || n != want {
			t.Errorf("%s after failed migration = %d, %v; want %d", table, n, err, want)
		}
	}
	var pk int
	if err := raw.QueryRow("SELECT pk FROM pragma_table_info('tool_executions') WHERE name = 'tool_call_id'").Scan(&pk); err != nil || pk != 1 {
		t.Errorf("tool_executions lost its v2 key: pk = %d, %v", pk, err)
	}
	var cols int
	raw.QueryRow("SELECT count(*) FROM pragma_table_info('messages') WHERE name = 'tool_state'").Scan(&cols)
	if cols != 0 {
		t.Error("messages.tool_state exists after a failed migration")
	}
}

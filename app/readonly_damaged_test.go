package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/juncture-app/juncture/app/datafolder"
	"github.com/juncture-app/juncture/internal/testkit/dbdamage"
	"github.com/juncture-app/juncture/store"
)

// TestReadOnlyCopyOfDamagedSettingsOpens: the damage is in the settings
// table itself. The app refuses the database and offers a read-only copy;
// the copy must open all the same (its chats are what the person wants to
// read), running with the defaults and without the saved keys, instead of
// failing at "moving the keys out of the database: … malformed" before the
// window could show anything. Found by the read-only copy's e2e story.
func TestReadOnlyCopyOfDamagedSettingsOpens(t *testing.T) {
	f := newFixture(t, nil)
	sent := f.sendIdle("", "remember the lighthouse")
	f.stop()
	if err := dbdamage.BreakTable(context.Background(), datafolder.DatabasePath(f.dir), "settings"); err != nil {
		t.Fatal(err)
	}

	cfg := Config{DataDir: f.dir, Mode: "browser", Getenv: func(k string) string { return f.env[k] },
		MCPConfigPath: filepath.Join(f.dir, "mcp.json")}
	_, err := Start(context.Background(), cfg)
	var corrupt *store.CorruptError
	if !errors.As(err, &corrupt) {
		t.Fatalf("Start on the damaged database = %v, want *store.CorruptError", err)
	}
	cfg.ReadOnlyCopy = true
	svc := mustStart(t, cfg)
	t.Cleanup(func() { _ = svc.Shutdown(context.Background()) })
	a := svc.App()
	if st := a.Status(); st.ReadOnly == "" || st.Configured {
		t.Errorf("status %+v, want a read-only copy", st)
	}
	page, err := a.ListThreads("", 10)
	if err != nil || len(page.Threads) != 1 || page.Threads[0].ID != sent.ThreadID {
		t.Fatalf("ListThreads = %+v, %v; want the one chat", page, err)
	}
	view, err := a.GetThread(sent.ThreadID)
	if err != nil || len(view.Messages) == 0 || view.Messages[0].Content != "remember the lighthouse" {
		t.Fatalf("GetThread = %+v, %v", view.Messages, err)
	}
	if _, err := a.SendInput(sent.ThreadID, "sent anyway", nil); err == nil {
		t.Error("a read-only copy took a message")
	}
}

// TestReadOnlyCopyOfDamagedOlderDatabaseShowsItsChats: the damaged file is
// of an older schema (the first launch of a new build finds the damage
// before migrating): the window of its read-only copy lists and opens its
// chats, as the current schema.
func TestReadOnlyCopyOfDamagedOlderDatabaseShowsItsChats(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile("../store/testdata/v4.db")
	if err != nil {
		t.Fatal(err)
	}
	path := datafolder.DatabasePath(dir)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := dbdamage.BreakTable(context.Background(), path, "settings"); err != nil {
		t.Fatal(err)
	}
	cfg := Config{DataDir: dir, Mode: "browser", Getenv: func(string) string { return "" },
		MCPConfigPath: filepath.Join(dir, "mcp.json"), ReadOnlyCopy: true}
	svc := mustStart(t, cfg)
	t.Cleanup(func() { _ = svc.Shutdown(context.Background()) })
	a := svc.App()
	page, err := a.ListThreads("", 10)
	if err != nil || len(page.Threads) == 0 {
		t.Fatalf("ListThreads = %+v, %v", page, err)
	}
	if view, err := a.GetThread(page.Threads[0].ID); err != nil || len(view.Messages) == 0 {
		t.Fatalf("GetThread = %+v, %v", view.Messages, err)
	}
}

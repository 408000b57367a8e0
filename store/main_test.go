package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"

	"github.com/juncture-app/juncture/agent/history"
)

func TestMain(m *testing.M) {
	if role := os.Getenv(childEnv); role != "" {
		os.Exit(runChild(role)) // a helper process of datafolder_test.go
	}
	code := m.Run()
	closeBenchData() // the benchmark dataset lives for the whole process
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

// openTest opens a fresh database in a temporary directory, closed at the
// end of the test. Its clock starts at 1,000,000 ms and ticks 1 ms per read.
func openTest(t testing.TB) *DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "juncture.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	var clock atomic.Int64
	clock.Store(1_000_000)
	db.now = func() int64 { return clock.Add(1) }
	db.prefixBudget = 0 // tests run under -race on busy machines: no timing
	db.searchBudget = 0
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db
}

// openFixture is where most tests start: a fresh database (see openTest)
// holding one empty, untitled thread per id, and the context to call it with.
func openFixture(t testing.TB, threads ...string) (*DB, context.Context) {
	t.Helper()
	db := openTest(t)
	for _, id := range threads {
		mustThread(t, db, id, "")
	}
	return db, context.Background()
}

// mustOpen opens the database at path with the store's real clock; the
// caller closes it (several tests close and reopen on purpose).
func mustOpen(t testing.TB, ctx context.Context, path string) *DB {
	t.Helper()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// openRaw opens path with database/sql alone, past the store, with the
// given DSN parameters; the caller closes it.
func openRaw(t testing.TB, path string, params ...string) *sql.DB {
	t.Helper()
	raw, err := sql.Open("sqlite", dsn(path, params...))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func mustThread(t testing.TB, db *DB, id, title string) history.Thread {
	t.Helper()
	th := history.Thread{ID: id, Title: title, CreatedAt: 100, UpdatedAt: 100}
	if err := db.CreateThread(context.Background(), th); err != nil {
		t.Fatalf("CreateThread: %v", err)
	}
	return th
}

func mustPut(t testing.TB, db *DB, msgs ...history.Message) {
	t.Helper()
	if err := db.PutMessages(context.Background(), msgs); err != nil {
		t.Fatalf("PutMessages: %v", err)
	}
}

func userMsg(thread, id, text string) history.Message {
	return history.Message{ID: id, ThreadID: thread, Role: history.RoleUser, Content: text, Status: history.StatusComplete, CreatedAt: 200}
}

func assistantMsg(thread, id, text string, calls ...history.ToolCall) history.Message {
	return history.Message{ID: id, ThreadID: thread, Role: history.RoleAssistant, Content: text, ToolCalls: calls, Status: history.StatusComplete, CreatedAt: 300}
}

func toolMsg(thread, id, callID, name, result string) history.Message {
	return history.Message{ID: id, ThreadID: thread, Role: history.RoleTool, ToolCallID: callID, ToolName: name, Content: result, Status: history.StatusComplete, CreatedAt: 400}
}

func mustMessages(t testing.TB, db *DB, thread string) []history.Message {
	t.Helper()
	msgs, err := db.Messages(context.Background(), thread)
	if err != nil {
		t.Fatalf("Messages(%s): %v", thread, err)
	}
	return msgs
}

func ids(msgs []history.Message) string {
	s := ""
	for i, m := range msgs {
		if i > 0 {
			s += ","
		}
		s += m.ID
	}
	return s
}

func isNotFound(err error) bool { return errors.Is(err, ErrNotFound) }

func search(t testing.TB, db *DB, q string) []SearchHit {
	t.Helper()
	hits, err := db.SearchHistory(context.Background(), q, 20)
	if err != nil {
		t.Fatalf("SearchHistory(%q): %v", q, err)
	}
	return hits
}

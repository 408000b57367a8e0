package store

import (
	"context"
	"database/sql"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var updateFixtures = flag.Bool("update-fixtures", false, "rewrite the database fixtures in testdata/")

// Fixture files (committed):
//
//	testdata/v1.db     a schema v1 database, as the first Juncture wrote it
//	testdata/newer.db  a database claiming a schema newer than this build's
const (
	fixtureV1    = "testdata/v1.db"
	fixtureNewer = "testdata/newer.db"
	newerVersion = 1000
)

// TestMakeFixtures regenerates the fixtures:
//
//	go test ./store -run TestMakeFixtures -args -update-fixtures
//
// Both are plain rollback-journal files (no -wal) so they are one file each.
func TestMakeFixtures(t *testing.T) {
	if !*updateFixtures {
		t.Skip("run with -args -update-fixtures to rewrite testdata/*.db")
	}
	ctx := context.Background()
	makeFixture(t, fixtureV1, func(db *sql.DB) {
		if err := migrateTo(ctx, db, 0, 1); err != nil {
			t.Fatal(err)
		}
		// Raw SQL on purpose: this is what a v1 build wrote.
		exec(t, db, `
INSERT INTO threads (id, title, pinned, created_at, updated_at) VALUES
    ('t-zurich', 'Trip to Zürich', 1, 1700000000000, 1700000500000),
    ('t-garden', 'Garden plans', 0, 1700001000000, 1700001600000);
INSERT INTO messages (id, thread_id, run_id, role, content, reasoning, tool_calls, tool_call_id, tool_name, is_error, status, error, created_at) VALUES
    ('m1', 't-zurich', 'r1', 'user', 'Where should I eat fondue tonight?', '', NULL, '', '', 0, 'complete', '', 1700000000000),
    ('m2', 't-zurich', 'r1', 'assistant', '', 'Look it up.', '[{"id":"call-1","name":"web_search","arguments":"{\"q\":\"fondue\"}"}]', '', '', 0, 'complete', '', 1700000100000),
    ('m3', 't-zurich', 'r1', 'tool', 'Results: Swiss Chuchi, Le Dézaley', '', NULL, 'call-1', 'web_search', 0, 'complete', '', 1700000200000),
    ('m4', 't-zurich', 'r1', 'assistant', 'Try Swiss Chuchi in the old town.' || char(10) || char(10) || '<system>User interrupted this message</system>', '', NULL, '', '', 0, 'interrupted', '', 1700000300000),
    ('m5', 't-garden', 'r2', 'user', 'When do I plant tomatoes?', '', NULL, '', '', 0, 'complete', '', 1700001000000),
    ('m6', 't-garden', 'r2', 'assistant', 'After the last frost, usually in May.', '', NULL, '', '', 0, 'complete', '', 1700001100000);
INSERT INTO runs (id, thread_id, parent_run_id, generation, status, outcome, started_at, finished_at) VALUES
    ('r1', 't-zurich', '', 0, 'cancelled', NULL, 1700000000000, 1700000400000),
    ('r2', 't-garden', '', 0, 'finished', '{"type":"success"}', 1700001000000, 1700001200000);
INSERT INTO tool_executions (tool_call_id, thread_id, run_id, tool_name, arguments, state, result, is_error, started_at, finished_at) VALUES
    ('call-1', 't-zurich', 'r1', 'web_search', '{"q":"fondue"}', 'finished', 'Results: Swiss Chuchi, Le Dézaley', 0, 1700000150000, 1700000200000);
INSERT INTO permission_rules (id, tool, scope, pattern, created_at) VALUES ('rule-1', 'web_search', 'tool', '', 1700000000000);
INSERT INTO settings (key, value) VALUES ('model', 'llama3'), ('theme', 'dark');
PRAGMA user_version = 1;`)
	})
	makeFixture(t, fixtureNewer, func(db *sql.DB) {
		if err := migrateTo(ctx, db, 0, SchemaVersion); err != nil {
			t.Fatal(err)
		}
		exec(t, db, `
INSERT INTO threads (id, title, created_at, updated_at) VALUES ('t-future', 'From the future', 1, 1);
CREATE TABLE future_things (x);
PRAGMA user_version = 1000;`)
	})
}

func makeFixture(t *testing.T, name string, fill func(*sql.DB)) {
	t.Helper()
	tmp := filepath.Join(t.TempDir(), "fixture.db")
	db, err := sql.Open("sqlite", dsn(tmp, "_pragma=journal_mode(DELETE)", "_pragma=foreign_keys(1)"))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	fill(db)
	exec(t, db, "VACUUM")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func exec(t testing.TB, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.ExecContext(context.Background(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// copyFixture copies a committed fixture into a fresh temporary directory.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("fixture %s: %v (regenerate with -args -update-fixtures)", name, err)
	}
	path := filepath.Join(t.TempDir(), "juncture.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

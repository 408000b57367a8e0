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
//	testdata/v2.db     a schema v2 database (search) with pending items and
//	                   tool executions, the last before tool call ids became
//	                   per thread
//	testdata/v4.db     a schema v4 database (linear threads, MCP parts,
//	                   pending items), the last before threads became trees
//	testdata/newer.db  a database claiming a schema newer than this build's
const (
	fixtureV1    = "testdata/v1.db"
	fixtureV2    = "testdata/v2.db"
	fixtureV4    = "testdata/v4.db"
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
	makeFixture(t, fixtureV2, func(db *sql.DB) {
		if err := migrateTo(ctx, db, 0, 2); err != nil {
			t.Fatal(err)
		}
		// Raw SQL on purpose: this is what a v2 build wrote.
		exec(t, db, `
INSERT INTO threads (id, title, pinned, created_at, updated_at) VALUES
    ('t-build', 'Fix the build', 0, 1710000000000, 1710000900000),
    ('t-notes', 'Meeting notes', 0, 1710001000000, 1710001500000);
INSERT INTO messages (id, thread_id, run_id, role, content, reasoning, tool_calls, tool_call_id, tool_name, is_error, status, error, created_at) VALUES
    ('b1', 't-build', 'rb1', 'user', 'Why does the build fail?', '', NULL, '', '', 0, 'complete', '', 1710000000000),
    ('b2', 't-build', 'rb1', 'assistant', 'Reading go.mod.', '', '[{"id":"functions.read_file:0","name":"read_file","arguments":"{\"path\":\"go.mod\"}"},{"id":"functions.write_file:1","name":"write_file","arguments":"{\"path\":\"go.mod\"}"}]', '', '', 0, 'complete', '', 1710000100000),
    ('b3', 't-build', 'rb1', 'tool', 'module example.com/x', '', NULL, 'functions.read_file:0', 'read_file', 0, 'complete', '', 1710000200000),
    ('n1', 't-notes', 'rn1', 'user', 'Copy the summary and open the agenda', '', NULL, '', '', 0, 'complete', '', 1710001000000),
    ('n2', 't-notes', 'rn1', 'assistant', '', '', '[{"id":"call_0","name":"copy_to_clipboard","arguments":"{}"},{"id":"call_1","name":"open_url","arguments":"{\"url\":\"https://example.com\"}"}]', '', '', 0, 'complete', '', 1710001100000);
INSERT INTO runs (id, thread_id, parent_run_id, generation, status, outcome, started_at, finished_at) VALUES
    ('rb1', 't-build', '', 0, 'interrupted', '{"type":"interrupt"}', 1710000000000, 1710000300000),
    ('rn1', 't-notes', '', 0, 'interrupted', '{"type":"interrupt"}', 1710001000000, 1710001200000);
INSERT INTO tool_executions (tool_call_id, thread_id, run_id, tool_name, arguments, state, result, is_error, started_at, finished_at) VALUES
    ('functions.read_file:0', 't-build', 'rb1', 'read_file', '{"path":"go.mod"}', 'finished', 'module example.com/x', 0, 1710000150000, 1710000200000),
    ('call_9', 't-notes', 'rn1', 'run_command', '{"cmd":"sleep 60"}', 'started', '', 0, 1710001150000, 0);
INSERT INTO interrupts (id, thread_id, run_id, generation, kind, tool_call_id, descriptor, status, response, created_at, resolved_at) VALUES
    ('int-write', 't-build', 'rb1', 1, 'tool-approval', 'functions.write_file:1', '{"id":"int-write","reason":"tool-approval"}', 'pending', NULL, 1710000300000, 0),
    ('int-old', 't-build', 'rb0', 0, 'generic', '', '{"id":"int-old"}', 'resolved', '{"answer":"yes"}', 1710000000000, 1710000050000);
INSERT INTO client_tool_calls (tool_call_id, thread_id, run_id, tool_name, arguments, state, result, created_at) VALUES
    ('call_0', 't-notes', 'rn1', 'copy_to_clipboard', '{}', 'done', 'copied', 1710001110000),
    ('call_1', 't-notes', 'rn1', 'open_url', '{"url":"https://example.com"}', 'pending', '', 1710001120000);
INSERT INTO permission_rules (id, tool, scope, pattern, created_at) VALUES ('rule-git', 'run_command', 'command-prefix', 'git status', 1710000000000);
INSERT INTO settings (key, value) VALUES ('model', 'kimi-k2');
PRAGMA user_version = 2;`)
	})
	makeFixture(t, fixtureV4, func(db *sql.DB) {
		if err := migrateTo(ctx, db, 0, 4); err != nil {
			t.Fatal(err)
		}
		// Raw SQL on purpose: this is what a v4 build wrote. Timestamps are
		// out of order on purpose (clock changes): thread order is seq.
		exec(t, db, `
INSERT INTO threads (id, title, pinned, created_at, updated_at) VALUES
    ('t-trip', 'Plan the trip', 1, 1720000000000, 1720000900000),
    ('t-img', 'Screenshot', 0, 1720001000000, 1720001500000),
    ('t-empty', 'Nothing yet', 0, 1720002000000, 1720002000000);
INSERT INTO messages (id, thread_id, run_id, role, content, reasoning, tool_calls, tool_call_id, tool_name, is_error, tool_state, parts, status, error, created_at) VALUES
    ('p1', 't-trip', 'rp1', 'user', 'Find trains to Lyon', '', NULL, '', '', 0, '', NULL, 'complete', '', 1720000000000),
    ('p2', 't-trip', 'rp1', 'assistant', '', 'Search first.', '[{"id":"call_0","name":"web_search","arguments":"{\"q\":\"Lyon trains\"}"}]', '', '', 0, '', NULL, 'complete', '', 1720000100000),
    ('p3', 't-trip', 'rp1', 'tool', 'TGV 8:04, 10:04', '', NULL, 'call_0', 'web_search', 0, 'done', NULL, 'complete', '', 1720000050000),
    ('p4', 't-trip', 'rp1', 'assistant', 'Take the 8:04 TGV.', '', NULL, '', '', 0, '', NULL, 'complete', '', 1720000300000),
    ('p5', 't-trip', 'rp2', 'user', 'And back on Sunday?', '', NULL, '', '', 0, '', NULL, 'complete', '', 1720000400000),
    ('p6', 't-trip', 'rp2', 'assistant', 'The 18:00 is' || char(10) || char(10) || '<system>User interrupted this message</system>', '', NULL, '', '', 0, '', NULL, 'interrupted', '', 1720000500000),
    ('i1', 't-img', 'ri1', 'user', 'Take a screenshot', '', NULL, '', '', 0, '', NULL, 'complete', '', 1720001000000),
    ('i2', 't-img', 'ri1', 'assistant', '', '', '[{"id":"call_0","name":"mcp__shot","arguments":"{}"},{"id":"call_1","name":"write_file","arguments":"{\"path\":\"a.png\"}"}]', '', '', 0, '', NULL, 'complete', '', 1720001100000),
    ('i3', 't-img', 'ri1', 'tool', 'An image (image/png).', '', NULL, 'call_0', 'mcp__shot', 0, 'done', '[{"kind":"image","mimeType":"image/png","data":"iVBORw0KGgo="}]', 'complete', '', 1720001200000);
INSERT INTO runs (id, thread_id, parent_run_id, generation, status, outcome, started_at, finished_at, steps) VALUES
    ('rp1', 't-trip', '', 0, 'finished', '{"type":"success"}', 1720000000000, 1720000300000, 2),
    ('rp2', 't-trip', '', 0, 'cancelled', '{"type":"cancelled"}', 1720000400000, 1720000500000, 1),
    ('ri1', 't-img', '', 1, 'interrupted', '{"type":"interrupt"}', 1720001000000, 1720001300000, 1);
INSERT INTO tool_executions (thread_id, tool_call_id, run_id, tool_name, arguments, state, result, is_error, started_at, finished_at) VALUES
    ('t-trip', 'call_0', 'rp1', 'web_search', '{"q":"Lyon trains"}', 'finished', 'TGV 8:04, 10:04', 0, 1720000150000, 1720000200000),
    ('t-img', 'call_0', 'ri1', 'mcp__shot', '{}', 'finished', 'An image (image/png).', 0, 1720001150000, 1720001200000);
INSERT INTO interrupts (id, thread_id, run_id, generation, kind, tool_call_id, descriptor, status, response, created_at, resolved_at) VALUES
    ('int-w', 't-img', 'ri1', 1, 'tool-approval', 'call_1', '{"id":"int-w","reason":"tool-approval"}', 'pending', NULL, 1720001300000, 0);
INSERT INTO mcp_tool_pins (server, tool, read_only, first_seen) VALUES ('shot', 'shot', 1, 1720001000000);
INSERT INTO settings (key, value) VALUES ('model', 'qwen3');
PRAGMA user_version = 4;`)
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
	db := openRaw(t, tmp, "_pragma=journal_mode(DELETE)", "_pragma=foreign_keys(1)")
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

package store

import (
	"context"
	"database/sql"
	"testing"
	"time"
)

// The page caches are memory the app keeps for as long as a connection
// lives: the writer keeps 500 KiB, each reader SQLite's default (db.go).
func TestConnectionPageCaches(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t)
	for _, c := range []struct {
		name string
		pool *sql.DB
		want string
	}{
		{"writer", db.w, "-500"},
		{"reader", db.r, "-2000"},
	} {
		var got string
		if err := c.pool.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&got); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got != c.want {
			t.Errorf("%s: PRAGMA cache_size = %s, want %s", c.name, got, c.want)
		}
	}
}

// After a burst of reads the read pool closes its idle connections, and
// their page caches with them, instead of keeping every reader for the
// rest of the session. Not parallel: it shortens readerMaxIdle, which Open
// reads.
func TestIdleReadersClosed(t *testing.T) {
	saved := readerMaxIdle
	readerMaxIdle = time.Millisecond
	t.Cleanup(func() { readerMaxIdle = saved })
	db, ctx := openFixture(t, "t")

	// A burst: every reader busy at once.
	var conns []*sql.Conn
	for range readers {
		c, err := db.r.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := c.QueryRowContext(ctx, "SELECT count(*) FROM threads").Scan(&n); err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for _, c := range conns {
		c.Close()
	}
	if got := db.r.Stats().OpenConnections; got != readers {
		t.Fatalf("after the burst: %d readers open, want %d", got, readers)
	}
	// database/sql's cleaner runs at most once a second.
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for db.r.Stats().OpenConnections > 0 {
		select {
		case <-ctx.Done():
			t.Fatalf("idle readers still open: %+v", db.r.Stats())
		case <-time.After(50 * time.Millisecond):
		}
	}
	// The pool still serves reads afterwards.
	var n int
	if err := db.r.QueryRowContext(ctx, "SELECT count(*) FROM threads").Scan(&n); err != nil || n != 1 {
		t.Fatalf("read after the readers closed: %d, %v", n, err)
	}
}

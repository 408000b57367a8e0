package store

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/history"
)

// fillDisk caps db just above its current size, so the next writes of any
// size find the "disk" full for real (SQLITE_FULL from SQLite's pager).
func fillDisk(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	var pages, size int64
	db.w.QueryRow("PRAGMA page_count").Scan(&pages)
	db.w.QueryRow("PRAGMA page_size").Scan(&size)
	if err := db.LimitSize(ctx, (pages+1)*size); err != nil {
		t.Fatal(err)
	}
}

// Defect 10: a write on a full disk fails with ErrDiskFull (not silently),
// stores nothing, CheckRoom says so up front, and the database tells its
// listener it is full, and again when a write succeeds afterwards.
func TestDiskFullWriteIsErrDiskFull(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t)
	mustThread(t, db, "t", "")
	var events []bool
	db.OnDiskFull(func(full bool) { events = append(events, full) })
	if err := db.CheckRoom(ctx, 1<<20); err != nil {
		t.Fatalf("CheckRoom with room: %v", err)
	}
	fillDisk(t, db)

	big := strings.Repeat("a long message that needs new pages ", 2000)
	err := db.PutMessage(ctx, userMsg("t", "u1", big))
	if !errors.Is(err, ErrDiskFull) {
		t.Fatalf("PutMessage on a full disk = %v, want ErrDiskFull", err)
	}
	if !strings.Contains(err.Error(), "disk full: not saved") {
		t.Errorf("message = %s", err)
	}
	if _, err := db.Message(ctx, "u1"); !isNotFound(err) {
		t.Errorf("the refused message was stored: %v", err)
	}
	if err := db.CheckRoom(ctx, int64(len(big))); !errors.Is(err, ErrDiskFull) {
		t.Errorf("CheckRoom on a full disk = %v, want ErrDiskFull", err)
	}
	if !db.DiskFull() {
		t.Error("DiskFull() = false after a disk-full write")
	}

	// Space comes back: the next write succeeds and says so.
	if err := db.LimitSize(ctx, 0); err != nil {
		t.Fatal(err)
	}
	mustPut(t, db, userMsg("t", "u1", big))
	if db.DiskFull() || len(events) != 2 || !events[0] || events[1] {
		t.Errorf("disk-full events = %v, DiskFull() = %v", events, db.DiskFull())
	}
}

// Defect 10: a streaming checkpoint that hits a full disk is not lost
// silently: the listener hears it at once (the app shows it), and Flush
// reports it.
func TestDiskFullCheckpointIsReported(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t)
	mustThread(t, db, "t", "")
	full := make(chan struct{})
	var once atomic.Bool
	db.OnDiskFull(func(f bool) {
		if f && once.CompareAndSwap(false, true) {
			close(full)
		}
	})
	cp := db.NewCheckpointer(5 * time.Millisecond)
	fillDisk(t, db)
	cp.Update(history.Message{ID: "a1", ThreadID: "t", Role: history.RoleAssistant,
		Content: strings.Repeat("streamed text ", 5000), Status: history.StatusStreaming, CreatedAt: 1})
	select {
	case <-full:
	case <-time.After(10 * time.Second): // a hang guard, not a timing assertion
		t.Fatal("a checkpoint on a full disk was not reported")
	}
	if err := cp.Flush(ctx); !errors.Is(err, ErrDiskFull) {
		t.Errorf("Flush after a failed checkpoint = %v, want ErrDiskFull", err)
	}
	if err := cp.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

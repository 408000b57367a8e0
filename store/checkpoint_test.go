package store

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/history"
)

func streaming(thread, id, text string) history.Message {
	return history.Message{ID: id, ThreadID: thread, Role: history.RoleAssistant, Content: text, Status: history.StatusStreaming, CreatedAt: 1}
}

// storedContent returns the stored content of a message, "" if absent.
func storedContent(t *testing.T, db *DB, id string) string {
	t.Helper()
	m, err := db.Message(context.Background(), id)
	if isNotFound(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return m.Content
}

func TestCheckpointerWritesInBackground(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	mustThread(t, db, "t", "")
	cp := db.NewCheckpointer(20 * time.Millisecond)
	defer cp.Close()

	start := time.Now()
	text := ""
	for i := range 50 {
		text += fmt.Sprintf("tok%d ", i)
		cp.Update(streaming("t", "m", text))
	}
	for storedContent(t, db, "m") != text {
		if time.Since(start) > 5*time.Second {
			t.Fatalf("snapshot not written after 5 s; stored %q", storedContent(t, db, "m"))
		}
		time.Sleep(5 * time.Millisecond)
	}
	// A second message keeps its place after the first.
	cp.Update(streaming("t", "m2", "next"))
	if err := cp.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := ids(mustMessages(t, db, "t")); got != "m,m2" {
		t.Errorf("order = %s", got)
	}
}

func TestCheckpointerCommitWins(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t, "t")
	cp := db.NewCheckpointer(time.Hour) // only explicit flushes
	defer cp.Close()

	cp.Update(streaming("t", "m", "partial"))
	final := assistantMsg("t", "m", "the final answer")
	if err := cp.Commit(ctx, final); err != nil {
		t.Fatal(err)
	}
	// A snapshot that arrives after the commit (a late writer) must lose.
	cp.Update(streaming("t", "m", "partial, late"))
	if err := cp.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	got, _ := db.Message(ctx, "m")
	if got.Content != "the final answer" || got.Status != history.StatusComplete {
		t.Errorf("stored %q (%s), want the committed final state", got.Content, got.Status)
	}
	if hits := search(t, db, "final answer"); len(hits) != 1 {
		t.Errorf("committed message not searchable: %+v", hits)
	}
}

// TestCheckpointerCommitRace streams into a message from one goroutine
// while the background writer runs, then commits: whatever the
// interleaving, the committed text is what stays.
func TestCheckpointerCommitRace(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t, "t")
	cp := db.NewCheckpointer(time.Millisecond)
	defer cp.Close()

	for round := range 20 {
		id := fmt.Sprint("m", round)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			var text strings.Builder
			for {
				select {
				case <-stop:
					// One more straggler after the commit.
					cp.Update(streaming("t", id, text.String()+" straggler"))
					return
				default:
				}
				text.WriteString("x")
				cp.Update(streaming("t", id, text.String()))
			}
		}()
		time.Sleep(3 * time.Millisecond)
		if err := cp.Commit(ctx, assistantMsg("t", id, "final")); err != nil {
			t.Fatal(err)
		}
		close(stop)
		wg.Wait()
		if err := cp.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond) // let any in-flight background write land
		if got := storedContent(t, db, id); got != "final" {
			t.Fatalf("round %d: stored %.40q after commit, want final", round, got)
		}
	}
}

func TestCheckpointerCloseFlushes(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	mustThread(t, db, "t", "")
	cp := db.NewCheckpointer(time.Hour)
	cp.Update(streaming("t", "m", "unsaved words"))
	if err := cp.Close(); err != nil {
		t.Fatal(err)
	}
	if got := storedContent(t, db, "m"); got != "unsaved words" {
		t.Errorf("after Close stored %q", got)
	}
	cp.Update(streaming("t", "m", "after close"))
	if err := cp.Close(); err != nil {
		t.Fatal(err)
	}
	if got := storedContent(t, db, "m"); got != "unsaved words" {
		t.Errorf("an Update after Close was written: %q", got)
	}
	// Streaming text is not in the index.
	if hits := search(t, db, "unsaved"); len(hits) != 0 {
		t.Errorf("streaming snapshot indexed: %+v", hits)
	}
}

func TestDBCloseFlushesCheckpointers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := t.TempDir() + "/j.db"
	db := mustOpen(t, ctx, path)
	mustThread(t, db, "t", "")
	cp := db.NewCheckpointer(time.Hour)
	cp.Update(streaming("t", "m", "last words"))
	if err := db.Close(); err != nil { // stops cp's goroutine too (goleak checks)
		t.Fatal(err)
	}
	db = mustOpen(t, ctx, path)
	defer db.Close()
	if got := storedContent(t, db, "m"); got != "last words" {
		t.Errorf("after DB.Close stored %q", got)
	}
}

func TestCheckpointerReportsFailuresWithoutBlockingOthers(t *testing.T) {
	t.Parallel()
	db, ctx := openFixture(t, "t")
	cp := db.NewCheckpointer(time.Hour)
	defer cp.Close()
	cp.Update(streaming("deleted-thread", "lost", "x"))
	cp.Update(streaming("t", "m", "fine"))
	if err := cp.Flush(ctx); err == nil || !strings.Contains(err.Error(), "lost") {
		t.Errorf("Flush = %v, want an error naming the failed message", err)
	}
	if got := storedContent(t, db, "m"); got != "fine" {
		t.Errorf("the good snapshot was held back: %q", got)
	}
	if err := cp.Flush(ctx); err != nil {
		t.Errorf("the failure is reported again: %v", err)
	}
}

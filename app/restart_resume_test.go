package app

import (
	"context"
	"testing"
)

// A page open across a restart of the app reconnects with the id of the
// last event it saw, of the previous boot. Within ringAge of the new
// boot it is given everything the new boot published, from its first
// event, and no resync: nothing of this boot is missing from what it
// gets. The desktop window alone never counts as a page: the new boot
// keeps its events for such a page by itself.
func TestEventsPageOfThePreviousBootResumes(t *testing.T) {
	f := newFixture(t, nil)
	ctx1, cancel1 := context.WithCancel(context.Background())
	first := f.eventStream(ctx1, "", false)
	a := f.newThread("").ID
	var seen sseFrame
	for seen.data["threadId"] != a {
		seen = next(t, first)
	}
	cancel1()
	for range first {
	}

	f.stop()
	f.start(f.env) // the app restarts on the same data: another boot
	b := f.newThread("").ID
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	second := f.eventStream(ctx2, seen.id, false)
	for {
		fr := next(t, second)
		if fr.name == "resync" {
			t.Fatalf("a page of the previous boot reconnecting at once was told to resync")
		}
		if fr.id == seen.id {
			t.Fatalf("the new boot reused the id %s of the previous one", fr.id)
		}
		if fr.name == "threads" && fr.data["threadId"] == b {
			break // published by the new boot before the page came back: replayed
		}
	}
	c := f.newThread("").ID
	for fr := next(t, second); fr.data["threadId"] != c; fr = next(t, second) {
		if fr.name == "resync" {
			t.Fatal("resync after the replay")
		}
	}
}

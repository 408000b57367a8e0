package app

import (
	"context"
	"strings"
	"testing"
)

// Defect 10 for an edited message: on a full disk the new version is
// refused before its run starts (the window keeps the edit box's text),
// never sent to a run that cannot store it.
func TestEditMessageOnFullDiskRefusedBeforeTheRun(t *testing.T) {
	f := newFixture(t, nil)
	answerAll(f.fake, "Saved answer.")
	first := f.sendIdle("", "hello")
	var v ThreadView
	if e := f.call(&v, "GetThread", first.ThreadID); e != nil || len(v.Messages) != 2 {
		t.Fatalf("thread: %d messages, %+v", len(v.Messages), e)
	}
	db := f.svc.app.db
	ctx := context.Background()
	if err := db.LimitSize(ctx, 1); err != nil {
		t.Fatal(err)
	}
	defer db.LimitSize(ctx, 0)
	e := f.call(nil, "EditMessage", first.ThreadID, v.Messages[0].ID, "an edit the disk has no room for")
	if e == nil || e.Code != CodeDiskFull || !strings.HasPrefix(e.Message, "Disk full: your message was not saved") {
		t.Fatalf("EditMessage on a full disk = %+v", e)
	}
	if running, _ := f.svc.Runtime().Running(first.ThreadID); running {
		t.Error("a run started for a refused edit")
	}
}

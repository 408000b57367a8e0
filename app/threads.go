package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/app/threads"
	"github.com/juncture-app/juncture/store"
)

// Threads as the window lists and shows them (package threads).
type (
	ThreadPage     = threads.ThreadPage     // one page of ListThreads
	ThreadListItem = threads.ThreadListItem // a thread with what it is doing now
	ThreadView     = threads.ThreadView     // a thread with everything the window shows
)

// ListThreads lists threads, pinned first then newest activity first, each
// with its running and waiting state (threads.Reader.Page).
func (a *App) ListThreads(cursor string, limit int) (ThreadPage, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	p, err := a.threads.Page(ctx, cursor, limit)
	return p, asErrorOrNil(err)
}

// GetThread returns a thread with its messages and live state.
func (a *App) GetThread(threadID string) (ThreadView, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	v, err := a.threads.View(ctx, threadID)
	return v, asErrorOrNil(err)
}

// RenameThread sets a thread's title.
func (a *App) RenameThread(threadID, title string) error {
	title = strings.TrimSpace(title)
	if title == "" {
		return errorf(CodeInvalidArgument, "The title is empty.")
	}
	ctx, cancel := a.ctx()
	defer cancel()
	if err := a.db.RenameThread(ctx, threadID, agent.Clip(title, 200)); err != nil {
		return asError(err)
	}
	a.emit("threads", ThreadsEvent{ThreadID: threadID})
	return nil
}

// PinThread pins or unpins a thread.
func (a *App) PinThread(threadID string, pinned bool) error {
	ctx, cancel := a.ctx()
	defer cancel()
	if err := a.db.SetPinned(ctx, threadID, pinned); err != nil {
		return asError(err)
	}
	a.emit("threads", ThreadsEvent{ThreadID: threadID})
	return nil
}

// stopAndWait stops running turns through the runtime and waits up to 5 s
// for them to settle (a MustComplete tool finishing, a run saving).
func (a *App) stopAndWait(ctx context.Context, stop func(context.Context) error) error {
	wait, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := stop(wait); err != nil {
		return errorf(CodeConflict, "A tool is still finishing; try again in a moment.")
	}
	return nil
}

// DeleteThread deletes a thread for good (search index included). A running
// turn is stopped first.
func (a *App) DeleteThread(threadID string) error {
	ctx, cancel := a.ctx()
	defer cancel()
	if err := a.stopAndWait(ctx, func(ctx context.Context) error { return a.rt.StopAndWait(ctx, threadID) }); err != nil {
		return err
	}
	if err := a.db.DeleteThread(ctx, threadID); err != nil {
		return asError(err)
	}
	a.emit("threads", ThreadsEvent{ThreadID: threadID})
	return nil
}

// SearchHistory searches every thread's messages and titles (threads.Search).
func (a *App) SearchHistory(query string, limit int) ([]store.SearchHit, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	hits, err := threads.Search(ctx, a.db, query, limit)
	return hits, asErrorOrNil(err)
}

// Export is an exported thread (threads.Export).
type Export = threads.Export

// ExportThread exports a thread as "markdown" or "json".
func (a *App) ExportThread(threadID, format string) (Export, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	exp, err := threads.ExportThread(ctx, a.db, threadID, format)
	if errors.Is(err, threads.ErrUnknownFormat) {
		return Export{}, errorf(CodeInvalidArgument, fmt.Sprintf("Unknown export format %q (use markdown or json).", format))
	}
	return exp, asErrorOrNil(err)
}

// ImportThread imports a thread exported as JSON.
func (a *App) ImportThread(content string) (history.Thread, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	t, err := a.db.ImportJSON(ctx, []byte(content), attach.VetImport)
	if err != nil {
		return history.Thread{}, errorf(CodeInvalidArgument, err.Error())
	}
	a.emit("threads", ThreadsEvent{ThreadID: t.ID})
	return t, nil
}

// DeleteAllHistory deletes every thread, message and search entry for
// good. Running turns are stopped first; settings and permission rules stay.
func (a *App) DeleteAllHistory() error {
	if err := a.writable("DeleteAllHistory"); err != nil {
		return err
	}
	ctx, cancel := a.ctx()
	defer cancel()
	if err := a.stopAndWait(ctx, a.rt.StopAllAndWait); err != nil {
		return err
	}
	if err := a.db.DeleteAllHistory(ctx); err != nil {
		return asError(err)
	}
	a.emit("threads", ThreadsEvent{})
	return nil
}

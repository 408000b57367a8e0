package app

import (
	"errors"

	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/app/datafolder"
	"github.com/juncture-app/juncture/store"
)

// msgMessageNotSaved is SendInput's refusal on a full disk; the window
// keeps the text in the composer.
const msgMessageNotSaved = "Disk full: your message was not saved. Free some space on the disk, then send it again."

// msgSavingStopped is Status.SaveProblem while writes find the disk full
// (a streaming answer's checkpoints, say).
const msgSavingStopped = "Disk full: Juncture cannot save right now, so the answer being written is not being kept. Free some space on the disk; what was already saved is safe."

// checkRoomToSend refuses a message (its text and files) while the disk
// cannot hold it. The message is stored by its run, after SendInput or
// EditMessage returns: this is the last moment the window can hear of it
// and keep the text.
func (a *App) checkRoomToSend(text string, files []attach.Input) error {
	err := a.db.CheckRoom(a.bgCtx, datafolder.RoomToSend(text, files))
	if errors.Is(err, store.ErrDiskFull) {
		return errorf(CodeDiskFull, msgMessageNotSaved)
	}
	if e := asError(err); e != nil {
		return e
	}
	return nil
}

// watchDiskFull sends "status" at every write that finds the disk full
// (and the first that succeeds afterwards), so a checkpoint failing
// mid-stream is shown at once, not found after a restart. Status reads
// SaveProblem from the store (DB.DiskFull), which has already changed
// when the callback runs.
func (a *App) watchDiskFull() {
	a.db.OnDiskFull(func(bool) { a.emit("status", a.Status()) })
}

package app

import (
	"errors"
	"strings"

	"github.com/juncture-app/juncture/internal/benchprobe"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/app/errmap"
)

// Sending: a message, Stop, the queue, continuing a stopped answer, and
// the branches editing or regenerating makes.

// SendResult says whether input started a turn or waits in the queue.
type SendResult struct {
	ThreadID string `json:"threadId"`
	Queued   bool   `json:"queued"`
}

// SendInput sends the person's message, with files (optional; data in
// base64, see AttachmentInput). An empty threadID starts a new thread. A
// file that cannot be sent refuses the whole message, storing nothing.
func (a *App) SendInput(threadID, text string, attachments []AttachmentInput) (SendResult, error) {
	if strings.TrimSpace(text) == "" && len(attachments) == 0 {
		return SendResult{}, errorf(CodeInvalidArgument, "The message is empty.")
	}
	files, err := decodeAttachments(attachments)
	if err != nil {
		return SendResult{}, err
	}
	if err := a.writable("SendInput"); err != nil {
		return SendResult{}, err
	}
	// The message is stored by its run, after this returns: on a full
	// disk, refuse it here, so the window keeps the text and says why.
	if err := a.checkRoomToSend(text, files); err != nil {
		return SendResult{}, err
	}
	// Files are prepared (a PDF parsed) once, before a new thread is made:
	// a refused file must not leave an empty thread behind.
	prepared, err := a.rt.PrepareAttachments(a.bgCtx, files)
	if e, ok := errmap.Attachment(err); ok {
		return SendResult{}, e
	}
	if err != nil {
		return SendResult{}, asError(err)
	}
	if threadID == "" {
		t, err := a.NewThread("")
		if err != nil {
			return SendResult{}, err
		}
		threadID = t.ID
	}
	queued, err := a.rt.SendPrepared(a.bgCtx, threadID, text, prepared)
	if e, ok := errmap.Attachment(err); ok {
		return SendResult{}, e
	}
	if err != nil {
		return SendResult{}, asError(err)
	}
	return SendResult{ThreadID: threadID, Queued: queued}, nil
}

// Interrupt stops the thread's current turn (no-op when idle).
func (a *App) Interrupt(threadID string) error {
	benchprobe.Interrupted(threadID) // the desktop bench's Stop timing; off unless JUNCTURE_BENCH=1
	a.rt.InterruptVia(threadID, a.transport())
	return nil
}

// RemoveQueued removes queued input i.
func (a *App) RemoveQueued(threadID string, index int) error {
	if err := a.rt.RemoveQueued(threadID, index); err != nil {
		return errorf(CodeNotFound, err.Error())
	}
	return nil
}

// ContinueAnswer continues the thread's interrupted last answer in place
// (no message of yours is added; the answer grows where it stopped).
func (a *App) ContinueAnswer(threadID string) error {
	if err := a.writable("ContinueAnswer"); err != nil {
		return err
	}
	if _, err := a.rt.ContinueAnswer(a.bgCtx, threadID); err != nil {
		if errors.Is(err, agent.ErrNothingToContinue) {
			return errorf(CodeConflict, "The last answer was not stopped, so there is nothing to continue.")
		}
		return asError(err)
	}
	return nil
}

// Branches: editing a message or regenerating an answer makes a new
// version next to the old one; the thread shows one path through its
// versions at a time (see agent/branches.go for when each is refused).

// EditMessage sends text as a new version of your message messageID; the
// model answers it from there. The old version stays, one click away.
func (a *App) EditMessage(threadID, messageID, text string) (SendResult, error) {
	if strings.TrimSpace(text) == "" {
		return SendResult{}, errorf(CodeInvalidArgument, "The message is empty.")
	}
	if err := a.writable("EditMessage"); err != nil {
		return SendResult{}, err
	}
	// As SendInput: the new version is stored by its run, after this
	// returns; on a full disk refuse it here so the edit box keeps it.
	if err := a.checkRoomToSend(text, nil); err != nil {
		return SendResult{}, err
	}
	if _, err := a.rt.EditMessage(a.bgCtx, threadID, messageID, text); err != nil {
		return SendResult{}, errmap.Branch(err)
	}
	return SendResult{ThreadID: threadID}, nil
}

// Regenerate asks for a new answer to the question that messageID (an
// answer) answered, next to the old one; no message of yours is added.
func (a *App) Regenerate(threadID, messageID string) error {
	if err := a.writable("Regenerate"); err != nil {
		return err
	}
	if _, err := a.rt.Regenerate(a.bgCtx, threadID, messageID); err != nil {
		return errmap.Branch(err)
	}
	return nil
}

// SelectBranch shows the version of the thread that goes through
// messageID and returns the thread as it now reads.
func (a *App) SelectBranch(threadID, messageID string) (ThreadView, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	if err := a.rt.SelectBranch(ctx, threadID, messageID); err != nil {
		if a.readOnly != "" && errors.Is(err, agent.ErrBranchWaits) {
			// The live app's words ("answer or dismiss it") ask for what a
			// copy refuses.
			return ThreadView{}, errorf(CodeConflict, copyKeepsWaitingVersion)
		}
		return ThreadView{}, errmap.Branch(err)
	}
	return a.GetThread(threadID)
}

// copyKeepsWaitingVersion is a read-only copy's refusal to leave a version
// where something waits: the live app holds it until answered, and a copy
// cannot answer.
const copyKeepsWaitingVersion = "This is a read-only copy of a damaged database: something on this version waits for an answer (an approval, a question or a client tool), which a copy cannot give, so it stays on this version."

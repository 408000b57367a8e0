package app

import (
	"errors"
	"strings"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/store"
)

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
		return SendResult{}, branchError(err)
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
		return branchError(err)
	}
	return nil
}

// SelectBranch shows the version of the thread that goes through
// messageID and returns the thread as it now reads.
func (a *App) SelectBranch(threadID, messageID string) (ThreadView, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	if err := a.rt.SelectBranch(ctx, threadID, messageID); err != nil {
		return ThreadView{}, branchError(err)
	}
	return a.GetThread(threadID)
}

// branchError says in words why a branch operation was refused.
func branchError(err error) *Error {
	switch {
	case errors.Is(err, agent.ErrBusy):
		return errorf(CodeConflict, "agent: the thread is already running a turn. Stop it first, then try again.")
	case errors.Is(err, agent.ErrBranchWaits):
		return errorf(CodeConflict, "Something on this version waits for you (an approval, a question or a client tool). Answer or dismiss it before switching to another version.")
	case errors.Is(err, agent.ErrNotEditable), errors.Is(err, agent.ErrNotRegenerable):
		return errorf(CodeInvalidArgument, err.Error())
	case errors.Is(err, store.ErrNotFound):
		return errorf(CodeNotFound, "This message is not in this conversation any more (it may have been deleted or imported elsewhere).")
	}
	return asError(err)
}

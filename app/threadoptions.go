package app

import (
	"strings"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/app/threads"
)

// ThreadOptionsInput changes a thread's options (threads.ThreadOptionsInput).
type ThreadOptionsInput = threads.ThreadOptionsInput

// SetThreadOptions changes a thread's endpoint, model, tools or
// instructions, effective from its next model call. Choosing another
// endpoint without a model resets the model to that endpoint's default.
// It returns the thread's options as GetThread shows them.
func (a *App) SetThreadOptions(threadID string, in ThreadOptionsInput) (history.ThreadOptions, error) {
	if err := a.writable("SetThreadOptions"); err != nil {
		return history.ThreadOptions{}, err
	}
	ctx, cancel := a.ctx()
	defer cancel()
	t, err := a.db.Thread(ctx, threadID)
	if err != nil {
		return history.ThreadOptions{}, asError(err)
	}
	o, bad, err := threads.Apply(t.Options, in, func(id string) (bool, error) {
		_, ok, err := a.conf.EndpointByID(ctx, id)
		return ok, err
	})
	if err != nil {
		return history.ThreadOptions{}, asError(err)
	}
	if len(bad) > 0 {
		return history.ThreadOptions{}, &Error{Code: CodeInvalidArgument, Message: "Nothing was changed: " + threads.FirstMessage(bad), Details: bad}
	}
	if in.ChangesOptions() {
		if err := a.db.SetThreadOptions(ctx, threadID, o); err != nil {
			return history.ThreadOptions{}, asError(err)
		}
	}
	if in.SystemPrompt != nil {
		if err := a.rt.SetInstructions(ctx, threadID, strings.TrimSpace(*in.SystemPrompt)); err != nil {
			return history.ThreadOptions{}, asError(err)
		}
	}
	a.emit("threads", ThreadsEvent{ThreadID: threadID})
	v, err := a.GetThread(threadID)
	if err != nil {
		return history.ThreadOptions{}, err
	}
	return v.Thread.Options, nil
}

package app

import (
	"time"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/app/threads"
)

// NewThread creates an empty thread from a preset ("" = the person's
// default, threads.FromPreset); its instructions become the thread's
// first system message.
func (a *App) NewThread(presetID string) (history.Thread, error) {
	if presetID == "" {
		presetID = DefaultPresetID
	}
	ctx, cancel := a.ctx()
	defer cancel()
	p, ok, err := a.conf.Preset(ctx, presetID)
	if err != nil {
		return history.Thread{}, asError(err)
	}
	if !ok {
		return history.Thread{}, errorf(CodeNotFound, "This preset no longer exists.")
	}
	t := threads.FromPreset(p, time.Now())
	if err := a.db.CreateThread(ctx, t); err != nil {
		return history.Thread{}, asError(err)
	}
	if p.Instructions != "" {
		if err := a.rt.SetInstructions(ctx, t.ID, p.Instructions); err != nil {
			return history.Thread{}, asError(err)
		}
		t.Options.SystemPrompt = p.Instructions
	}
	a.emit("threads", ThreadsEvent{ThreadID: t.ID})
	return t, nil
}

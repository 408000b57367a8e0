package app

import (
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/history"
)

// NewThread creates an empty thread from a preset ("" = the person's
// default): the preset's endpoint, model and tools become the thread's
// options and its instructions the thread's first system message.
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
	now := time.Now().UnixMilli()
	t := history.Thread{ID: agent.NewID("thread"), CreatedAt: now, UpdatedAt: now, Options: history.ThreadOptions{
		EndpointID: p.EndpointID, Model: p.Model,
	}}
	if p.ID != DefaultPresetID {
		t.Options.PresetID = p.ID
	}
	if p.Tools != nil {
		chosen := append([]string{}, *p.Tools...) // [] (no tools) stays a choice
		t.Options.Tools = &chosen
	}
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

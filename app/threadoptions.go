package app

import (
	"slices"
	"strings"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/app/config"
)

// ThreadOptionsInput changes a thread's options; a nil field is left as
// it is. EndpointID "" is the default endpoint, Model "" the endpoint's
// default model. Tools lists the only tools offered; AllTools offers every
// tool again. SystemPrompt sets the thread's instructions (stored with its
// messages, so a branch made earlier keeps the ones it ran with).
type ThreadOptionsInput struct {
	EndpointID   *string   `json:"endpointId,omitempty"`
	Model        *string   `json:"model,omitempty"`
	SystemPrompt *string   `json:"systemPrompt,omitempty"`
	Tools        *[]string `json:"tools,omitempty"`
	AllTools     bool      `json:"allTools,omitempty"`
}

// maxInstructions bounds a thread's instructions (characters).
const maxInstructions = 100_000

// SetThreadOptions changes a thread's endpoint, model, tools or
// instructions, effective from its next model call. Choosing another
// endpoint without a model resets the model to that endpoint's default.
// It returns the thread's options as GetThread shows them.
func (a *App) SetThreadOptions(threadID string, in ThreadOptionsInput) (history.ThreadOptions, error) {
	if a.readOnly != "" {
		return history.ThreadOptions{}, errorf(CodeUnavailable, "This is a read-only copy of a damaged database; nothing can be changed.")
	}
	ctx, cancel := a.ctx()
	defer cancel()
	t, err := a.db.Thread(ctx, threadID)
	if err != nil {
		return history.ThreadOptions{}, asError(err)
	}
	o := t.Options
	o.SystemPrompt = ""
	bad := map[string]string{}
	if in.EndpointID != nil {
		id := strings.TrimSpace(*in.EndpointID)
		if id != "" {
			_, ok, err := a.conf.EndpointByID(ctx, id)
			if err != nil {
				return history.ThreadOptions{}, asError(err)
			}
			if !ok {
				bad["endpointId"] = "This endpoint does not exist (any more); choose another one."
			}
		}
		if id != o.EndpointID && in.Model == nil {
			o.Model = "" // the old endpoint's model may not exist on the new one
		}
		o.EndpointID = id
	}
	if in.Model != nil {
		o.Model = strings.TrimSpace(*in.Model)
		if len(o.Model) > 500 {
			bad["model"] = "This model name is too long."
		}
	}
	if in.SystemPrompt != nil && len(*in.SystemPrompt) > maxInstructions {
		bad["systemPrompt"] = "The instructions are too long (at most 100,000 characters)."
	}
	switch {
	case in.AllTools:
		o.Tools = nil
	case in.Tools != nil:
		chosen := config.CleanNames(*in.Tools)
		if chosen == nil {
			chosen = []string{} // no tools at all is a choice, not the default
		}
		o.Tools = &chosen
	}
	if len(bad) > 0 {
		return history.ThreadOptions{}, &Error{Code: CodeInvalidArgument, Message: "Nothing was changed: " + firstMessage(bad), Details: bad}
	}
	if in.EndpointID != nil || in.Model != nil || in.Tools != nil || in.AllTools {
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

// firstMessage is one message of a field-error map, in a stable order.
func firstMessage(bad map[string]string) string {
	keys := make([]string, 0, len(bad))
	for k := range bad {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return bad[keys[0]]
}

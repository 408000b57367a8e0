package threads

import (
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/app/config"
)

// FromPreset is a new, empty thread made from a preset: the preset's
// endpoint, model and tools become its options (its instructions become
// the thread's first system message, which the runtime stores).
func FromPreset(p config.Preset, now time.Time) history.Thread {
	ms := now.UnixMilli()
	t := history.Thread{ID: agent.NewID("thread"), CreatedAt: ms, UpdatedAt: ms, Options: history.ThreadOptions{
		EndpointID: p.EndpointID, Model: p.Model,
	}}
	if p.ID != config.DefaultPresetID {
		t.Options.PresetID = p.ID
	}
	if p.Tools != nil {
		chosen := append([]string{}, *p.Tools...) // [] (no tools) stays a choice
		t.Options.Tools = &chosen
	}
	return t
}

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

// MaxInstructions bounds a thread's instructions (characters).
const MaxInstructions = 100_000

// ChangesOptions reports whether in changes the stored options (the
// instructions are stored with the messages instead).
func (in ThreadOptionsInput) ChangesOptions() bool {
	return in.EndpointID != nil || in.Model != nil || in.Tools != nil || in.AllTools
}

// Apply changes o as in asks, checking each field; bad says what was
// refused, by field (nothing is to be saved then). Choosing another
// endpoint without a model resets the model to that endpoint's default.
// endpointExists looks a saved, detected or environment endpoint up.
func Apply(o history.ThreadOptions, in ThreadOptionsInput, endpointExists func(id string) (bool, error)) (_ history.ThreadOptions, bad map[string]string, err error) {
	o.SystemPrompt = ""
	bad = map[string]string{}
	if in.EndpointID != nil {
		id := strings.TrimSpace(*in.EndpointID)
		if id != "" {
			ok, err := endpointExists(id)
			if err != nil {
				return o, nil, err
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
	if in.SystemPrompt != nil && len(*in.SystemPrompt) > MaxInstructions {
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
	return o, bad, nil
}

// FirstMessage is one message of a field-error map, in a stable order.
func FirstMessage(bad map[string]string) string {
	keys := make([]string, 0, len(bad))
	for k := range bad {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return bad[keys[0]]
}

// FileName is the name an export of a thread titled title is saved
// under, without its extension: no path, no control, bidi or other
// invisible format character, never only dots.
func FileName(title string) string {
	if title == "" {
		title = "thread"
	}
	var b strings.Builder
	for _, r := range title {
		switch {
		case r == '/' || r == '\\' || r == ':' || r == '*' || r == '?' || r == '"' || r == '<' || r == '>' || r == '|' || unicode.IsControl(r):
			b.WriteRune('-')
		case unicode.Is(unicode.Cf, r) || r == utf8.RuneError:
			// Bidi overrides and other invisible format characters would
			// let a title disguise the name's extension.
		default:
			b.WriteRune(r)
		}
	}
	name := agent.Clip(strings.TrimSpace(b.String()), 80)
	if strings.Trim(name, ". ") == "" {
		return "thread"
	}
	return name
}

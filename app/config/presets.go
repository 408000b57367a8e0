package config

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/tools"
)

// Presets: named bundles of instructions, endpoint, model and tools a new
// chat starts from. A few ship with Juncture; they can be edited (the edit
// is saved as an override of the shipped one) or deleted (hidden). The
// preset "default" is the person's default for new chats: its instructions
// and tools (its endpoint and model are the default endpoint's).

// DefaultPresetID is the preset a new chat starts from when it names none.
const DefaultPresetID = "default"

// Settings keys of the presets (JSON values, except defaultInstructions).
const (
	keyPresets             = "presets"
	keyDefaultInstructions = "defaultInstructions"
	keyDefaultTools        = "defaultTools"
)

// Preset is a named starting point for new chats. Tools nil offers every
// tool; a list offers only those (by the names the model sees).
type Preset struct {
	ID           string    `json:"id"`
	Name         string    `json:"name"`
	Instructions string    `json:"instructions"`
	EndpointID   string    `json:"endpointId"`
	Model        string    `json:"model"`
	Tools        *[]string `json:"tools"`
	// Builtin marks the presets Juncture ships (the default included).
	Builtin bool `json:"builtin"`
}

func toolList(names ...string) *[]string { return &names }

// builtinPresets are the presets Juncture ships, in the order listed.
var builtinPresets = []Preset{
	{ID: DefaultPresetID, Name: "Default", Builtin: true},
	{ID: "general", Name: "General assistant", Builtin: true,
		Instructions: "Be concise and direct. Use Markdown, with headings and lists only when they help. Say so when you are not sure, and ask one short question when a request is ambiguous."},
	{ID: "code-reviewer", Name: "Code reviewer", Builtin: true,
		Instructions: "You review code. Read the files involved before judging them. List bugs, security problems and unclear code first, each with its file and line and how to fix it; keep remarks on style short. Do not change any file.",
		Tools:        toolList(tools.ToolListFiles, tools.ToolReadFile)},
	{ID: "writing-editor", Name: "Writing editor", Builtin: true,
		Instructions: "You are a careful editor. Improve clarity, structure and grammar while keeping the author's voice and meaning. Show the edited text first, then a short list of the main changes and why.",
		Tools:        toolList(tools.ToolReadFile, tools.ToolWriteFile)},
	{ID: "local-ollama", Name: "Local model (Ollama)", Builtin: true, EndpointID: "ollama",
		Instructions: "You run on the person's own machine. Keep answers short and plain, and say so when a question needs more than you know."},
}

// presetStore is what is saved of the presets: the person's own, the
// overrides of shipped ones, the shipped ones deleted, and the default's
// instructions and tools.
type presetStore struct {
	Items               []Preset  `json:"items"`
	Hidden              []string  `json:"hidden"`
	defaultInstructions string    // keyDefaultInstructions
	defaultTools        *[]string // keyDefaultTools ("" or absent: every tool)
}

func (p *presetStore) load(m map[string]string) error {
	*p = presetStore{defaultInstructions: m[keyDefaultInstructions]}
	if s := m[keyDefaultTools]; s != "" && s != "null" {
		var t []string
		if err := json.Unmarshal([]byte(s), &t); err == nil {
			p.defaultTools = &t
		}
	}
	if s := m[keyPresets]; s != "" {
		if err := json.Unmarshal([]byte(s), p); err != nil {
			p.Items, p.Hidden = nil, nil
			return err
		}
	}
	return nil
}

func (p *presetStore) json() string {
	b, _ := json.Marshal(p)
	return string(b)
}

func builtinPreset(id string) (Preset, bool) {
	for _, b := range builtinPresets {
		if b.ID == id {
			return b, true
		}
	}
	return Preset{}, false
}

// list is every preset, shipped ones (as edited) first.
func (p *presetStore) list() []Preset {
	var out []Preset
	for _, b := range builtinPresets {
		if b.ID == DefaultPresetID {
			b.Instructions, b.Tools = p.defaultInstructions, cloneTools(p.defaultTools)
			out = append(out, b)
			continue
		}
		if slices.Contains(p.Hidden, b.ID) {
			continue
		}
		if i := slices.IndexFunc(p.Items, func(x Preset) bool { return x.ID == b.ID }); i >= 0 {
			o := p.Items[i]
			o.Builtin, o.Tools = true, cloneTools(o.Tools)
			out = append(out, o)
			continue
		}
		b.Tools = cloneTools(b.Tools)
		out = append(out, b)
	}
	for _, x := range p.Items {
		if _, ok := builtinPreset(x.ID); !ok {
			x.Builtin, x.Tools = false, cloneTools(x.Tools)
			out = append(out, x)
		}
	}
	return out
}

func (p *presetStore) find(id string) (Preset, bool) {
	for _, x := range p.list() {
		if x.ID == id {
			return x, true
		}
	}
	return Preset{}, false
}

func cloneTools(t *[]string) *[]string {
	if t == nil {
		return nil
	}
	c := slices.Clone(*t)
	if c == nil {
		c = []string{}
	}
	return &c
}

// ListPresets lists the presets: the default, the shipped ones and the
// person's own.
func (c *Catalog) ListPresets(ctx context.Context) ([]Preset, error) {
	done, err := c.open(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	return c.presets.list(), nil
}

// Preset finds a preset by id.
func (c *Catalog) Preset(ctx context.Context, id string) (Preset, bool, error) {
	done, err := c.open(ctx)
	if err != nil {
		return Preset{}, false, err
	}
	defer done()
	p, ok := c.presets.find(id)
	return p, ok, nil
}

// SavePreset adds (id "") or replaces a preset. Editing a shipped preset
// saves the edit in its place; the default keeps only its instructions and
// tools (its endpoint and model are the default endpoint's).
func (c *Catalog) SavePreset(ctx context.Context, p Preset) (Preset, error) {
	done, err := c.open(ctx)
	if err != nil {
		return Preset{}, err
	}
	defer done()
	p.Name, p.EndpointID, p.Model = strings.TrimSpace(p.Name), strings.TrimSpace(p.EndpointID), strings.TrimSpace(p.Model)
	p.Instructions = strings.TrimSpace(p.Instructions)
	if p.Tools != nil {
		t := CleanNames(*p.Tools)
		p.Tools = &t
	}
	if p.ID == DefaultPresetID {
		return c.saveDefaultPreset(ctx, p)
	}
	bad := map[string]string{}
	if p.Name == "" {
		bad["name"] = "Give the preset a name."
	} else if len(p.Name) > 100 {
		bad["name"] = "Use a name of at most 100 characters."
	}
	if p.EndpointID != "" && !c.endpointKnownLocked(p.EndpointID) {
		bad["endpointId"] = "This endpoint does not exist (any more); choose another or the default."
	}
	if len(bad) > 0 {
		return Preset{}, invalidFields(bad)
	}
	_, shipped := builtinPreset(p.ID)
	i := slices.IndexFunc(c.presets.Items, func(x Preset) bool { return x.ID == p.ID })
	if p.ID != "" && !shipped && i < 0 {
		return Preset{}, notFound("This preset no longer exists.")
	}
	if p.ID == "" {
		p.ID = agent.NewID("preset")
	}
	p.Builtin = false // stored without it; list says which are shipped
	next := presetStore{Items: slices.Clone(c.presets.Items), Hidden: slices.DeleteFunc(slices.Clone(c.presets.Hidden), func(h string) bool { return h == p.ID }),
		defaultInstructions: c.presets.defaultInstructions, defaultTools: c.presets.defaultTools}
	if i >= 0 {
		next.Items[i] = p
	} else {
		next.Items = append(next.Items, p)
	}
	if err := c.saveKeys(ctx, map[string]string{keyPresets: next.json()}, nil); err != nil {
		return Preset{}, err
	}
	c.presets = next
	saved, _ := c.presets.find(p.ID)
	return saved, nil
}

// saveDefaultPreset keeps the default preset's instructions and tools.
// The caller holds c.mu.
func (c *Catalog) saveDefaultPreset(ctx context.Context, p Preset) (Preset, error) {
	next := c.presets
	next.defaultInstructions, next.defaultTools = p.Instructions, p.Tools
	tools := ""
	if p.Tools != nil {
		b, _ := json.Marshal(*p.Tools)
		tools = string(b)
	}
	if err := c.saveKeys(ctx, map[string]string{keyDefaultInstructions: p.Instructions, keyDefaultTools: tools}, nil); err != nil {
		return Preset{}, err
	}
	c.presets = next
	saved, _ := c.presets.find(DefaultPresetID)
	return saved, nil
}

// endpointKnownLocked says whether an endpoint id exists (a local server
// counts, running or not). The caller holds c.mu.
func (c *Catalog) endpointKnownLocked(id string) bool {
	if c.IsLocalID(id) {
		return true
	}
	for _, e := range c.endpointsLocked() {
		if e.ID == id {
			return true
		}
	}
	return false
}

// DeletePreset deletes the person's preset, or hides a shipped one. The
// default cannot be deleted.
func (c *Catalog) DeletePreset(ctx context.Context, id string) error {
	if id == DefaultPresetID {
		return refused("The default preset cannot be deleted; clear its instructions instead.")
	}
	done, err := c.open(ctx)
	if err != nil {
		return err
	}
	defer done()
	if _, ok := c.presets.find(id); !ok {
		return notFound("This preset no longer exists.")
	}
	next := presetStore{Items: slices.DeleteFunc(slices.Clone(c.presets.Items), func(x Preset) bool { return x.ID == id }),
		Hidden: slices.Clone(c.presets.Hidden), defaultInstructions: c.presets.defaultInstructions, defaultTools: c.presets.defaultTools}
	if _, shipped := builtinPreset(id); shipped {
		next.Hidden = append(next.Hidden, id)
	}
	if err := c.saveKeys(ctx, map[string]string{keyPresets: next.json()}, nil); err != nil {
		return err
	}
	c.presets = next
	return nil
}

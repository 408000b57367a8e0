package app

import (
	"slices"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/history"
)

func (f *fixture) presets() []Preset {
	f.t.Helper()
	var list []Preset
	if e := f.call(&list, "ListPresets"); e != nil {
		f.t.Fatal(e)
	}
	return list
}

func presetWithID(list []Preset, id string) (Preset, bool) {
	i := slices.IndexFunc(list, func(p Preset) bool { return p.ID == id })
	if i < 0 {
		return Preset{}, false
	}
	return list[i], true
}

func TestShippedPresetsAreListedEditableAndKept(t *testing.T) {
	f := newFixture(t, nil)
	list := f.presets()
	var ids []string
	for _, p := range list {
		ids = append(ids, p.ID)
		if !p.Builtin {
			t.Errorf("%s is not marked shipped", p.ID)
		}
	}
	if strings.Join(ids, ",") != "default,general,code-reviewer,writing-editor,local-ollama" {
		t.Fatalf("presets %v", ids)
	}
	if r, _ := presetWithID(list, "code-reviewer"); r.Tools == nil || strings.Join(*r.Tools, ",") != "list_files,read_file" || r.Instructions == "" {
		t.Fatalf("code reviewer %+v", r)
	}
	if o, _ := presetWithID(list, "local-ollama"); o.EndpointID != "ollama" {
		t.Fatalf("local preset %+v", o)
	}

	// Editing a shipped preset saves it in place.
	var edited Preset
	f.must(&edited, "SavePreset", Preset{ID: "general", Name: "General (mine)", Instructions: "  Be brief.  "})
	if edited.ID != "general" || !edited.Builtin || edited.Instructions != "Be brief." || edited.Name != "General (mine)" {
		t.Fatalf("edited %+v", edited)
	}
	var mine Preset
	f.must(&mine, "SavePreset", Preset{Name: "Mine", Instructions: "Mine.", EndpointID: "env", Model: "fake-model", Tools: &[]string{"read_file", " read_file ", ""}})
	if mine.ID == "" || mine.Builtin || mine.Tools == nil || strings.Join(*mine.Tools, ",") != "read_file" {
		t.Fatalf("own preset %+v", mine)
	}
	f.must(nil, "SavePreset", Preset{ID: DefaultPresetID, Name: "ignored", Instructions: "Default instructions.", EndpointID: "env"})
	f.must(nil, "DeletePreset", "writing-editor")

	// All of it survives a restart.
	f.stop()
	f.start(f.env)
	list = f.presets()
	ids = ids[:0]
	for _, p := range list {
		ids = append(ids, p.ID)
	}
	if strings.Join(ids, ",") != "default,general,code-reviewer,local-ollama,"+mine.ID {
		t.Fatalf("presets after a restart %v", ids)
	}
	if g, _ := presetWithID(list, "general"); g.Instructions != "Be brief." {
		t.Fatalf("edit lost: %+v", g)
	}
	if d, _ := presetWithID(list, DefaultPresetID); d.Instructions != "Default instructions." || d.Name != "Default" || d.EndpointID != "" {
		t.Fatalf("default %+v", d)
	}
	// Saving a deleted shipped preset brings it back.
	f.must(nil, "SavePreset", Preset{ID: "writing-editor", Name: "Editor"})
	if _, ok := presetWithID(f.presets(), "writing-editor"); !ok {
		t.Fatal("the saved shipped preset is still hidden")
	}
}

func TestSavePresetAndDeletePresetRefuseWhatIsWrong(t *testing.T) {
	f := newFixture(t, nil)
	cases := []struct {
		name   string
		method string
		arg    any
		code   string
		field  string
	}{
		{"no name", "SavePreset", Preset{Instructions: "x"}, CodeInvalidSettings, "name"},
		{"long name", "SavePreset", Preset{Name: strings.Repeat("n", 101)}, CodeInvalidSettings, "name"},
		{"unknown endpoint", "SavePreset", Preset{Name: "x", EndpointID: "endpoint-nope"}, CodeInvalidSettings, "endpointId"},
		{"unknown id", "SavePreset", Preset{ID: "preset-nope", Name: "x"}, CodeNotFound, ""},
		{"delete the default", "DeletePreset", DefaultPresetID, CodeInvalidArgument, ""},
		{"delete an unknown one", "DeletePreset", "preset-nope", CodeNotFound, ""},
		{"new thread from an unknown preset", "NewThread", "preset-nope", CodeNotFound, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := f.call(nil, tc.method, tc.arg)
			if e == nil || e.Code != tc.code || (tc.field != "" && e.Details[tc.field] == "") {
				t.Fatalf("%s(%v) = %+v, want %s on %q", tc.method, tc.arg, e, tc.code, tc.field)
			}
		})
	}
}

// A thread made from a preset runs with the preset's instructions,
// endpoint, model and tools; a thread made by default (New chat, or a
// first message) with the default preset's instructions.
func TestNewThreadStartsFromAPreset(t *testing.T) {
	f := newFixture(t, nil)
	answerAll(f.fake, "Reviewed.")
	var p Preset
	f.must(&p, "SavePreset", Preset{Name: "Strict", Instructions: "Be strict.", EndpointID: "env", Model: "strict-model", Tools: &[]string{"list_files"}})
	cases := []struct {
		name, preset, text, instructions, model string
		tools                                   []string // offered (nil: every tool)
		wantOptions                             history.ThreadOptions
	}{
		{"shipped code reviewer", "code-reviewer", "review this", "You review code.", "fake-model", []string{"list_files", "read_file"},
			history.ThreadOptions{PresetID: "code-reviewer", Tools: &[]string{"list_files", "read_file"}}},
		{"own preset", p.ID, "be strict", "Be strict.", "strict-model", []string{"list_files"},
			history.ThreadOptions{PresetID: p.ID, EndpointID: "env", Model: "strict-model", Tools: &[]string{"list_files"}}},
		{"the default, without instructions", "", "plain", "", "fake-model", nil, history.ThreadOptions{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			th := f.newThread(tc.preset)
			var v ThreadView
			if e := f.call(&v, "GetThread", th.ID); e != nil {
				t.Fatal(e)
			}
			o := v.Thread.Options
			if !strings.HasPrefix(o.SystemPrompt, tc.instructions) || (tc.instructions == "" && o.SystemPrompt != "") {
				t.Fatalf("instructions %q, want %q", o.SystemPrompt, tc.instructions)
			}
			o.SystemPrompt = ""
			if o.PresetID != tc.wantOptions.PresetID || o.EndpointID != tc.wantOptions.EndpointID || o.Model != tc.wantOptions.Model ||
				(o.Tools == nil) != (tc.wantOptions.Tools == nil) || (o.Tools != nil && strings.Join(*o.Tools, ",") != strings.Join(*tc.wantOptions.Tools, ",")) {
				t.Fatalf("options %+v, want %+v", o, tc.wantOptions)
			}
			f.sendAndWait(th.ID, tc.text)
			r := userRequests(f.fake, tc.text)
			if len(r) != 1 || r[0].Model != tc.model {
				t.Fatalf("requests %s", describe(r))
			}
			if sys := r[0].Messages[0].Content; !strings.HasPrefix(sys, systemPrompt) || !strings.Contains(sys, tc.instructions) {
				t.Fatalf("system message %q", sys)
			}
			if tc.tools != nil {
				var offered []string
				for _, tl := range r[0].Tools {
					if tl.Name != "ask_user" {
						offered = append(offered, tl.Name)
					}
				}
				if strings.Join(offered, ",") != strings.Join(tc.tools, ",") {
					t.Fatalf("tools offered %v, want %v", offered, tc.tools)
				}
			} else if !r[0].HasTool("read_file") || !r[0].HasTool("list_files") {
				t.Fatalf("every tool should be offered: %d tools", len(r[0].Tools))
			}
		})
	}
	// The default preset's instructions reach threads made by a first message too.
	f.must(nil, "SavePreset", Preset{ID: DefaultPresetID, Instructions: "Default rules."})
	f.sendIdle("", "first message")
	if r := userRequests(f.fake, "first message"); len(r) != 1 || !strings.HasSuffix(r[0].Messages[0].Content, "\n\nDefault rules.") {
		t.Fatalf("requests %s", describe(r))
	}
}

package app

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/juncture-app/juncture/app/secrets"
)

// TestEveryWritingMethodIsRefusedReadOnly calls every method declared as
// writing on an app browsing a read-only copy, through the browser's
// dispatcher (the guard before the call) and directly (the desktop
// window: Wails calls the bound method itself): each is refused with
// CodeUnavailable and the words it always had, and writes nothing.
func TestEveryWritingMethodIsRefusedReadOnly(t *testing.T) {
	f := newFixture(t, nil)
	a := f.svc.App()
	// The refusals as they were written in each method before the guard.
	want := map[string]string{
		"SendInput":           "This is a read-only copy of a damaged database; new messages cannot be saved.",
		"EditMessage":         "This is a read-only copy of a damaged database; messages cannot be edited.",
		"Regenerate":          "This is a read-only copy of a damaged database; answers cannot be regenerated.",
		"ContinueAnswer":      "This is a read-only copy of a damaged database; answers cannot be continued.",
		"Answer":              "This is a read-only copy of a damaged database; answers cannot be saved.",
		"ResolveInterrupts":   "This is a read-only copy of a damaged database; answers cannot be saved.",
		"RespondPermission":   "This is a read-only copy of a damaged database; answers cannot be saved.",
		"CompleteClientTool":  "This is a read-only copy of a damaged database; answers cannot be saved.",
		"DeleteAllHistory":    "This is a read-only copy of a damaged database.",
		"SetThreadOptions":    "This is a read-only copy of a damaged database; nothing can be changed.",
		"SaveEndpoint":        "This is a read-only copy of a damaged database; nothing can be saved.",
		"SaveSettings":        "This is a read-only copy of a damaged database; nothing can be saved.",
		"DeleteEndpoint":      "This is a read-only copy of a damaged database; nothing can be changed.",
		"SavePreset":          "This is a read-only copy of a damaged database; nothing can be saved.",
		"DeletePreset":        "This is a read-only copy of a damaged database; nothing can be changed.",
		"StartDemo":           "This is a read-only copy of a damaged database; nothing can be saved.",
		"CallToolFromView":    "This is a read-only copy of a damaged database; tools cannot be called.",
		"SaveMCPServer":       "This is a read-only copy of a damaged database; nothing can be saved.",
		"DeleteMCPServer":     "This is a read-only copy of a damaged database; nothing can be changed.",
		"SetMCPServerEnabled": "This is a read-only copy of a damaged database; nothing can be changed.",
		"SaveMCPConfigText":   "This is a read-only copy of a damaged database; nothing can be saved.",
		"ImportClaudeConfig":  "This is a read-only copy of a damaged database; nothing can be saved.",
		"SignInMCPServer":     "This is a read-only copy of a damaged database; nothing can be changed.",
		"SignOutMCPServer":    "This is a read-only copy of a damaged database; nothing can be changed.",
	}
	for name := range writers {
		if _, ok := want[name]; !ok {
			t.Errorf("%s is declared as writing but has no expected refusal here", name)
		}
	}
	// Arguments that would pass each method's own checks.
	args := map[string][]any{
		"SendInput":    {"", "hello", nil},
		"EditMessage":  {"thread-x", "message-x", "hello"},
		"SaveEndpoint": {Endpoint{Name: "x", BaseURL: "http://127.0.0.1:9/v1"}},
		"SavePreset":   {Preset{Name: "x"}},
		// A key typed into Settings → General: refused before it reaches
		// the vault, which the read-only copy shares with the damaged
		// database's own app.
		"SaveSettings": {Settings{BaseURL: "http://127.0.0.1:9/v1", APIKey: "sk-read-only-copy", Model: "m", LoopGuard: 20, Theme: "system"}},
	}
	threadsBefore := f.threadCount()
	endpointsBefore := len(f.endpoints())
	a.readOnly = "/tmp/copy.db"
	defer func() { a.readOnly = "" }()
	table, direct := a.callTable(), a.methodCalls()
	for _, name := range slices.Sorted(maps.Keys(want)) {
		raw := encodeArgs(t, args[name])
		for via, calls := range map[string]map[string]call{"dispatcher": table, "method": direct} {
			if via == "method" && name == "RespondPermission" {
				// It finds the waiting approval before it answers (and
				// meets the guard): without one it says not-found.
				continue
			}
			c, ok := calls[name]
			if !ok {
				t.Fatalf("%s is not in the call table", name)
			}
			_, err := c(raw)
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeUnavailable || e.Message != want[name] {
				t.Errorf("%s via the %s: %v, want %q", name, via, err, want[name])
			}
		}
	}
	a.readOnly = ""
	if n := f.threadCount(); n != threadsBefore {
		t.Fatalf("threads %d → %d: a refused call wrote", threadsBefore, n)
	}
	if n := len(f.endpoints()); n != endpointsBefore {
		t.Fatalf("endpoints %d → %d: a refused call wrote", endpointsBefore, n)
	}
	if k, _ := a.keys.Get(secrets.SettingAccount("apiKey")); k == "sk-read-only-copy" {
		t.Fatal("a refused SaveSettings put its key in the vault")
	}
	// Reading stays possible.
	if _, err := table["ListThreads"](nil); err != nil {
		t.Fatalf("ListThreads on a read-only copy: %v", err)
	}
}

// threadCount is how many threads the app lists.
func (f *fixture) threadCount() int {
	f.t.Helper()
	p, err := f.svc.App().ListThreads("", 500)
	if err != nil {
		f.t.Fatal(err)
	}
	return len(p.Threads)
}

func encodeArgs(t *testing.T, args []any) []json.RawMessage {
	t.Helper()
	out := make([]json.RawMessage, len(args))
	for i, a := range args {
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = b
	}
	return out
}

package app

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/history"
)

// TestDesktopViewFrameCannotCallBindings: in the desktop window every frame,
// an MCP App view's included, can post to Wails' bindings (WebKit gives
// frames the page's message handler; Wails checks the top page's origin).
// What is bound must therefore refuse a call without the window's token:
// the bindings are the gate alone (never *App), and the gate refuses a
// view's blind ClearLedger("clear") or AddRule while the window's calls
// (with the token from Session) run.
func TestDesktopViewFrameCannotCallBindings(t *testing.T) {
	f := newFixture(t, nil)
	bound := DesktopBindings(f.svc.app)
	for _, b := range bound {
		if _, isApp := b.(*App); isApp {
			t.Fatal("the desktop window binds *App: a view's frame can call every method")
		}
		typ := reflect.TypeOf(b)
		for k := 0; k < typ.NumMethod(); k++ {
			if n := typ.Method(k).Name; n != "Session" && n != "Call" {
				t.Errorf("%s binds %s, which takes no token", typ, n)
			}
		}
	}
	g, ok := bound[0].(*DesktopGate)
	if !ok || len(bound) != 1 {
		t.Fatalf("bindings %T: want the gate alone", bound)
	}
	raw := func(vs ...any) []json.RawMessage {
		out := make([]json.RawMessage, len(vs))
		for i, v := range vs {
			out[i], _ = json.Marshal(v)
		}
		return out
	}
	rule := history.PermissionRule{Tool: "run_command", Scope: history.ScopeTool, Duration: history.DurationForever}
	for _, tok := range []string{"", "guess", g.Session() + "x"} {
		if _, err := g.Call(tok, "AddRule", raw(rule)); err == nil {
			t.Errorf("token %q: AddRule ran", tok)
		}
		if _, err := g.Call(tok, "ClearLedger", raw("clear")); err == nil {
			t.Errorf("token %q: ClearLedger ran", tok)
		}
	}
	var rules []RuleView
	f.must(&rules, "ListRules")
	if len(rules) != 0 {
		t.Fatalf("a call without the token made rules: %+v", rules)
	}
	// The window, with the token, calls as before (errors included).
	if _, err := g.Call(g.Session(), "AddRule", raw(rule)); err != nil {
		t.Fatalf("the window's AddRule: %v", err)
	}
	var e *Error
	if _, err := g.Call(g.Session(), "NoSuchMethod", nil); !errors.As(err, &e) || e.Code != CodeNotImplemented {
		t.Errorf("unknown method: %v", err)
	}
	if _, err := g.Call(g.Session(), "ClearLedger", raw("")); !errors.As(err, &e) {
		t.Errorf("ClearLedger without confirmation: %v, want the app's error", err)
	}
}

// The window's page can call before OnStartup's StartWith has set the App
// up (OnStartup runs beside Wails making the window), and after a start
// that failed (a second Juncture on the data folder: its dialog is up while
// the page loads). Such a call waits for the start, and gets a clear error
// if none comes, never a nil App's panic or a race with StartWith.
func TestDesktopCallBeforeStart(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "JUNCTURE_MODEL": "fake-model", "JUNCTURE_WORKSPACE": t.TempDir()}
	a := &App{}
	g := NewDesktopGate(a)
	type result struct {
		v   any
		err error
	}
	got := make(chan result, 1)
	go func() {
		v, err := g.Call(g.Session(), "Status", nil)
		got <- result{v, err}
	}()
	svc, err := StartWith(context.Background(), a, Config{DataDir: dir, Mode: "desktop", Getenv: func(k string) string { return env[k] }, MCPConfigPath: filepath.Join(dir, "mcp.json")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = svc.Shutdown(ctx)
	})
	select {
	case r := <-got:
		if r.err != nil || r.v == nil {
			t.Fatalf("Status called before the start: %v, %v", r.v, r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a call made before the start never returned")
	}

	// A start that never comes: a clear error after the wait.
	never := NewDesktopGate(&App{})
	never.startWait = 50 * time.Millisecond
	_, err = never.Call(never.Session(), "Status", nil)
	var ae *Error
	if !errors.As(err, &ae) || ae.Code != CodeUnavailable {
		t.Fatalf("a call to an App that never started: %v, want %s", err, CodeUnavailable)
	}
}

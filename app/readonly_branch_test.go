package app

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/app/datafolder"
	"github.com/juncture-app/juncture/internal/testkit/dbdamage"
)

// TestReadOnlyCopySwitchesVersionsForReading: a read-only copy's version
// arrows show another version (SelectBranch answers with it, and the
// thread then reads as it), and nothing is written: the damaged file
// stays as it was.
func TestReadOnlyCopySwitchesVersionsForReading(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.SetFallback(func(r fakellm.Request) fakellm.Response {
		last := r.Messages[len(r.Messages)-1]
		return fakellm.Reply(fakellm.Text("answer to " + last.Content))
	})
	tid := f.sendIdle("", "otters").ThreadID
	var v ThreadView
	f.must(&v, "GetThread", tid)
	first := v.Messages[1]
	f.must(nil, "Regenerate", tid, first.ID)
	f.waitIdle(tid)
	f.must(&v, "GetThread", tid)
	second := v.Messages[1]
	if second.ID == first.ID || second.Branch == nil || second.Branch.Index != 2 {
		t.Fatalf("after regenerate: %+v", v.Messages)
	}
	f.stop()
	dbPath := datafolder.DatabasePath(f.dir)
	if err := dbdamage.BreakTable(context.Background(), dbPath, "settings"); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(dbPath)
	if err != nil {
		t.Fatal(err)
	}

	svc := mustStart(t, Config{DataDir: f.dir, Mode: "browser", Getenv: func(k string) string { return f.env[k] },
		MCPConfigPath: filepath.Join(f.dir, "mcp.json"), ReadOnlyCopy: true})
	t.Cleanup(func() { _ = svc.Shutdown(context.Background()) })
	a := svc.App()
	if a.Status().ReadOnly == "" {
		t.Fatal("not a read-only copy")
	}
	for _, c := range []struct {
		name      string
		selectID  string
		wantShown string
		wantIndex int
	}{
		{"the first answer", first.ID, first.ID, 1},
		{"the regenerated one again", second.ID, second.ID, 2},
		{"back to the first", first.ID, first.ID, 1},
	} {
		switched, err := a.SelectBranch(tid, c.selectID)
		if err != nil {
			t.Fatalf("%s: SelectBranch in a read-only copy: %v", c.name, err)
		}
		got, err := a.GetThread(tid)
		if err != nil {
			t.Fatal(err)
		}
		for _, view := range []ThreadView{switched, got} {
			if len(view.Messages) != 2 || view.Messages[1].ID != c.wantShown || view.Messages[1].Branch == nil || view.Messages[1].Branch.Index != c.wantIndex {
				t.Errorf("%s: shown %+v, want %s (version %d)", c.name, view.Messages, c.wantShown, c.wantIndex)
			}
		}
	}
	if err := svc.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the database changed under a read-only copy")
	}
}

// TestReadOnlyCopyRefusesToLeaveAVersionThatWaitsInItsOwnWords: where an
// approval waits, a copy keeps the version shown (as the live app does
// until it is answered), and says why in words true of a copy: it cannot
// answer or dismiss anything, so "answer or dismiss it first" (a search
// hit on another version shows the refusal) sends the person nowhere.
func TestReadOnlyCopyRefusesToLeaveAVersionThatWaitsInItsOwnWords(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.SetFallback(func(r fakellm.Request) fakellm.Response {
		last := r.Messages[len(r.Messages)-1]
		if !isTitleRequest(r) && last.Role == "user" && last.Content == "build it" {
			return fakellm.Reply(fakellm.ToolCall(0, "call_w", "run_command", `{"command":"make"}`))
		}
		return fakellm.Reply(fakellm.Text("answer to " + last.Content))
	})
	tid := f.sendIdle("", "otters").ThreadID
	var v ThreadView
	f.must(&v, "GetThread", tid)
	first := v.Messages[1]
	f.must(nil, "Regenerate", tid, first.ID)
	f.waitIdle(tid)
	f.must(nil, "SendInput", tid, "build it")
	f.waitIdle(tid)
	if f.must(&v, "GetThread", tid); len(v.Interrupts) != 1 {
		t.Fatalf("no approval waits: %+v", v.Interrupts)
	}
	f.stop()
	if err := dbdamage.BreakTable(context.Background(), datafolder.DatabasePath(f.dir), "settings"); err != nil {
		t.Fatal(err)
	}
	svc := mustStart(t, Config{DataDir: f.dir, Mode: "browser", Getenv: func(k string) string { return f.env[k] },
		MCPConfigPath: filepath.Join(f.dir, "mcp.json"), ReadOnlyCopy: true})
	t.Cleanup(func() { _ = svc.Shutdown(context.Background()) })
	a := svc.App()
	_, err := a.SelectBranch(tid, first.ID)
	var refused *Error
	if !errors.As(err, &refused) || refused.Code != CodeConflict {
		t.Fatalf("switching away from a version that waits, in a copy = %v, want a conflict", err)
	}
	for _, c := range []struct {
		words string
		want  bool
	}{
		{"read-only copy", true},
		{"waits", true},
		{"Answer or dismiss it", false},
	} {
		if strings.Contains(refused.Message, c.words) != c.want {
			t.Errorf("refusal %q: mentions %q = %v, want %v", refused.Message, c.words, !c.want, c.want)
		}
	}
	if got, err := a.GetThread(tid); err != nil || got.Messages[1].ID == first.ID {
		t.Errorf("a refused switch changed the copy's view: %+v, %v", got.Messages, err)
	}
}

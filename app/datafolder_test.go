package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/store"
)

// Defect 6: a second app on a data folder in use (a second window, or
// serve beside the window) does not start, and says which folder.
func TestSecondStartOnSameDataFolderRefused(t *testing.T) {
	f := newFixture(t, nil)
	svc, err := Start(context.Background(), Config{DataDir: f.dir, Mode: "browser", Getenv: func(k string) string { return f.env[k] },
		MCPConfigPath: filepath.Join(f.dir, "mcp.json")})
	if err == nil {
		svc.Shutdown(context.Background())
		t.Fatal("a second Start on the same data folder succeeded")
	}
	if !errors.Is(err, store.ErrInUse) || !strings.Contains(err.Error(), f.dir) {
		t.Fatalf("second Start = %v, want ErrInUse naming %s", err, f.dir)
	}
	// The first one still works.
	var st Status
	f.must(&st, "Status")
}

// Defect 7: a configuration folder left 0755, with mcp.json and the keys'
// fallback file 0644, is made 0700 and 0600 at start.
func TestConfigFolderMadePrivate(t *testing.T) {
	cfgHome := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfgHome)
	dir := filepath.Join(cfgHome, "juncture")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	for _, name := range []string{"mcp.json", "secrets.json"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, 0o644)
	}
	data := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(data, 0o755)
	svc, err := Start(context.Background(), Config{DataDir: data, Mode: "browser", Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Shutdown(context.Background())
	for p, want := range map[string]os.FileMode{
		dir: 0o700, filepath.Join(dir, "mcp.json"): 0o600, filepath.Join(dir, "secrets.json"): 0o600,
		data: 0o700, DatabasePath(data): 0o600, DatabasePath(data) + "-wal": 0o600,
	} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode().Perm(), want)
		}
	}
}

// Defect 10: on a full disk SendInput refuses the message before any run
// starts, with the code the window shows ("Disk full: your message was
// not saved"); nothing is stored, not even an empty new thread.
func TestSendInputOnFullDiskRefusedBeforeTheRun(t *testing.T) {
	f := newFixture(t, nil)
	answerAll(f.fake, "Saved answer.")
	first := f.sendIdle("", "hello")
	db := f.svc.app.db
	ctx := context.Background()
	if err := db.LimitSize(ctx, 1); err != nil { // capped at its size now: full
		t.Fatal(err)
	}
	defer db.LimitSize(ctx, 0)
	var before ThreadPage
	f.call(&before, "ListThreads", "", 100)

	for _, thread := range []string{first.ThreadID, ""} {
		e := f.call(nil, "SendInput", thread, "a message the disk has no room for")
		if e == nil || e.Code != CodeDiskFull || !strings.HasPrefix(e.Message, "Disk full: your message was not saved") {
			t.Fatalf("SendInput(%q) on a full disk = %+v", thread, e)
		}
	}
	if running, _ := f.svc.Runtime().Running(first.ThreadID); running {
		t.Error("a run started for a refused message")
	}
	var v ThreadView
	if e := f.call(&v, "GetThread", first.ThreadID); e != nil || len(v.Messages) != 2 {
		t.Errorf("thread after the refusal: %d messages, %+v", len(v.Messages), e)
	}
	var after ThreadPage
	f.call(&after, "ListThreads", "", 100)
	if len(after.Threads) != len(before.Threads) {
		t.Errorf("threads: %d before, %d after a refused new chat", len(before.Threads), len(after.Threads))
	}
}

// Defect 10: when the disk fills while an answer streams, the failing
// checkpoint is shown at once (a "status" event with SaveProblem), and
// the problem goes away when a write succeeds again.
func TestStreamingOnFullDiskIsShown(t *testing.T) {
	f := newFixture(t, nil)
	var steps []fakellm.Step
	for _, w := range fakellm.Words(strings.Repeat("A long streamed answer that keeps going. ", 400), 40) {
		steps = append(steps, w, fakellm.Delay(20*time.Millisecond))
	}
	f.script(fakellm.Reply(steps...), fakellm.Reply(fakellm.Text("Saved again.")))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs := f.events(ctx)
	sent := f.send("", "write a lot")
	db := f.svc.app.db
	defer db.LimitSize(context.Background(), 0)
	filled, shown := false, false
	for ev := range evs {
		if ev["name"] == "agui" && !filled {
			e := ev["data"].(map[string]any)["event"].(map[string]any)
			if e["type"] == "TEXT_MESSAGE_CONTENT" && e["messageId"] != nil {
				if err := db.LimitSize(ctx, 1); err != nil {
					t.Fatal(err)
				}
				filled = true
			}
		}
		if ev["name"] == "status" {
			if p, _ := ev["data"].(map[string]any)["saveProblem"].(string); strings.HasPrefix(p, "Disk full") {
				shown = true
				break
			}
		}
	}
	if !shown {
		t.Fatal("no status event said the disk is full")
	}
	f.call(nil, "Interrupt", sent.ThreadID)
	f.waitIdle(sent.ThreadID)
	if err := db.LimitSize(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	// The checkpointer reports the failed snapshot too (not only the
	// event); read it here so Shutdown has nothing left to report.
	if err := f.svc.app.cp.Flush(context.Background()); !errors.Is(err, store.ErrDiskFull) {
		t.Errorf("Flush after the failed checkpoints = %v, want ErrDiskFull", err)
	}
	f.sendAndWait(sent.ThreadID, "room again")
	var st Status
	if e := f.call(&st, "Status"); e != nil || st.SaveProblem != "" {
		t.Errorf("Status after a successful write = %+v, %v", st, e)
	}
}

package app

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
)

// crashChild runs when the test binary is re-executed as the process to
// kill: it starts the real app on DATA, sends one message, and waits.
func crashChild() {
	if os.Getenv("CRASH_TASK") == "1" {
		taskCrashChild()
		return
	}
	env := map[string]string{
		"OPENAI_BASE_URL": os.Getenv("CRASH_FAKE_URL"), "JUNCTURE_MODEL": "fake-model",
		"JUNCTURE_WORKSPACE": os.Getenv("CRASH_WS"),
	}
	svc, err := Start(context.Background(), Config{DataDir: os.Getenv("CRASH_DATA"), Mode: "browser", Getenv: func(k string) string { return env[k] },
		MCPConfigPath: os.Getenv("CRASH_MCP")})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child start:", err)
		os.Exit(3)
	}
	if name := os.Getenv("CRASH_WAIT_MCP"); name != "" {
		waitMCPReady(svc.App(), name)
	}
	if _, err := svc.App().SendInput(os.Getenv("CRASH_THREAD"), "go", nil); err != nil {
		fmt.Fprintln(os.Stderr, "child send:", err)
		os.Exit(3)
	}
	if os.Getenv("CRASH_REPORT_PENDING") == "1" {
		// Say when a question waits: the parent kills the app then.
		for {
			if v, err := svc.App().GetThread(os.Getenv("CRASH_THREAD")); err == nil && len(v.Interrupts) > 0 && !v.Running {
				fmt.Println("pending")
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	select {} // until SIGKILL
}

const crashWords = 300

func crashEssay() string {
	var b strings.Builder
	for i := 0; i < crashWords; i++ {
		fmt.Fprintf(&b, "word%d ", i)
	}
	return b.String()
}

// TestCrashAtRandomMoments kills the app with SIGKILL at seeded random
// moments — while it streams, while a tool runs, and with an approval
// pending — then restarts it on the same database and checks that nothing
// was lost or re-run. JUNCTURE_CRASH_TRIALS sets the number of trials:
// 5 by default, so `go test ./app` is not mostly this test; `make test`
// (scripts/test-all.sh) runs 50.
func TestCrashAtRandomMoments(t *testing.T) {
	trials := 5
	if n, err := strconv.Atoi(os.Getenv("JUNCTURE_CRASH_TRIALS")); err == nil && n > 0 {
		trials = n
	}
	seed := uint64(time.Now().UnixNano())
	if s, err := strconv.ParseUint(os.Getenv("JUNCTURE_CRASH_SEED"), 10, 64); err == nil {
		seed = s
	}
	t.Logf("seed %d (JUNCTURE_CRASH_SEED to replay)", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	essay := crashEssay()
	for i := 0; i < trials; i++ {
		scenario := []string{"stream", "stream", "tool", "pending"}[rng.IntN(4)]
		killAfter := time.Duration(30+rng.IntN(1500)) * time.Millisecond
		t.Run(fmt.Sprintf("%02d-%s-%v", i, scenario, killAfter), func(t *testing.T) {
			crashTrial(t, scenario, killAfter, essay)
		})
	}
}

func crashTrial(t *testing.T, scenario string, killAfter time.Duration, essay string) {
	fake := fakellm.Start(t)
	data, ws := t.TempDir(), t.TempDir()
	ran := filepath.Join(ws, "ran.txt")
	// Prepare the database as a person would have: tools on, and for the
	// tool scenario "always allow" for run_command.
	prep, err := Start(context.Background(), Config{DataDir: data, Mode: "browser", Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := prep.App().SaveSettings(Settings{BaseURL: fake.URL, Model: "fake-model", LoopGuard: 25, Theme: "system", EnableWriteTools: true}); err != nil {
		t.Fatal(err)
	}
	if err := prep.app.db.AddPermissionRule(context.Background(), history.PermissionRule{ID: "r1", Tool: "run_command", Scope: history.ScopeTool}); err != nil {
		t.Fatal(err)
	}
	if err := prep.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}

	var steps []fakellm.Step
	for _, w := range strings.Fields(essay) {
		steps = append(steps, fakellm.Text(w+" "), fakellm.Delay(4*time.Millisecond))
	}
	switch scenario {
	case "stream":
		fake.Enqueue(fakellm.Reply(steps...))
	case "tool":
		fake.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "call-run", "run_command", `{"command":"echo start >> ran.txt; sleep 1; echo end >> ran.txt"}`)))
		fake.SetFallback(func(fakellm.Request) fakellm.Response { return fakellm.Reply(fakellm.Text("The command ran.")) })
	case "pending":
		fake.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "call-write", "write_file", `{"path":"note.txt","content":"hello"}`)))
		fake.SetFallback(func(fakellm.Request) fakellm.Response { return fakellm.Reply(fakellm.Text("Written.")) })
	}

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "JUNCTURE_CRASH_CHILD=1", "CRASH_DATA="+data, "CRASH_WS="+ws, "CRASH_FAKE_URL="+fake.URL, "CRASH_THREAD=th-crash")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := fake.WaitRequests(ctx, 1); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("the child never called the model: %v\n%s", err, stderr.String())
	}
	streamStart := time.Now()
	time.Sleep(killAfter)
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	killedAt := time.Since(streamStart)
	ranBefore, _ := os.ReadFile(ran)

	// Restart on the same database: Open runs quick_check; Start runs recovery.
	a := restartAfterKill(t, Config{DataDir: data, Mode: "browser", Getenv: func(k string) string {
		return map[string]string{"JUNCTURE_WORKSPACE": ws}[k]
	}})
	v, err := a.GetThread("th-crash")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Messages) == 0 || v.Messages[0].Role != history.RoleUser || v.Messages[0].Content != "go" {
		t.Fatalf("the person's message was lost: %+v", v.Messages)
	}
	for _, m := range v.Messages {
		if m.Status == history.StatusStreaming {
			t.Fatalf("a message is still streaming after recovery: %+v", m)
		}
	}
	assertValidForModel(t, v.Messages)

	switch scenario {
	case "stream":
		var got string
		if len(v.Messages) > 1 {
			got, _ = history.StripMarker(v.Messages[1].Content)
		}
		if !strings.HasPrefix(essay, got) {
			t.Fatalf("stored text is not a prefix of the answer: %q", got)
		}
		// Streaming text is checkpointed every 200 ms: after 700 ms of a
		// 4 ms-a-word stream, some of it must have reached the disk.
		if killedAt > 700*time.Millisecond && got == "" {
			t.Fatalf("nothing of the answer was kept after %v of streaming", killedAt)
		}
	case "tool":
		if n := strings.Count(string(ranBefore), "start"); n > 1 {
			t.Fatalf("the command ran %d times before the kill", n)
		}
		time.Sleep(300 * time.Millisecond) // nothing may start by itself after the restart
		after, _ := os.ReadFile(ran)
		if strings.Count(string(after), "start") != strings.Count(string(ranBefore), "start") {
			t.Fatalf("the command ran again after the restart")
		}
		for _, m := range v.Messages {
			if m.Role == history.RoleTool && m.ToolCallID == "call-run" && strings.Count(string(ranBefore), "end") == 0 &&
				!strings.Contains(m.Content, "side effects unknown") && !strings.Contains(m.Content, "Interrupted") {
				t.Fatalf("a command cut by the crash reported %q", m.Content)
			}
		}
	case "pending":
		if len(v.Interrupts) == 1 {
			// Still answerable after the crash: approve and the file is written once.
			if err := a.RespondPermission("th-crash", "call-write", true, nil); err != nil {
				t.Fatalf("approving after restart: %v", err)
			}
			waitFor(t, func() bool { running, _ := a.rt.Running("th-crash"); return !running })
			b, err := os.ReadFile(filepath.Join(ws, "note.txt"))
			if err != nil || string(b) != "hello" {
				t.Fatalf("approved write after restart: %q %v", b, err)
			}
			v2, _ := a.GetThread("th-crash")
			assertValidForModel(t, v2.Messages)
		}
	}
}

// restartAfterKill starts the app again on a killed one's data folder;
// it shuts down when the test ends.
func restartAfterKill(t *testing.T, cfg Config) *App {
	t.Helper()
	svc, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatalf("restart after SIGKILL: %v", err)
	}
	t.Cleanup(func() {
		if err := svc.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return svc.App()
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("condition not met in 5 s")
}

func assertValidForModel(t *testing.T, msgs []history.Message) {
	t.Helper()
	out, _ := history.ForModel(msgs)
	open := map[string]bool{}
	for _, m := range out {
		if m.Role == history.RoleTool {
			if !open[m.ToolCallID] {
				t.Fatalf("result for %s answers no open call", m.ToolCallID)
			}
			delete(open, m.ToolCallID)
			continue
		}
		if len(open) > 0 {
			t.Fatalf("%s message follows unanswered calls %v", m.Role, open)
		}
		for _, c := range m.ToolCalls {
			if !json.Valid([]byte(c.Arguments)) {
				t.Fatalf("invalid arguments %q", c.Arguments)
			}
			open[c.ID] = true
		}
	}
	if len(open) > 0 {
		t.Fatalf("unanswered calls %v", open)
	}
}

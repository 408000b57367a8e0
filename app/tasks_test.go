package app

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/internal/taskserver"
)

// taskCrashChild is crashChild for a task: it starts the app with an MCP
// configuration, waits for the server to be ready, sends one message and
// waits to be killed.
func taskCrashChild() {
	env := map[string]string{"JUNCTURE_WORKSPACE": os.Getenv("CRASH_WS")}
	svc, err := Start(context.Background(), Config{DataDir: os.Getenv("CRASH_DATA"), Mode: "browser",
		MCPConfigPath: os.Getenv("CRASH_MCP"), Getenv: func(k string) string { return env[k] }})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child start:", err)
		os.Exit(3)
	}
	if !mcpReady(svc, 20*time.Second) {
		fmt.Fprintln(os.Stderr, "child: the MCP server never got ready")
		os.Exit(3)
	}
	if _, err := svc.App().SendInput(os.Getenv("CRASH_THREAD"), "research tides", nil); err != nil {
		fmt.Fprintln(os.Stderr, "child send:", err)
		os.Exit(3)
	}
	select {} // until SIGKILL
}

func mcpReady(svc *Service, within time.Duration) bool {
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if ss := svc.app.mcp.Servers(); len(ss) == 1 && ss[0].Status == mcp.StatusReady && len(ss[0].Tools) > 0 {
			return true
		}
	}
	return false
}

// taskRig is an app data folder configured with the task server (trusted)
// and the fake model, which calls ts__research once and then summarises
// the result it reads.
type taskRig struct {
	t                 *testing.T
	fake              *fakellm.Server
	ts                *taskserver.Server
	data, ws, mcpPath string
	sawResult         atomic.Int32
}

func newTaskRig(t *testing.T, seconds int) *taskRig {
	r := &taskRig{t: t, fake: fakellm.Start(t), ts: taskserver.New(taskserver.Options{Step: 200 * time.Millisecond}), data: t.TempDir(), ws: t.TempDir()}
	srv := httptest.NewServer(r.ts.Handler())
	t.Cleanup(srv.Close)
	r.mcpPath = filepath.Join(r.data, "mcp.json")
	cfg := fmt.Sprintf(`{"mcpServers":{"ts":{"type":"http","url":%q,"approval":"trust"}}}`, srv.URL)
	if err := os.WriteFile(r.mcpPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	prep := r.start()
	if _, err := prep.App().SaveSettings(Settings{BaseURL: r.fake.URL, Model: "fake-model", LoopGuard: 25, Theme: "system"}); err != nil {
		t.Fatal(err)
	}
	if err := prep.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.fake.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "call-task", "ts__research", fmt.Sprintf(`{"topic":"tides","seconds":%d}`, seconds))))
	r.fake.SetFallback(func(req fakellm.Request) fakellm.Response {
		if last := req.LastMessage(); last.Role == "tool" && last.ToolCallID == "call-task" {
			r.sawResult.Add(1)
			return fakellm.Reply(fakellm.Text("Summary: " + last.Content))
		}
		return fakellm.Reply(fakellm.Text("Tides"))
	})
	return r
}

func (r *taskRig) start() *Service {
	r.t.Helper()
	svc, err := Start(context.Background(), Config{DataDir: r.data, Mode: "browser", MCPConfigPath: r.mcpPath,
		Getenv: func(k string) string { return map[string]string{"JUNCTURE_WORKSPACE": r.ws}[k] }})
	if err != nil {
		r.t.Fatal(err)
	}
	return svc
}

// polled waits until the task exists and was polled once (its handle is
// kept before the first tasks/get) and returns its id.
func (r *taskRig) polled() string {
	r.t.Helper()
	var id string
	select {
	case id = <-r.ts.Created():
	case <-time.After(30 * time.Second):
		r.t.Fatal("no task was created")
	}
	for deadline := time.Now().Add(10 * time.Second); r.ts.Gets() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			r.t.Fatal("the task was never polled")
		}
	}
	return id
}

// startTask starts the app, asks for the research in thread once the
// server is ready, and returns the app and the task's id once it was
// polled.
func (r *taskRig) startTask(thread string) (*Service, string) {
	r.t.Helper()
	svc := r.start()
	if !mcpReady(svc, 20*time.Second) {
		r.t.Fatal("the MCP server never got ready")
	}
	if _, err := svc.App().SendInput(thread, "research tides", nil); err != nil {
		r.t.Fatal(err)
	}
	return svc, r.polled()
}

func (r *taskRig) noCancel() {
	r.t.Helper()
	select {
	case id := <-r.ts.Cancels():
		r.t.Errorf("task %s was cancelled", id)
	default:
	}
}

// resultOnce waits for the model's summary of the task's result and
// checks the result was stored once and read by the model once.
func (r *taskRig) resultOnce(svc *Service, thread string) {
	t := r.t
	t.Helper()
	var v ThreadView
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var err error
		if v, err = svc.App().GetThread(thread); err != nil {
			t.Fatal(err)
		}
		if n := len(v.Messages); n > 0 && v.Messages[n-1].Role == history.RoleAssistant && strings.HasPrefix(v.Messages[n-1].Content, "Summary:") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the task's result never reached the model: %+v", v.Messages)
		}
	}
	results := 0
	for _, m := range v.Messages {
		if m.Role == history.RoleTool && m.ToolCallID == "call-task" {
			results++
			if m.IsError || m.Content != "Report on tides." {
				t.Errorf("the call's result: %+v", m)
			}
		}
	}
	if results != 1 || r.sawResult.Load() != 1 {
		t.Errorf("%d results stored, the model read %d, want 1 and 1", results, r.sawResult.Load())
	}
	assertValidForModel(t, v.Messages)
}

func shutdown(t *testing.T, svc *Service) {
	if err := svc.Shutdown(context.Background()); err != nil {
		t.Error(err)
	}
}

// TestTaskResumesAfterSIGKILL: Juncture is killed with SIGKILL while a
// call runs as a task on an HTTP server that keeps its tasks; started
// again on the same database, it finds the call, polls the task on its
// own, and the task's result reaches the model once (nobody answers
// anything). The task is never cancelled.
func TestTaskResumesAfterSIGKILL(t *testing.T) {
	r := newTaskRig(t, 3)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "JUNCTURE_CRASH_CHILD=1", "CRASH_DATA="+r.data, "CRASH_WS="+r.ws, "CRASH_MCP="+r.mcpPath, "CRASH_THREAD=th-task", "CRASH_TASK=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if t.Failed() {
			t.Logf("child stderr:\n%s", stderr.String())
		}
	}()
	r.polled()
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()

	svc := r.start()
	defer shutdown(t, svc)
	r.resultOnce(svc, "th-task")
	r.noCancel()
}

// TestTaskSurvivesQuit: quitting during a task leaves it running at the
// server (no tasks/cancel, no result written); the next start resumes it
// and the model reads its result once.
func TestTaskSurvivesQuit(t *testing.T) {
	r := newTaskRig(t, 2)
	first, _ := r.startTask("th-quit")
	if err := first.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.noCancel()

	svc := r.start()
	defer shutdown(t, svc)
	r.resultOnce(svc, "th-quit")
	r.noCancel()
}

// TestTaskStopCancels: Stop during a task sends tasks/cancel within a
// second; the call ends stopped and nothing resumes it at the next start.
func TestTaskStopCancels(t *testing.T) {
	r := newTaskRig(t, 30)
	svc, id := r.startTask("th-stop")
	stopped := time.Now()
	if err := svc.App().Interrupt("th-stop"); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-r.ts.Cancels():
		if got != id {
			t.Errorf("cancelled %q, want %q", got, id)
		}
		t.Logf("tasks/cancel reached the server %s after Stop", time.Since(stopped).Round(time.Millisecond))
	case <-time.After(time.Second):
		t.Fatal("no tasks/cancel within a second of Stop")
	}
	waitFor(t, func() bool { running, _ := svc.Runtime().Running("th-stop"); return !running })
	if tasks, err := svc.app.db.StartedToolTasks(context.Background()); err != nil || len(tasks) != 0 {
		t.Errorf("a stopped task call is still to resume: %+v, %v", tasks, err)
	}
	shutdown(t, svc)
}

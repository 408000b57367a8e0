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
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if ss := svc.app.mcp.Servers(); len(ss) == 1 && ss[0].Status == mcp.StatusReady && len(ss[0].Tools) > 0 {
			break
		}
		if time.Now().After(deadline) {
			fmt.Fprintln(os.Stderr, "child: the MCP server never got ready")
			os.Exit(3)
		}
	}
	if _, err := svc.App().SendInput(os.Getenv("CRASH_THREAD"), "research tides", nil); err != nil {
		fmt.Fprintln(os.Stderr, "child send:", err)
		os.Exit(3)
	}
	select {} // until SIGKILL
}

// TestTaskResumesAfterSIGKILL: Juncture is killed with SIGKILL while a
// call runs as a task on an HTTP server that keeps its tasks; started
// again on the same database, it finds the call, polls the task on its
// own, and the task's result reaches the model once (nobody answers
// anything). The task is never cancelled.
func TestTaskResumesAfterSIGKILL(t *testing.T) {
	fake := fakellm.Start(t)
	ts := taskserver.New(taskserver.Options{Step: 200 * time.Millisecond})
	srv := httptest.NewServer(ts.Handler())
	defer srv.Close()
	data, ws := t.TempDir(), t.TempDir()
	mcpPath := filepath.Join(data, "mcp.json")
	cfg := fmt.Sprintf(`{"mcpServers":{"ts":{"type":"http","url":%q,"approval":"trust"}}}`, srv.URL)
	if err := os.WriteFile(mcpPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	start := func() *Service {
		t.Helper()
		svc, err := Start(context.Background(), Config{DataDir: data, Mode: "browser", MCPConfigPath: mcpPath,
			Getenv: func(k string) string { return map[string]string{"JUNCTURE_WORKSPACE": ws}[k] }})
		if err != nil {
			t.Fatal(err)
		}
		return svc
	}
	prep := start()
	if _, err := prep.App().SaveSettings(Settings{BaseURL: fake.URL, Model: "fake-model", LoopGuard: 25, Theme: "system"}); err != nil {
		t.Fatal(err)
	}
	if err := prep.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}

	fake.Enqueue(fakellm.Reply(fakellm.ToolCall(0, "call-task", "ts__research", `{"topic":"tides","seconds":3}`)))
	var sawResult atomic.Int32
	fake.SetFallback(func(req fakellm.Request) fakellm.Response {
		if last := req.LastMessage(); last.Role == "tool" && last.ToolCallID == "call-task" {
			sawResult.Add(1)
			return fakellm.Reply(fakellm.Text("Summary: " + last.Content))
		}
		return fakellm.Reply(fakellm.Text("Tides"))
	})

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "JUNCTURE_CRASH_CHILD=1", "CRASH_DATA="+data, "CRASH_WS="+ws, "CRASH_MCP="+mcpPath, "CRASH_THREAD=th-task")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ts.Created():
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("the child never started the task\n%s", stderr.String())
	}
	// The handle is kept before the first tasks/get: kill after one.
	for deadline := time.Now().Add(10 * time.Second); ts.Gets() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the child never polled the task")
		}
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()

	svc := start()
	defer func() {
		if err := svc.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	}()
	var v ThreadView
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var err error
		if v, err = svc.App().GetThread("th-task"); err != nil {
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
	if results != 1 || sawResult.Load() != 1 {
		t.Errorf("%d results stored, the model read %d, want 1 and 1", results, sawResult.Load())
	}
	assertValidForModel(t, v.Messages)
	select {
	case id := <-ts.Cancels():
		t.Errorf("task %s was cancelled", id)
	default:
	}
}

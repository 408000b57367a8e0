//go:build unix

package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunCommandEnvironment: the command sees the basics it needs to run
// and what the person configured, never the app's secrets. It changes the
// environment, so it does not run in parallel.
func TestRunCommandEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-secret")
	t.Setenv("JUNCTURE_TOKEN", "token-test-secret")
	t.Setenv("SOME_SECRET", "hunter2")
	t.Setenv("HOME", t.TempDir())
	t.Setenv("LANG", "C.UTF-8")
	w, _ := newWorkspace(t)
	r := builtinRegistry(t, w, BuiltinOptions{ExtraEnv: map[string]string{"GIT_PAGER": "cat", "LANG": "en_GB.UTF-8"}})
	res := call(t, context.Background(), r, ToolRunCommand, map[string]any{"command": "env"})
	if res.IsError {
		t.Fatalf("env failed: %s", res.Content)
	}
	vars := map[string]string{}
	for _, line := range strings.Split(res.Content, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			vars[k] = v
		}
	}
	for _, secret := range []string{"OPENAI_API_KEY", "JUNCTURE_TOKEN", "SOME_SECRET"} {
		if _, ok := vars[secret]; ok {
			t.Errorf("the command saw %s", secret)
		}
	}
	for _, s := range []string{"sk-test-secret", "token-test-secret", "hunter2"} {
		if strings.Contains(res.Content, s) {
			t.Errorf("a secret value leaked: %q", s)
		}
	}
	want := map[string]string{"PATH": os.Getenv("PATH"), "HOME": os.Getenv("HOME"), "GIT_PAGER": "cat", "LANG": "en_GB.UTF-8"}
	for k, v := range want {
		if vars[k] != v {
			t.Errorf("%s = %q, want %q", k, vars[k], v)
		}
	}
}

// TestRunCommandLeavesNoProcess: however the command ends, nothing it
// started is left running once the tool returns. The leftover ignores
// SIGTERM in the timeout and Stop cases, so only the kill can end it.
func TestRunCommandLeavesNoProcess(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		command string
		timeout int
		stop    bool
		isError bool
	}{
		{name: "success", command: "sleep 300 & echo $$ > pg.tmp && mv pg.tmp pg; echo started"},
		{name: "detached from the output", command: "sleep 300 >/dev/null 2>&1 & echo $$ > pg.tmp && mv pg.tmp pg; echo started"},
		{name: "error", command: "sleep 300 & echo $$ > pg.tmp && mv pg.tmp pg; exit 3", isError: true},
		{name: "timeout", command: "(trap '' TERM; sleep 300) & echo $$ > pg.tmp && mv pg.tmp pg; sleep 60", timeout: 1, isError: true},
		{name: "stop", command: "(trap '' TERM; sleep 300) & echo $$ > pg.tmp && mv pg.tmp pg; sleep 60", stop: true, isError: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w, root := newWorkspace(t)
			r := builtinRegistry(t, w, BuiltinOptions{KillGrace: 200 * time.Millisecond})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			args := map[string]any{"command": tc.command}
			if tc.timeout > 0 {
				args["timeoutSeconds"] = tc.timeout
			}
			done := make(chan Result, 1)
			go func() { done <- call(t, ctx, r, ToolRunCommand, args) }()
			pg := waitPidFile(t, filepath.Join(root, "pg"))
			if tc.stop {
				cancel()
			}
			res := <-done
			if res.IsError != tc.isError {
				t.Errorf("IsError = %v: %s", res.IsError, res.Content)
			}
			waitGroupGone(t, pg)
		})
	}
}

// TestKillAll: shutdown ends every command still running, and no command
// starts after it. It changes package state, so it does not run in
// parallel.
func TestKillAll(t *testing.T) {
	t.Cleanup(running.reopen)
	w, root := newWorkspace(t)
	r := builtinRegistry(t, w, BuiltinOptions{})
	done := make(chan Result, 1)
	go func() {
		done <- call(t, context.Background(), r, ToolRunCommand, map[string]any{
			"command": "(trap '' TERM; sleep 300) & echo $$ > pg.tmp && mv pg.tmp pg; wait",
		})
	}()
	pg := waitPidFile(t, filepath.Join(root, "pg"))
	KillAll()
	res := <-done
	if !res.IsError {
		t.Errorf("result = %+v", res)
	}
	waitGroupGone(t, pg)
	res = call(t, context.Background(), r, ToolRunCommand, map[string]any{"command": "touch late"})
	if !res.IsError || !strings.Contains(res.Content, "shutting down") {
		t.Errorf("after KillAll: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(root, "late")); err == nil {
		t.Error("a command ran after KillAll")
	}
}

// reopen undoes killAll's refusal, for tests that call KillAll.
func (g *Processes) reopen() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = false
}

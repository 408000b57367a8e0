//go:build unix

package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/history"
)

func TestRunCommand(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t)
	r := builtinRegistry(t, w, BuiltinOptions{KillGrace: 500 * time.Millisecond})
	tests := []struct {
		name    string
		args    map[string]any
		exact   string
		want    []string
		isError bool
		maxTime time.Duration
	}{
		{name: "ok", args: map[string]any{"command": "echo hello"}, exact: "Exit code: 0\n\nhello\n"},
		{name: "stderr and exit code", args: map[string]any{"command": "echo out; echo err >&2; exit 3"},
			exact: "Exit code: 3\n\nout\nerr\n", isError: true},
		{name: "runs in the workspace", args: map[string]any{"command": "pwd"}, exact: "Exit code: 0\n\n" + root + "\n"},
		{name: "no output", args: map[string]any{"command": "true"}, exact: "Exit code: 0\n\n(no output)"},
		{name: "no stdin", args: map[string]any{"command": "cat"}, exact: "Exit code: 0\n\n(no output)", maxTime: 5 * time.Second},
		{name: "no terminal to prompt on", args: map[string]any{"command": "exec </dev/tty"}, isError: true, maxTime: 5 * time.Second},
		{name: "killed by a signal", args: map[string]any{"command": "kill -9 $$"}, want: []string{"ended abnormally", "killed"}, isError: true},
		{name: "timeout", args: map[string]any{"command": "echo started; sleep 30", "timeoutSeconds": 1},
			want: []string{"timed out after 1s", "side effects unknown", "started"}, isError: true, maxTime: 10 * time.Second},
		{name: "background process keeps the output open", args: map[string]any{"command": "sleep 2 & echo bye"},
			want: []string{"Exit code: 0", "Background processes kept the output open", "bye"}, maxTime: 2500 * time.Millisecond},
		{name: "output capped", args: map[string]any{"command": "echo START; head -c 300000 /dev/zero | tr '\\0' x; echo; echo END"},
			want: []string{"START\nxxx", "bytes omitted", "xxx\nEND\n"}},
		{name: "bad timeout", args: map[string]any{"command": "true", "timeoutSeconds": 0}, want: []string{"at /timeoutSeconds"}, isError: true},
		{name: "empty command", args: map[string]any{"command": ""}, want: []string{"at /command"}, isError: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			res := call(t, context.Background(), r, ToolRunCommand, tc.args)
			if res.IsError != tc.isError {
				t.Fatalf("IsError = %v: %.500s", res.IsError, res.Content)
			}
			if tc.exact != "" {
				// The line under the exit code says how the command
				// was confined (sandbox_test.go checks it).
				if !strings.HasPrefix(res.Sandbox, "sandbox: ") {
					t.Errorf("Result.Sandbox = %q", res.Sandbox)
				}
				if want := strings.Replace(tc.exact, "\n\n", "\n"+res.Sandbox+"\n\n", 1); res.Content != want {
					t.Errorf("content = %q, want %q", res.Content, want)
				}
			}
			mustContain(t, res.Content, tc.want...)
			if len(res.Content) > MaxCommandOutput+500 {
				t.Errorf("content is %d bytes, over the cap", len(res.Content))
			}
			if tc.maxTime > 0 && time.Since(start) > tc.maxTime {
				t.Errorf("took %v, want under %v", time.Since(start), tc.maxTime)
			}
		})
	}
}

func TestRunCommandPreview(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t)
	tool := runCommandTool(w, BuiltinOptions{})
	got, err := tool.Preview(context.Background(), []byte(`{"command":"git status"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Preview{Kind: PreviewCommand, Title: "Run a command", Body: "git status", Folder: root, Sandbox: got.Sandbox}
	if !strings.HasPrefix(got.Sandbox, "sandbox: ") {
		t.Errorf("Preview.Sandbox = %q", got.Sandbox)
	}
	if got != want {
		t.Errorf("Preview = %+v, want %+v", got, want)
	}
}

func TestRunCommandCancelledBeforeStart(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t)
	r := builtinRegistry(t, w, BuiltinOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := call(t, ctx, r, ToolRunCommand, map[string]any{"command": "touch ran"})
	if !res.IsError || res.Content != history.ResultInterrupted {
		t.Errorf("result = %+v", res)
	}
	if _, err := os.Stat(filepath.Join(root, "ran")); err == nil {
		t.Error("the command ran after Stop")
	}
}

// TestRunCommandStopPolite: a command that does not ignore SIGTERM ends
// on it at once, long before the kill.
func TestRunCommandStopPolite(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t)
	r := builtinRegistry(t, w, BuiltinOptions{KillGrace: 20 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan Result, 1)
	go func() {
		done <- call(t, ctx, r, ToolRunCommand, map[string]any{
			"command": "echo working; echo $$ > pg.tmp && mv pg.tmp pg; sleep 30; echo never",
		})
	}()
	pg := waitPidFile(t, filepath.Join(root, "pg"))
	start := time.Now()
	cancel()
	res := <-done
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Stop took %v; SIGTERM should end the command at once", took)
	}
	if !res.IsError || !strings.HasPrefix(res.Content, history.ResultInterruptedMidRun) {
		t.Errorf("result = %+v", res)
	}
	mustContain(t, res.Content, "Output so far:\nworking\n")
	if strings.Contains(res.Content, "never") {
		t.Error("the command went on after Stop")
	}
	waitGroupGone(t, pg)
}

// TestRunCommandStopKillsGroup: the shell and its child both ignore
// SIGTERM; after the grace period the whole process group gets SIGKILL.
func TestRunCommandStopKillsGroup(t *testing.T) {
	t.Parallel()
	w, root := newWorkspace(t)
	const grace = 300 * time.Millisecond
	r := builtinRegistry(t, w, BuiltinOptions{KillGrace: grace})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan Result, 1)
	go func() {
		done <- call(t, ctx, r, ToolRunCommand, map[string]any{
			"command": `trap "" TERM; sh -c 'sleep 30' & echo $! > child.tmp && mv child.tmp child; ` +
				`echo $$ > pg.tmp && mv pg.tmp pg; wait; echo survived`,
		})
	}()
	child := waitPidFile(t, filepath.Join(root, "child"))
	pg := waitPidFile(t, filepath.Join(root, "pg"))
	if !alive(child) {
		t.Fatal("the child is not running before Stop")
	}
	start := time.Now()
	cancel()
	res := <-done
	took := time.Since(start)
	if took < grace {
		t.Errorf("returned after %v, before the %v grace ran out", took, grace)
	}
	if took > grace+5*time.Second {
		t.Errorf("returned after %v, long after the grace", took)
	}
	if !res.IsError || !strings.HasPrefix(res.Content, history.ResultInterruptedMidRun) || strings.Contains(res.Content, "survived") {
		t.Errorf("result = %+v", res)
	}
	waitGroupGone(t, pg)
	if alive(child) {
		t.Errorf("child %d survived Stop", child)
	}
}

func waitPidFile(t *testing.T, p string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(p)
		if err == nil {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("bad pid file %s: %q", p, b)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared", p)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// alive reports whether pid runs. A zombie counts as dead: it no longer
// runs, and in a container without an init that reaps, it may stay.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	return runtime.GOOS != "linux" || procState(pid) != 'Z' && procState(pid) != 0
}

func procState(pid int) byte {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return 0
	}
	return s[i+2]
}

// waitGroupGone waits until no live process is left in process group pg.
func waitGroupGone(t *testing.T, pg int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		left := groupMembers(pg)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process group %d still has live members %v", pg, left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// groupMembers lists the live members of a process group. On Linux it
// reads /proc (zombies excluded); elsewhere it asks kill(2).
func groupMembers(pg int) []int {
	if runtime.GOOS != "linux" {
		if err := syscall.Kill(-pg, 0); errors.Is(err, syscall.ESRCH) {
			return nil
		}
		return []int{pg}
	}
	entries, _ := os.ReadDir("/proc")
	var live []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:]) // state ppid pgrp ...
		if len(f) > 2 && f[2] == strconv.Itoa(pg) && f[0] != "Z" {
			live = append(live, pid)
		}
	}
	return live
}

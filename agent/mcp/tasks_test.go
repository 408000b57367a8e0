package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/tools"
	"github.com/juncture-app/juncture/internal/taskserver"
)

// taskEnv is a CallEnv that keeps task handles (as the runtime does) and
// can say the app quits.
type taskEnv struct {
	*fakeEnv
	mu      sync.Mutex
	handles []json.RawMessage
	kept    chan struct{} // closed at the first handle
	closing atomic.Bool
}

func newTaskEnv() *taskEnv { return &taskEnv{fakeEnv: &fakeEnv{}, kept: make(chan struct{})} }

func (e *taskEnv) RecordTask(_ context.Context, h json.RawMessage) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.handles = append(e.handles, h)
	if len(e.handles) == 1 {
		close(e.kept)
	}
	return nil
}

func (e *taskEnv) DetachTask() bool { return e.closing.Load() }

func (e *taskEnv) handle(t *testing.T) TaskHandle {
	t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.handles) != 1 {
		t.Fatalf("%d handles kept, want 1", len(e.handles))
	}
	h, err := DecodeTaskHandle(e.handles[0])
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// runTask runs a tool with env (a taskEnv) in ctx, in the background.
func runTask(t *testing.T, ctx context.Context, m *Manager, env *taskEnv, server, tool string, args any) <-chan tools.Result {
	t.Helper()
	name := waitTool(t, m, server, tool).ModelName
	reg, err := tools.NewRegistry(m.Tools()...)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(args)
	c, bad := reg.Prepare(name, string(raw))
	if bad != nil {
		t.Fatalf("prepare: %+v", bad)
	}
	out := make(chan tools.Result, 1)
	go func() { out <- reg.Execute(tools.WithCallEnv(ctx, env), c) }()
	return out
}

func startTaskServer(t *testing.T, o taskserver.Options) (*taskserver.Server, string) {
	t.Helper()
	ts := taskserver.New(o)
	srv := httptest.NewServer(ts.Handler())
	t.Cleanup(srv.Close)
	return ts, srv.URL
}

func waitResult(t *testing.T, ch <-chan tools.Result, within time.Duration) tools.Result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(within):
		t.Fatalf("no result within %s", within)
	}
	return tools.Result{}
}

func waitID(t *testing.T, ch <-chan string, within time.Duration, what string) string {
	t.Helper()
	select {
	case id := <-ch:
		return id
	case <-time.After(within):
		t.Fatalf("no %s within %s", what, within)
	}
	return ""
}

// TestTaskToolRunsAsTask: a server that declares the tasks extension
// answers the call with a task; the handle is kept before polling, the
// status shows as progress, and the result is the task's.
func TestTaskToolRunsAsTask(t *testing.T) {
	ts, url := startTaskServer(t, taskserver.Options{Step: 100 * time.Millisecond})
	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{"ts": {URL: url}}})
	env := newTaskEnv()
	res := waitResult(t, runTask(t, context.Background(), m, env, "ts", "research", map[string]any{"topic": "tides", "seconds": 1}), 20*time.Second)
	if res.IsError || res.Content != "Report on tides." {
		t.Fatalf("result %+v", res)
	}
	id := waitID(t, ts.Created(), time.Second, "task")
	h := env.handle(t)
	if h.ID != id || h.Server != "ts" || h.Form != formExtension || h.Tool != "research" {
		t.Errorf("handle %+v, task %s", h, id)
	}
	var saw bool
	for _, p := range env.reports() {
		saw = saw || strings.HasPrefix(p.Message, "Task working: Step ")
	}
	if !saw {
		t.Errorf("no status shown: %+v", env.reports())
	}
	// A plain tool of the same server is still a plain call.
	if r := runTool(t, context.Background(), m, nil, "ts", "echo", map[string]any{"text": "hi"}); r.Content != "hi" {
		t.Errorf("echo %+v", r)
	}
}

// TestTaskStopCancelsAtOnce: Stop during a task sends tasks/cancel within
// a second, and the call ends stopped.
func TestTaskStopCancelsAtOnce(t *testing.T) {
	ts, url := startTaskServer(t, taskserver.Options{Step: 200 * time.Millisecond})
	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{"ts": {URL: url}}})
	env := newTaskEnv()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	out := runTask(t, ctx, m, env, "ts", "research", map[string]any{"topic": "tides", "seconds": 30})
	id := waitID(t, ts.Created(), 10*time.Second, "task")
	<-env.kept
	stopped := time.Now()
	stop()
	if got := waitID(t, ts.Cancels(), time.Second, "tasks/cancel"); got != id {
		t.Errorf("cancelled %q, want %q", got, id)
	}
	t.Logf("tasks/cancel reached the server %s after Stop", time.Since(stopped).Round(time.Millisecond))
	if res := waitResult(t, out, 5*time.Second); res.Content != stoppedResult.Content {
		t.Errorf("result %+v", res)
	}
	if st := ts.Status(id); st != "cancelled" {
		t.Errorf("task status %q", st)
	}
}

// TestTaskResumedAfterQuit: the app quits during a task (the task is left
// running, not cancelled); a new Manager resumes it from the kept handle
// and gets its result. A handle the server does not know gives "the
// task's outcome is unknown".
func TestTaskResumedAfterQuit(t *testing.T) {
	ts, url := startTaskServer(t, taskserver.Options{Step: 100 * time.Millisecond})
	cfg := Config{Servers: map[string]ServerConfig{"ts": {URL: url}}}
	first := newManager(t, Options{})
	first.Apply(cfg)
	env := newTaskEnv()
	ctx, quit := context.WithCancel(context.Background())
	out := runTask(t, ctx, first, env, "ts", "research", map[string]any{"topic": "tides", "seconds": 2})
	waitID(t, ts.Created(), 10*time.Second, "task")
	<-env.kept
	env.closing.Store(true)
	quit()
	if res := waitResult(t, out, 5*time.Second); res.Content != detachedResult.Content {
		t.Errorf("result at quit %+v", res)
	}
	first.Close()
	select {
	case id := <-ts.Cancels():
		t.Fatalf("quitting cancelled task %s", id)
	default:
	}

	second := newManager(t, Options{})
	second.Apply(cfg)
	h := env.handle(t)
	resumed := newTaskEnv()
	res := second.ResumeTask(tools.WithCallEnv(context.Background(), resumed), h.encode())
	if res.IsError || res.Content != "Report on tides." {
		t.Fatalf("resumed result %+v", res)
	}
	if n := ts.Results(); n != 1 {
		t.Errorf("the result was handed out %d times, want 1", n)
	}

	lost := h
	lost.ID = "task-from-another-life"
	res = second.ResumeTask(context.Background(), lost.encode())
	if !res.IsError || !strings.HasPrefix(res.Content, "The task's outcome is unknown: the server no longer knows the task") {
		t.Errorf("lost task: %+v", res)
	}
	gone := h
	gone.Server = "removed"
	if res := second.ResumeTask(context.Background(), gone.encode()); !strings.Contains(res.Content, "is not configured any more") {
		t.Errorf("removed server: %+v", res)
	}
}

// TestEverythingResearchRunsAsTask: server-everything's
// simulate-research-query (taskSupport "required", 2025-11-25's
// experimental tasks) runs as a task within one run of the app; its task
// store is per session, so a restart could not resume it.
func TestEverythingResearchRunsAsTask(t *testing.T) {
	cmd, args := everythingCommand(t)
	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{"ev": {Command: cmd, Args: args}}})
	env := newTaskEnv()
	res := waitResult(t, runTask(t, context.Background(), m, env, "ev", "simulate-research-query", map[string]any{"topic": "tides"}), 30*time.Second)
	if res.IsError || !strings.Contains(res.Content, "# Research Report: tides") {
		t.Fatalf("result %+v", res)
	}
	if h := env.handle(t); h.Form != formExperimental || h.Server != "ev" {
		t.Errorf("handle %+v", h)
	}
	var saw bool
	for _, p := range env.reports() {
		saw = saw || strings.Contains(p.Message, "Gathering sources") || strings.Contains(p.Message, "Analyzing content")
	}
	if !saw {
		t.Errorf("no stage shown: %+v", env.reports())
	}

	// An ambiguous query goes input_required: its question arrives with
	// tasks/result and is asked like any question.
	env = newTaskEnv()
	env.answer = func(context.Context, tools.Prompt) (tools.Reply, error) {
		return tools.Reply{Action: tools.ReplyAccept, Content: json.RawMessage(`{"interpretation":"historical"}`)}, nil
	}
	res = waitResult(t, runTask(t, context.Background(), m, env, "ev", "simulate-research-query", map[string]any{"topic": "tides", "ambiguous": true}), 30*time.Second)
	if res.IsError || !strings.Contains(res.Content, "# Research Report: tides (historical)") {
		t.Fatalf("ambiguous result %+v", res)
	}
	if asked := env.asked(); len(asked) != 1 || !strings.Contains(asked[0].Message, "could have multiple interpretations") {
		t.Errorf("asked %+v", asked)
	}
}

// TestTaskInputRequired: a task whose status is input_required asks its
// question like any mid-call question (tools.Ask: the run pauses on it);
// the answer goes back with tasks/update and the task completes.
func TestTaskInputRequired(t *testing.T) {
	_, url := startTaskServer(t, taskserver.Options{Step: 100 * time.Millisecond})
	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{"ts": {URL: url}}})
	env := newTaskEnv()
	env.answer = func(_ context.Context, p tools.Prompt) (tools.Reply, error) {
		return tools.Reply{Action: tools.ReplyAccept, Content: json.RawMessage(`{"kind":"ocean"}`)}, nil
	}
	res := waitResult(t, runTask(t, context.Background(), m, env, "ts", "clarify", map[string]any{"topic": "tides"}), 20*time.Second)
	if res.IsError || res.Content != "Report on ocean tides." {
		t.Fatalf("result %+v", res)
	}
	asked := env.asked()
	if len(asked) != 1 || asked[0].Kind != tools.PromptQuestion || asked[0].Message != "Which kind of tides?" || !strings.Contains(string(asked[0].Schema), `"kind"`) {
		t.Errorf("asked %+v", asked)
	}
}

// TestReadTaskHostile: what a server sends in place of a task is read
// within budgets: a poll interval below the floor or above the ceiling is
// clamped, a missing or oversized task id is refused, a plain result is
// not a task.
func TestReadTaskHostile(t *testing.T) {
	cases := []struct {
		name, raw string
		wantErr   bool
		wantTask  bool
		wantWait  time.Duration
	}{
		{"plain result", `{"content":[{"type":"text","text":"hi"}]}`, false, false, 0},
		{"2026 task", `{"resultType":"task","taskId":"a","status":"working","pollIntervalMs":1000}`, false, true, time.Second},
		{"2025 task", `{"task":{"taskId":"a","status":"working","pollInterval":2000}}`, false, true, 2 * time.Second},
		{"poll flood", `{"resultType":"task","taskId":"a","status":"working","pollIntervalMs":0}`, false, true, pollFloor},
		{"poll negative", `{"resultType":"task","taskId":"a","status":"working","pollIntervalMs":-5}`, false, true, pollFloor},
		{"poll forever", `{"resultType":"task","taskId":"a","status":"working","pollIntervalMs":99999999999}`, false, true, pollCeiling},
		{"no id", `{"resultType":"task","status":"working"}`, true, false, 0},
		{"huge id", `{"resultType":"task","taskId":"` + strings.Repeat("x", 513) + `","status":"working"}`, true, false, 0},
		{"not an object", `[1,2]`, true, false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			task, err := readTask(json.RawMessage(c.raw))
			if (err != nil) != c.wantErr || (task != nil) != c.wantTask {
				t.Fatalf("readTask = %+v, %v", task, err)
			}
			if task != nil && pollWait(task) != c.wantWait {
				t.Errorf("wait %s, want %s", pollWait(task), c.wantWait)
			}
		})
	}
}

// TestTaskStopWhileAsking: Stop while a task's question waits cancels the
// task; the question is not answered on the person's behalf.
func TestTaskStopWhileAsking(t *testing.T) {
	ts, url := startTaskServer(t, taskserver.Options{Step: 100 * time.Millisecond})
	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{"ts": {URL: url}}})
	env := newTaskEnv()
	asking := make(chan struct{})
	env.answer = func(ctx context.Context, _ tools.Prompt) (tools.Reply, error) {
		close(asking)
		<-ctx.Done()
		return tools.Reply{}, ctx.Err()
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	out := runTask(t, ctx, m, env, "ts", "clarify", map[string]any{"topic": "tides"})
	id := waitID(t, ts.Created(), 10*time.Second, "task")
	select {
	case <-asking:
	case <-time.After(10 * time.Second):
		t.Fatal("the question was never asked")
	}
	stop()
	if got := waitID(t, ts.Cancels(), time.Second, "tasks/cancel"); got != id {
		t.Errorf("cancelled %q, want %q", got, id)
	}
	if res := waitResult(t, out, 5*time.Second); res.Content != stoppedResult.Content {
		t.Errorf("result %+v", res)
	}
	if st := ts.Status(id); st != "cancelled" {
		t.Errorf("task status %q (answered on the person's behalf?)", st)
	}
}

// TestTaskSupportAfterStoppedFirstCall: a first call stopped before the
// server's tools' task support was read does not leave the session
// without it: the next call of a task tool still runs as a task.
func TestTaskSupportAfterStoppedFirstCall(t *testing.T) {
	cmd, args := everythingCommand(t)
	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{"ev": {Command: cmd, Args: args}}})
	waitTool(t, m, "ev", "simulate-research-query")
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	if res := m.call(tools.WithCallEnv(stopped, newTaskEnv()), "ev", "simulate-research-query", json.RawMessage(`{"topic":"tides"}`)); !res.IsError {
		t.Fatalf("a stopped call succeeded: %+v", res)
	}
	env := newTaskEnv()
	res := waitResult(t, runTask(t, context.Background(), m, env, "ev", "simulate-research-query", map[string]any{"topic": "tides"}), 30*time.Second)
	if res.IsError || !strings.Contains(res.Content, "# Research Report: tides") {
		t.Fatalf("result %+v", res)
	}
	if h := env.handle(t); h.Form != formExperimental {
		t.Errorf("handle %+v, want a %s task", h, formExperimental)
	}
}

// TestStopDuringAPlainCallOnATaskServerSendsCancelled: a plain call to a
// server that declares the tasks extension goes out raw; Stop during it
// still tells the server (notifications/cancelled naming the request), as
// the SDK does for its own calls, so the tool stops there too.
func TestStopDuringAPlainCallOnATaskServerSendsCancelled(t *testing.T) {
	ts := taskserver.New(taskserver.Options{})
	cancelled, called := make(chan string, 4), make(chan string, 4)
	h := ts.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
			r.Body = io.NopCloser(bytes.NewReader(body))
			var msg struct {
				Method string `json:"method"`
				Params struct {
					Name      string `json:"name"`
					RequestID any    `json:"requestId"`
				} `json:"params"`
			}
			if json.Unmarshal(body, &msg) == nil {
				switch {
				case msg.Method == "notifications/cancelled":
					cancelled <- fmt.Sprint(msg.Params.RequestID)
				case msg.Method == "tools/call" && msg.Params.Name == "wait":
					called <- msg.Params.Name
				}
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{"ts": {URL: srv.URL}}})
	env := newTaskEnv()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	out := runTask(t, ctx, m, env, "ts", "wait", map[string]any{})
	waitID(t, called, 10*time.Second, "tools/call")
	stop()
	if id := waitID(t, cancelled, 2*time.Second, "notifications/cancelled"); id == "" || id == "<nil>" {
		t.Errorf("cancelled names no request: %q", id)
	}
	if res := waitResult(t, out, 5*time.Second); res.Content != stoppedResult.Content {
		t.Errorf("result %+v", res)
	}
}

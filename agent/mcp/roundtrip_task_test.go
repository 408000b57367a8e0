package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/tools"
	"github.com/juncture-app/juncture/internal/taskserver"
)

// Regression (issue 20): a server that declares the tasks extension and
// speaks 2026-07-28 answers a plain call input_required. The call returns
// the question as the same tools.Result.Input a plain server's round gives
// (it used to end "asked for input in a way Juncture does not answer"),
// and the retry carries the answer and the requestState (a retry through
// the task path used to drop both, and the server asked again).
func TestTaskServerPlainCallRoundTrip(t *testing.T) {
	ts, url := startTaskServer(t, taskserver.Options{Step: 100 * time.Millisecond})
	m := newManager(t, Options{})
	m.Apply(Config{Servers: map[string]ServerConfig{"ts": {URL: url}}})
	first := waitResult(t, runTask(t, context.Background(), m, newTaskEnv(), "ts", "ask", map[string]any{}), 20*time.Second)
	p := onlyPrompt(t, first)
	if p.Kind != tools.PromptQuestion || p.Message != "Who is calling?" || !first.IsError {
		t.Fatalf("first round %+v, prompt %+v", first, p)
	}
	var st roundState
	if err := json.Unmarshal(first.Input.State, &st); err != nil || st.RequestState != taskserver.AskState {
		t.Fatalf("state %s: %v", first.Input.State, err)
	}
	ctx := tools.WithRetry(context.Background(), tools.Retry{State: first.Input.State, Round: 1,
		Replies: map[string]tools.Reply{"who": {Action: tools.ReplyAccept, Content: json.RawMessage(`{"name":"Ada"}`)}}})
	res := waitResult(t, runTask(t, ctx, m, newTaskEnv(), "ts", "ask", map[string]any{}), 20*time.Second)
	if res.IsError || res.Input != nil || res.Content != "action=accept name=Ada" {
		t.Fatalf("retry %+v", res)
	}
	if n := ts.Asks(); n != 2 {
		t.Errorf("the server saw %d calls, want 2", n)
	}
}

// Regression (issue 20): after a restart, an answer given before the
// server is ready again waits for it (bounded, Stop ends the wait) and is
// delivered; it used to end the call at once with "not ready". A server
// that is never ready within the wait ends the call saying the answer
// could not be delivered and that the call was not sent again.
func TestRoundTripRetryWaitsForReady(t *testing.T) {
	t.Parallel()
	args := map[string]any{"message": "Who are you?"}
	raw, _ := json.Marshal(args)
	first := runTool(t, context.Background(), startEdge(t, Options{}, nil), nil, "edge", "elicit", args)
	onlyPrompt(t, first)
	answer := tools.Retry{State: first.Input.State, Round: 1,
		Replies: map[string]tools.Reply{"edge": {Action: tools.ReplyAccept, Content: json.RawMessage(`{"name":"Ada"}`)}}}

	t.Run("slow start", func(t *testing.T) {
		t.Parallel()
		m := newManager(t, Options{})
		m.Apply(Config{Servers: map[string]ServerConfig{"edge": edgeConfig(t, map[string]string{"EDGE_SLOW_START": "1s"})}})
		res := m.call(tools.WithRetry(context.Background(), answer), "edge", "elicit", raw)
		if res.IsError || res.Content != `action=accept content={"name":"Ada"}` {
			t.Errorf("retry before ready: %+v", res)
		}
	})
	t.Run("never ready", func(t *testing.T) {
		t.Parallel()
		m := newManager(t, Options{RetryReadyWait: 500 * time.Millisecond})
		m.Apply(Config{Servers: map[string]ServerConfig{"edge": edgeConfig(t, map[string]string{"EDGE_FAIL_START": "no luck"})}})
		res := m.call(tools.WithRetry(context.Background(), answer), "edge", "elicit", raw)
		if !res.IsError || !strings.Contains(res.Content, "answer could not be delivered") || !strings.Contains(res.Content, "not sent again") {
			t.Errorf("never ready: %+v", res)
		}
	})
	t.Run("older server", func(t *testing.T) {
		t.Parallel()
		m := startEdge(t, Options{}, map[string]string{"EDGE_LEGACY": "1"})
		res := m.call(tools.WithRetry(context.Background(), answer), "edge", "elicit", raw)
		if !res.IsError || !strings.Contains(res.Content, "older protocol") || !strings.Contains(res.Content, "not sent again") {
			t.Errorf("older server: %+v", res)
		}
	})
	t.Run("stop while waiting", func(t *testing.T) {
		t.Parallel()
		m := newManager(t, Options{})
		m.Apply(Config{Servers: map[string]ServerConfig{"edge": edgeConfig(t, map[string]string{"EDGE_FAIL_START": "no luck"})}})
		ctx, stop := context.WithCancel(tools.WithRetry(context.Background(), answer))
		time.AfterFunc(200*time.Millisecond, stop)
		out := make(chan tools.Result, 1)
		go func() { out <- m.call(ctx, "edge", "elicit", raw) }()
		res := waitResult(t, out, 10*time.Second)
		if !res.IsError || !strings.Contains(res.Content, "not sent again") {
			t.Errorf("stopped: %+v", res)
		}
	})
}

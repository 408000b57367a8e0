package mcp

import (
	"context"
	"encoding/json"
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

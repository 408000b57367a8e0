package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/tools"
)

// retry runs the same call again with replies to the round's questions
// (every key gets reply), as the runtime's continuation does.
func retry(t *testing.T, m *Manager, tool string, args any, in *tools.NeedsInput, reply tools.Reply) tools.Result {
	t.Helper()
	replies := map[string]tools.Reply{}
	for k := range in.Prompts {
		replies[k] = reply
	}
	ctx := tools.WithRetry(context.Background(), tools.Retry{State: in.State, Replies: replies, Round: 1})
	return runTool(t, ctx, m, nil, "edge", tool, args)
}

func onlyPrompt(t *testing.T, res tools.Result) tools.Prompt {
	t.Helper()
	if res.Input == nil || len(res.Input.Prompts) != 1 {
		t.Fatalf("want one question, got %+v", res)
	}
	for _, p := range res.Input.Prompts {
		return p
	}
	return tools.Prompt{}
}

// A 2026-07-28 server is spoken to in 2026-07-28; one that speaks only
// 2025-11-25 falls back to it.
func TestRoundTripNegotiatesTheNewestVersion(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		legacy string
		mrtr   bool
	}{{"", true}, {"1", false}} {
		m := startEdge(t, Options{}, map[string]string{"EDGE_LEGACY": tt.legacy})
		sess, _ := m.lookup("edge").ready()
		if sess == nil || sess.mrtr != tt.mrtr {
			t.Errorf("EDGE_LEGACY=%q: session %+v, want mrtr %v", tt.legacy, sess, tt.mrtr)
		}
		if res := runTool(t, context.Background(), m, nil, "edge", "echo", map[string]any{"text": "hi"}); res.Content != "hi" {
			t.Errorf("EDGE_LEGACY=%q: echo %+v", tt.legacy, res)
		}
	}
}

// input_required is a question the call returns, and the retry with the
// answer and the requestState gets the result: accept, decline and a
// dismissed question (cancel) reach the server as the protocol's actions.
func TestRoundTripElicitation(t *testing.T) {
	t.Parallel()
	m := startEdge(t, Options{}, nil)
	args := map[string]any{"message": "Who are you?"}
	first := runTool(t, context.Background(), m, nil, "edge", "elicit", args)
	p := onlyPrompt(t, first)
	if p.Kind != tools.PromptQuestion || p.Message != "Who are you?" || !strings.Contains(string(p.Schema), `"name"`) || p.Source == "" {
		t.Fatalf("prompt %+v", p)
	}
	var st roundState
	if err := json.Unmarshal(first.Input.State, &st); err != nil || len(st.InputRequests) == 0 {
		t.Fatalf("state %s: %v", first.Input.State, err)
	}
	for _, tt := range []struct {
		reply tools.Reply
		want  string
	}{
		{tools.Reply{Action: tools.ReplyAccept, Content: json.RawMessage(`{"name":"Ada","age":36}`)}, `action=accept content={"age":36,"name":"Ada"}`},
		{tools.Reply{Action: tools.ReplyDecline}, "action=decline content=null"},
		{tools.Reply{Action: tools.ReplyCancel}, "action=cancel content=null"},
	} {
		if res := retry(t, m, "elicit", args, first.Input, tt.reply); res.Content != tt.want || res.Input != nil {
			t.Errorf("%s: %+v", tt.reply.Action, res)
		}
	}
}

// Sampling by round trip: approved, the app's model answers in the retry;
// declined, the call is not retried and the model reads why.
func TestRoundTripSampling(t *testing.T) {
	t.Parallel()
	var asked []SampleRequest
	var mu sync.Mutex
	m := startEdge(t, Options{Sampler: func(_ context.Context, r SampleRequest) (SampleResult, error) {
		mu.Lock()
		asked = append(asked, r)
		mu.Unlock()
		return SampleResult{Text: "hello back", Model: "fake"}, nil
	}}, nil)
	args := map[string]any{"prompt": "Say hi", "maxTokens": 20}
	first := runTool(t, context.Background(), m, nil, "edge", "sample", args)
	if p := onlyPrompt(t, first); p.Kind != tools.PromptSampling || !strings.Contains(p.Details["messages"].([]map[string]string)[0]["text"], "Say hi") {
		t.Fatalf("prompt %+v", p)
	}
	if res := retry(t, m, "sample", args, first.Input, tools.Reply{Action: tools.ReplyAccept}); res.Content != "sampled: hello back" {
		t.Errorf("approved: %+v", res)
	}
	res := retry(t, m, "sample", args, first.Input, tools.Reply{Action: tools.ReplyDecline, Reason: "not now"})
	if !res.IsError || !strings.Contains(res.Content, "declined") || !strings.Contains(res.Content, "not now") {
		t.Errorf("declined: %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 || asked[0].Messages[0].Text != "Say hi" {
		t.Errorf("the model was asked %+v", asked)
	}
}

// roots/list needs nobody: answered and retried at once.
func TestRoundTripRootsNeedNobody(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	m := startEdge(t, Options{Roots: func() []string { return []string{ws} }}, nil)
	res := runTool(t, context.Background(), m, nil, "edge", "roots", nil)
	if res.Input != nil || !strings.Contains(res.Content, "file://") {
		t.Errorf("roots: %+v", res)
	}
}

// Regression (issue 20, bug 4, MCP side): two calls to one older server
// that both ask. The second waits, shown as waiting, until the first
// ends; each question reaches its own call, and answering the first
// never answers the second "cancel".
func TestOldServerTakesOneCallAtATime(t *testing.T) {
	t.Parallel()
	m := startEdge(t, Options{}, map[string]string{"EDGE_LEGACY": "1"})
	releaseA := make(chan struct{})
	askedA := make(chan struct{})
	var onceA sync.Once
	envA := &fakeEnv{answer: func(ctx context.Context, p tools.Prompt) (tools.Reply, error) {
		onceA.Do(func() { close(askedA) }) // a second question here is B's, misrouted: reported below
		select {
		case <-releaseA:
		case <-ctx.Done():
			return tools.Reply{}, ctx.Err()
		}
		return tools.Reply{Action: tools.ReplyAccept, Content: json.RawMessage(`{"name":"A"}`)}, nil
	}}
	waiting := make(chan struct{})
	var once sync.Once
	envB := &fakeEnv{
		answer: func(context.Context, tools.Prompt) (tools.Reply, error) {
			return tools.Reply{Action: tools.ReplyAccept, Content: json.RawMessage(`{"name":"B"}`)}, nil
		},
		onReport: func(p tools.Progress) {
			if strings.HasPrefix(p.Message, "Waiting") {
				once.Do(func() { close(waiting) })
			}
		},
	}
	resA := make(chan tools.Result, 1)
	go func() {
		resA <- runTool(t, context.Background(), m, envA, "edge", "elicit", map[string]any{"message": "A?"})
	}()
	<-askedA
	resB := make(chan tools.Result, 1)
	go func() {
		resB <- runTool(t, context.Background(), m, envB, "edge", "elicit", map[string]any{"message": "B?"})
	}()
	select {
	case <-waiting:
	case <-time.After(30 * time.Second):
		t.Fatal("the second call never said it waits")
	}
	if n := len(envB.asked()); n != 0 {
		t.Fatalf("the second call was asked while the first held the server: %+v", envB.asked())
	}
	close(releaseA)
	if r := <-resA; r.Content != `action=accept content={"name":"A"}` {
		t.Errorf("A: %+v", r)
	}
	if r := <-resB; r.Content != `action=accept content={"name":"B"}` {
		t.Errorf("B: %+v", r)
	}
	if a, b := envA.asked(), envB.asked(); len(a) != 1 || len(b) != 1 || a[0].Message != "A?" || b[0].Message != "B?" {
		t.Errorf("questions: A %+v, B %+v", a, b)
	}
}

package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/model/openai"
)

func TestEndpointErrors(t *testing.T) {
	cases := []struct {
		name      string
		responses []fakellm.Response
		wantCode  string // "" = success
		wantMsg   string
		wantCalls int
		wantText  string // stored answer content
	}{
		{"401 is not retried", []fakellm.Response{fakellm.HTTPError(401, `{"error":{"message":"Incorrect API key provided"}}`)}, "endpoint_401", "Incorrect API key provided", 1, ""},
		{"unknown model is not retried", []fakellm.Response{fakellm.HTTPError(404, `{"error":{"message":"The model 'gpt-9' does not exist"}}`)}, "endpoint_404", "does not exist", 1, ""},
		{"500 then success is retried", []fakellm.Response{fakellm.HTTPError(500, `{"error":{"message":"boom"}}`), fakellm.Reply(fakellm.Text("recovered"))}, "", "", 2, "recovered"},
		{"429 honours Retry-After", []fakellm.Response{fakellm.HTTPError(429, `{"error":{"message":"Rate limit reached"}}`, "Retry-After", "0.05"), fakellm.Reply(fakellm.Text("ok"))}, "", "", 2, "ok"},
		{"429 three times gives up", []fakellm.Response{
			fakellm.HTTPError(429, `{"error":{"message":"Rate limit reached"}}`), fakellm.HTTPError(429, `{"error":{"message":"Rate limit reached"}}`), fakellm.HTTPError(429, `{"error":{"message":"Rate limit reached"}}`),
		}, "endpoint_429", "Rate limit reached", 3, ""},
		{"a cut after text keeps the partial answer", []fakellm.Response{{Steps: []fakellm.Step{fakellm.Text("half an ans"), fakellm.Cut()}}}, "endpoint_error", "", 1, "half an ans"},
		{"a cut before any output is retried", []fakellm.Response{{Steps: []fakellm.Step{fakellm.Cut()}}, fakellm.Reply(fakellm.Text("second try"))}, "", "", 2, "second try"},
		{"a stream without finish is reported cut", []fakellm.Response{{Steps: []fakellm.Step{fakellm.Text("no end"), fakellm.Done()}}}, "endpoint_error", "closed the stream", 1, "no end"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Enqueue(tc.responses...)
			h.send("th-1", "hi")
			term := h.terminal()
			h.idle("th-1")
			if tc.wantCode == "" {
				if got := outcome(t, term); got != agui.OutcomeSuccess {
					t.Fatalf("outcome %q", got)
				}
			} else {
				re, ok := term.(*agui.RunError)
				if !ok {
					t.Fatalf("terminal %T, want RUN_ERROR", term)
				}
				if re.Code != tc.wantCode || !strings.Contains(re.Message, tc.wantMsg) {
					t.Fatalf("RUN_ERROR %q %q", re.Code, re.Message)
				}
			}
			if n := len(h.srv.Requests()); n != tc.wantCalls {
				t.Fatalf("%d model calls, want %d", n, tc.wantCalls)
			}
			msgs := h.messages("th-1")
			if msgs[0].Content != "hi" {
				t.Fatalf("the person's message was lost: %+v", msgs)
			}
			last := msgs[len(msgs)-1]
			if tc.wantText != "" && last.Content != tc.wantText {
				t.Fatalf("stored answer %q, want %q", last.Content, tc.wantText)
			}
			if tc.wantCode != "" && (last.Status != history.StatusError || last.Error == "") {
				t.Fatalf("the error is not in the thread: %+v", last)
			}
			h.assertValidHistory("th-1")
			validateAGUI(t, h.sse("th-1"))
		})
	}
}

func TestConnectionRefusedEndsWithAClearError(t *testing.T) {
	client := openai.New(openai.Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m"})
	h := newHarness(t, func(o *agent.Options) {
		o.Model = func(context.Context, string) (agent.Model, error) { return client, nil }
		o.MaxAttempts = 2
	})
	h.send("th-1", "hi")
	re, ok := h.terminal().(*agui.RunError)
	if !ok || !strings.Contains(re.Message, "connection refused") {
		t.Fatalf("terminal %+v", re)
	}
}

func TestStopDuringRetryBackoff(t *testing.T) {
	h := newHarness(t, func(o *agent.Options) { o.BackoffBase = time.Hour })
	h.srv.Enqueue(fakellm.HTTPError(503, `{"error":{"message":"overloaded"}}`))
	h.send("th-1", "hi")
	h.until(agui.TypeCustom) // juncture.retrying
	start := time.Now()
	h.rt.Interrupt("th-1")
	if got := outcome(t, h.terminal()); got != agui.OutcomeCancelled {
		t.Fatalf("outcome %q", got)
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Fatalf("Stop during backoff took %v", d)
	}
	h.idle("th-1")
	if n := len(h.srv.Requests()); n != 1 {
		t.Fatalf("%d model calls after Stop", n)
	}
	h.assertValidHistory("th-1")
}

func TestShutdownInEveryPhase(t *testing.T) {
	phases := map[string]fakellm.Response{
		"streaming": {Steps: []fakellm.Step{fakellm.Text("partial"), fakellm.Stall()}},
		"stalled":   {Steps: []fakellm.Step{fakellm.Stall()}},
		"tool":      fakellm.Reply(fakellm.ToolCall(0, "c1", "slow_abortable", `{"ms":10000}`)),
	}
	for name, resp := range phases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Enqueue(resp)
			h.send("th-1", "go")
			if err := h.srv.WaitRequests(context.Background(), 1); err != nil {
				t.Fatal(err)
			}
			if name == "tool" {
				<-h.slowStarted
			}
			time.Sleep(30 * time.Millisecond)
			if _, err := h.rt.SendInput(context.Background(), "th-1", "queued one"); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			if err := h.rt.Shutdown(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := h.rt.SendInput(context.Background(), "th-1", "late"); err == nil {
				t.Fatal("input accepted after shutdown")
			}
			msgs := h.messages("th-1")
			if msgs[len(msgs)-1].Content != "queued one" {
				t.Fatalf("queued input lost at shutdown: %+v", msgs)
			}
			assertValid(t, msgs)
		})
	}
}

package app

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/mcp"
)

// scriptServer answers a fake server's model calls with rs in order, and
// its title requests with "Title".
func scriptServer(s *fakellm.Server, rs ...fakellm.Response) {
	var mu sync.Mutex
	s.SetFallback(func(r fakellm.Request) fakellm.Response {
		if isTitleRequest(r) {
			return fakellm.Reply(fakellm.Text("Title"))
		}
		mu.Lock()
		defer mu.Unlock()
		if len(rs) == 0 {
			return fakellm.HTTPError(500, `{"error":{"message":"no scripted response left"}}`)
		}
		r0 := rs[0]
		rs = rs[1:]
		return r0
	})
}

// TestMCPSamplingUsesTheThreadsEndpoint (issue 19, defect 21): a server's
// sampling request during a call of a chat set to its own endpoint is
// answered by that endpoint and model, never by the default one (whose
// key and data are another's).
func TestMCPSamplingUsesTheThreadsEndpoint(t *testing.T) {
	f := newMCPFixture(t, edgeConfig(t, ""))
	f.waitServer("edge", mcp.StatusReady)
	answerAll(f.fake, "From the default.")
	second := fakellm.Start(t)
	ep := f.saveEndpoint(Endpoint{Name: "Second", BaseURL: second.URL, Models: []string{"model-x"}})
	var th struct{ ID string }
	f.must(&th, "NewThread", "")
	f.must(nil, "SetThreadOptions", th.ID, ThreadOptionsInput{EndpointID: &ep.ID})
	scriptServer(second,
		fakellm.Reply(fakellm.ToolCall(0, "call-s", "edge__sample", `{"prompt":"Say hi"}`)),
		fakellm.Reply(fakellm.Text("Hi from the second endpoint.")),
		fakellm.Reply(fakellm.Text("Done.")))
	f.must(nil, "SendInput", th.ID, "sample")
	v := f.waitPending(th.ID, 1) // the sampling card
	var res AnswerResult
	it := ItemAnswer{InterruptID: v.Interrupts[0].ID, Status: "resolved", Payload: json.RawMessage(`{"approved":true}`)}
	f.must(&res, "Answer", th.ID, AnswerBatch{Answers: []ItemAnswer{it}})
	f.waitIdle(th.ID)
	if r := f.toolResult(th.ID, "call-s"); r.IsError || !strings.Contains(r.Content, "sampled: Hi from the second endpoint.") {
		t.Fatalf("sampling result %+v", r)
	}
	if r := userRequests(f.fake, "Say hi"); len(r) != 0 {
		t.Errorf("the default endpoint answered the sampling request: %s", describe(r))
	}
	if r := userRequests(second, "Say hi"); len(r) != 1 || r[0].Model != "model-x" {
		t.Errorf("the thread's endpoint: %s", describe(r))
	}
}

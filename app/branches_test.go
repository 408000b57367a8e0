package app

import (
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent/fakellm"
)

// Branches through the browser transport's methods, on the real runtime,
// store and fake endpoint: edit, regenerate and switch, with usage in the
// view and every refusal in words.
func TestBranchMethodsOverHTTP(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.SetFallback(func(r fakellm.Request) fakellm.Response {
		last := r.Messages[len(r.Messages)-1]
		// By its own rule, not a queued reply: a title request still in
		// flight must not take the tool call.
		if !isTitleRequest(r) && last.Role == "user" && last.Content == "build it" {
			return fakellm.Reply(fakellm.ToolCall(0, "call_w", "run_command", `{"command":"make"}`))
		}
		return fakellm.Reply(fakellm.Text("answer to "+last.Content), fakellm.Usage(10*len(r.Messages), 3))
	})
	sent := f.sendIdle("", "otters")
	tid := sent.ThreadID
	view := func() ThreadView {
		t.Helper()
		var v ThreadView
		if e := f.call(&v, "GetThread", tid); e != nil {
			t.Fatal(e)
		}
		return v
	}
	v := view()
	q1, a1 := v.Messages[0], v.Messages[1]

	f.must(nil, "EditMessage", tid, q1.ID, "second")
	f.waitIdle(tid)
	v = view()
	if len(v.Messages) != 2 || v.Messages[0].Content != "second" || v.Messages[1].Content != "answer to second" {
		t.Fatalf("after edit: %+v", v.Messages)
	}
	if b := v.Messages[0].Branch; b == nil || b.Index != 2 || b.Count != 2 {
		t.Errorf("edited message branch = %+v", b)
	}
	reqs := f.fake.Requests()
	for _, m := range reqs[len(reqs)-1].Messages {
		if strings.Contains(m.Content, "otters") {
			t.Errorf("the model saw the old version: %+v", reqs[len(reqs)-1].Messages)
		}
	}

	f.must(nil, "Regenerate", tid, v.Messages[1].ID)
	f.waitIdle(tid)
	v = view()
	if len(v.Messages) != 2 || v.Messages[1].Branch == nil || v.Messages[1].Branch.Count != 2 {
		t.Fatalf("after regenerate: %+v", v.Messages)
	}
	if u := v.Messages[1].Usage; u == nil || u.CompletionTokens != 3 || v.Messages[1].Model != "fake-model" {
		t.Errorf("answer usage %+v model %q", u, v.Messages[1].Model)
	}
	if v.Usage.Answers != 3 || v.Usage.Unreported != 0 || v.Usage.Total.CompletionTokens != 9 {
		t.Errorf("thread usage = %+v", v.Usage)
	}

	var switched ThreadView
	f.must(&switched, "SelectBranch", tid, q1.ID)
	if len(switched.Messages) != 2 || switched.Messages[0].ID != q1.ID || switched.Messages[1].ID != a1.ID {
		t.Errorf("SelectBranch returned %+v", switched.Messages)
	}
	for _, c := range []struct {
		method string
		args   []any
		code   string
		words  string
	}{
		{"EditMessage", []any{tid, a1.ID, "x"}, CodeInvalidArgument, "only your own messages"},
		{"EditMessage", []any{tid, q1.ID, "  "}, CodeInvalidArgument, "empty"},
		{"Regenerate", []any{tid, q1.ID}, CodeInvalidArgument, "only an answer"},
		{"SelectBranch", []any{tid, "nope"}, CodeNotFound, "not in this conversation"},
		{"EditMessage", []any{tid, "nope", "x"}, CodeNotFound, "not in this conversation"},
		{"Regenerate", []any{"no-such-thread", a1.ID}, CodeNotFound, "not in this conversation"},
	} {
		e := f.call(nil, c.method, c.args...)
		if e == nil || e.Code != c.code || !strings.Contains(e.Message, c.words) {
			t.Errorf("%s%v = %+v, want %s mentioning %q", c.method, c.args, e, c.code, c.words)
		}
	}
	// While an approval waits, switching is refused in words; nothing moves.
	f.must(nil, "SendInput", tid, "build it")
	f.waitIdle(tid)
	if v := view(); len(v.Interrupts) != 1 {
		t.Fatalf("no approval waits: %+v", v.Interrupts)
	}
	if e := f.call(nil, "SelectBranch", tid, v.Messages[0].ID); e == nil || e.Code != CodeConflict || !strings.Contains(e.Message, "waits for you") {
		t.Errorf("switching while an approval waits = %+v", e)
	}
	if v := view(); v.Messages[0].ID != q1.ID || len(v.Interrupts) != 1 {
		t.Errorf("a refused switch changed the view: %+v", v.Messages)
	}
}

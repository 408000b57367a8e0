package app

import (
	"strings"
	"sync"
	"testing"

	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/app/threads"
)

func (f *fixture) newThread(preset string) history.Thread {
	f.t.Helper()
	var th history.Thread
	if e := f.call(&th, "NewThread", preset); e != nil {
		f.t.Fatalf("NewThread(%q): %+v", preset, e)
	}
	return th
}

func (f *fixture) setOptions(threadID string, in ThreadOptionsInput) history.ThreadOptions {
	f.t.Helper()
	var o history.ThreadOptions
	if e := f.call(&o, "SetThreadOptions", threadID, in); e != nil {
		f.t.Fatalf("SetThreadOptions(%s, %+v): %+v", threadID, in, e)
	}
	return o
}

func (f *fixture) sendAndWait(threadID, text string) {
	f.t.Helper()
	if e := f.call(nil, "SendInput", threadID, text); e != nil {
		f.t.Fatalf("SendInput(%s): %+v", text, e)
	}
	f.waitIdle(threadID)
}

func ptr[T any](v T) *T { return &v }

// Two chats on two endpoints: each model call goes to its own chat's
// server, with its own model and key, titles included.
func TestThreadsRunOnTheirOwnEndpointAndModel(t *testing.T) {
	f := newFixture(t, nil)
	answerAll(f.fake, "From the first endpoint.")
	second := fakellm.Start(t)
	answerAll(second, "From the second endpoint.")
	ep := f.saveEndpoint(Endpoint{Name: "Second", BaseURL: second.URL, APIKey: "sk-second-0002", Models: []string{"model-x", "model-y"}})

	a, b := f.newThread(""), f.newThread("")
	cases := []struct {
		name   string
		thread string
		in     *ThreadOptionsInput
		text   string
		server *fakellm.Server
		other  *fakellm.Server
		model  string
		auth   string
	}{
		{"A switched to the second endpoint's model-x", a.ID, &ThreadOptionsInput{EndpointID: &ep.ID, Model: ptr("model-x")}, "hello from A", second, f.fake, "model-x", "Bearer sk-second-0002"},
		{"B keeps the default", b.ID, nil, "hello from B", f.fake, second, "fake-model", ""},
		{"A again, on model-y", a.ID, &ThreadOptionsInput{Model: ptr("model-y")}, "A once more", second, f.fake, "model-y", "Bearer sk-second-0002"},
		{"B on the second endpoint's default model", b.ID, &ThreadOptionsInput{EndpointID: &ep.ID}, "B moves", second, f.fake, "model-x", "Bearer sk-second-0002"},
		{"B back to the default", b.ID, &ThreadOptionsInput{EndpointID: ptr("")}, "B is back", f.fake, second, "fake-model", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.in != nil {
				o := f.setOptions(tc.thread, *tc.in)
				if tc.in.EndpointID != nil && o.EndpointID != *tc.in.EndpointID {
					t.Fatalf("options %+v", o)
				}
			}
			f.sendAndWait(tc.thread, tc.text)
			got := userRequests(tc.server, tc.text)
			if len(got) != 1 {
				t.Fatalf("%d requests for %q at the expected server", len(got), tc.text)
			}
			auth := got[0].Header.Get("Authorization")
			if got[0].Model != tc.model || (tc.auth != "" && auth != tc.auth) || (tc.auth == "" && strings.Contains(auth, "sk-second")) {
				t.Fatalf("request for %q: model %q, authorization %q", tc.text, got[0].Model, auth)
			}
			if n := len(userRequests(tc.other, tc.text)); n != 0 {
				t.Fatalf("%d requests for %q at the other server", n, tc.text)
			}
		})
	}
	// Titles are asked of each chat's own model too.
	titles := func(s *fakellm.Server) (models []string) {
		for _, r := range s.Requests() {
			if isTitleRequest(r) {
				models = append(models, r.Model)
			}
		}
		return models
	}
	waitFor(t, func() bool { return len(titles(f.fake)) == 1 && len(titles(second)) == 1 })
	if m := titles(second); m[0] != "model-x" {
		t.Fatalf("A's title was asked of %v", m)
	}
	var v ThreadView
	if f.call(&v, "GetThread", a.ID); v.Thread.Options.EndpointID != ep.ID || v.Thread.Options.Model != "model-y" {
		t.Fatalf("A's options %+v", v.Thread.Options)
	}
}

// The model picker applies from the next model call: switching while the
// model's tool call runs changes the model of the same turn's next call.
func TestSwitchingModelMidTurnAppliesFromTheNextModelCall(t *testing.T) {
	f := newFixture(t, nil)
	th := f.newThread("")
	var mu sync.Mutex
	calls := 0
	f.fake.SetFallback(func(r fakellm.Request) fakellm.Response {
		if isTitleRequest(r) {
			return fakellm.Reply(fakellm.Text("Title"))
		}
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		if n == 1 {
			// The person switches while this call is answered.
			if e := f.call(nil, "SetThreadOptions", th.ID, ThreadOptionsInput{Model: ptr("switched-model")}); e != nil {
				t.Errorf("switching: %+v", e)
			}
			return fakellm.Reply(fakellm.ToolCall(0, "call_1", "list_files", `{"path":"."}`), fakellm.Finish("tool_calls"))
		}
		return fakellm.Reply(fakellm.Text("Done."))
	})
	f.sendAndWait(th.ID, "list the files")
	var models []string
	for _, r := range f.fake.Requests() {
		if !isTitleRequest(r) {
			models = append(models, r.Model)
		}
	}
	if strings.Join(models, ",") != "fake-model,switched-model" {
		t.Fatalf("models of the turn's calls: %v", models)
	}
}

// The thread's instructions reach the model as the first (and only)
// system message, after Juncture's own text; a branch made before they
// changed keeps the ones it ran with.
func TestInstructionsArriveAsTheFirstSystemMessage(t *testing.T) {
	f := newFixture(t, nil)
	answerAll(f.fake, "Arr.")
	th := f.newThread("")
	o := f.setOptions(th.ID, ThreadOptionsInput{SystemPrompt: ptr("  Answer like a pirate.  ")})
	if o.SystemPrompt != "Answer like a pirate." {
		t.Fatalf("options %+v", o)
	}
	system := func(text string) string {
		t.Helper()
		r := userRequests(f.fake, text)
		if len(r) != 1 {
			t.Fatalf("%d requests for %q", len(r), text)
		}
		n := 0
		for _, m := range r[0].Messages {
			if m.Role == "system" {
				n++
			}
		}
		if r[0].Messages[0].Role != "system" || n != 1 {
			t.Fatalf("request for %q: %d system messages, first %q", text, n, r[0].Messages[0].Role)
		}
		if !strings.HasPrefix(r[0].Messages[0].Content, systemPrompt) {
			t.Fatalf("Juncture's own text is missing: %q", r[0].Messages[0].Content)
		}
		return r[0].Messages[0].Content
	}
	f.sendAndWait(th.ID, "first question")
	if s := system("first question"); s != systemPrompt+"\n\nAnswer like a pirate." {
		t.Fatalf("system message %q", s)
	}
	var v ThreadView
	if f.call(&v, "GetThread", th.ID); v.Thread.Options.SystemPrompt != "Answer like a pirate." {
		t.Fatalf("GetThread options %+v", v.Thread.Options)
	}
	var firstUser string
	for _, m := range v.Messages {
		if m.Role == history.RoleUser {
			firstUser = m.ID
			break
		}
	}
	f.setOptions(th.ID, ThreadOptionsInput{SystemPrompt: ptr("Be terse.")})
	f.sendAndWait(th.ID, "second question")
	if s := system("second question"); !strings.HasSuffix(s, "\n\nBe terse.") || strings.Contains(s, "pirate") {
		t.Fatalf("system message after the change %q", s)
	}
	// Editing the first question branches off before the change: that
	// branch runs with the pirate's instructions.
	f.must(nil, "EditMessage", th.ID, firstUser, "first question, edited")
	f.waitIdle(th.ID)
	if s := system("first question, edited"); !strings.HasSuffix(s, "\n\nAnswer like a pirate.") {
		t.Fatalf("the earlier branch's system message %q", s)
	}
	if f.call(&v, "GetThread", th.ID); v.Thread.Options.SystemPrompt != "Answer like a pirate." {
		t.Fatalf("GetThread on the earlier branch: %+v", v.Thread.Options)
	}
	// Cleared instructions: Juncture's text alone.
	f.setOptions(th.ID, ThreadOptionsInput{SystemPrompt: ptr("")})
	f.sendAndWait(th.ID, "third question")
	if s := system("third question"); s != systemPrompt {
		t.Fatalf("system message without instructions %q", s)
	}
}

func TestThreadToolsLimitWhatTheModelIsOffered(t *testing.T) {
	f := newFixture(t, nil)
	answerAll(f.fake, "Ok.")
	th := f.newThread("")
	f.setOptions(th.ID, ThreadOptionsInput{Tools: &[]string{"read_file"}})
	f.sendAndWait(th.ID, "limited")
	f.setOptions(th.ID, ThreadOptionsInput{Tools: &[]string{}}) // none at all: a choice, kept as such
	f.sendAndWait(th.ID, "none")
	f.setOptions(th.ID, ThreadOptionsInput{AllTools: true})
	f.sendAndWait(th.ID, "all")
	limited, none, all := userRequests(f.fake, "limited"), userRequests(f.fake, "none"), userRequests(f.fake, "all")
	if len(limited) != 1 || len(all) != 1 || len(none) != 1 {
		t.Fatalf("requests %d %d %d", len(limited), len(none), len(all))
	}
	if none[0].HasTool("read_file") || none[0].HasTool("list_files") {
		t.Fatalf("a thread with no tools was offered %+v", none[0].Tools)
	}
	if !limited[0].HasTool("read_file") || limited[0].HasTool("list_files") {
		t.Fatalf("limited tools: %+v", limited[0].Tools)
	}
	if !all[0].HasTool("read_file") || !all[0].HasTool("list_files") {
		t.Fatalf("all tools: %+v", all[0].Tools)
	}
}

func TestSetThreadOptionsRefusesWhatDoesNotExist(t *testing.T) {
	f := newFixture(t, nil)
	th := f.newThread("")
	cases := []struct {
		name   string
		thread string
		in     ThreadOptionsInput
		code   string
		field  string
	}{
		{"unknown endpoint", th.ID, ThreadOptionsInput{EndpointID: ptr("endpoint-nope")}, CodeInvalidArgument, "endpointId"},
		{"unknown thread", "thread-nope", ThreadOptionsInput{Model: ptr("m")}, CodeNotFound, ""},
		{"long instructions", th.ID, ThreadOptionsInput{SystemPrompt: ptr(strings.Repeat("x", threads.MaxInstructions+1))}, CodeInvalidArgument, "systemPrompt"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := f.call(nil, "SetThreadOptions", tc.thread, tc.in)
			if e == nil || e.Code != tc.code || (tc.field != "" && e.Details[tc.field] == "") {
				t.Fatalf("error %+v, want %s on %q", e, tc.code, tc.field)
			}
		})
	}
	var v ThreadView
	if f.call(&v, "GetThread", th.ID); v.Thread.Options.EndpointID != "" || v.Thread.Options.SystemPrompt != "" {
		t.Fatalf("a refused change changed something: %+v", v.Thread.Options)
	}
	// A detected server's id is accepted even while it is not running.
	if o := f.setOptions(th.ID, ThreadOptionsInput{EndpointID: ptr("ollama"), Model: ptr("llama3.2")}); o.EndpointID != "ollama" || o.Model != "llama3.2" {
		t.Fatalf("options %+v", o)
	}
}

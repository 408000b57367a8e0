package app

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"go.uber.org/goleak"

	"github.com/juncture-app/juncture/agent/agui/aguitest"
	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/agent/sandbox"
	"github.com/juncture-app/juncture/app/config"
	"github.com/juncture-app/juncture/app/web"
)

func TestMain(m *testing.M) {
	attach.MaybeRunExtractor() // this binary parses PDFs and images in a child
	sandbox.MaybeRunChild()    // and confines commands and servers in one
	if os.Getenv("JUNCTURE_CRASH_CHILD") == "1" {
		crashChild()
		return
	}
	// Never read the person's own configuration (mcp.json) in a test.
	cfg, err := os.MkdirTemp("", "juncture-app-test-config")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", cfg)
	goleak.VerifyTestMain(m, goleak.Cleanup(func(int) { os.RemoveAll(cfg) }))
}

type fixture struct {
	t     *testing.T
	fake  *fakellm.Server
	svc   *Service
	srv   *httptest.Server
	token string
	dir   string
	env   map[string]string // the environment the service started with
	// mcpAtWindow starts the service as the desktop window does (Config.MCPAtWindow).
	mcpAtWindow bool
}

func newFixture(t *testing.T, env map[string]string) *fixture {
	t.Helper()
	return newFixtureWith(t, env, nil)
}

// newFixtureWith is newFixture with extra variables added to the
// environment the app reads (after the defaults, which point at the fake
// model when env is nil).
func newFixtureWith(t *testing.T, env, extra map[string]string) *fixture {
	t.Helper()
	f := &fixture{t: t, fake: fakellm.Start(t), token: "test-token", dir: t.TempDir()}
	if env == nil {
		env = map[string]string{"OPENAI_BASE_URL": f.fake.URL, "JUNCTURE_MODEL": "fake-model"}
	}
	for k, v := range extra {
		env[k] = v
	}
	env["JUNCTURE_WORKSPACE"] = t.TempDir()
	t.Setenv("JUNCTURE_WORKSPACE", env["JUNCTURE_WORKSPACE"])
	f.env = env
	f.start(env)
	return f
}

func (f *fixture) start(env map[string]string) {
	t := f.t
	svc, err := Start(context.Background(), Config{DataDir: f.dir, Mode: "browser", Getenv: func(k string) string { return env[k] },
		MCPConfigPath: filepath.Join(f.dir, "mcp.json"), MCPAtWindow: f.mcpAtWindow})
	if err != nil {
		t.Fatal(err)
	}
	f.svc = svc
	assets := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>Juncture</title>")}}
	f.srv = httptest.NewServer(web.NewServer(svc, assets, f.token))
	t.Cleanup(f.stop)
}

func (f *fixture) stop() {
	if f.srv == nil {
		return
	}
	f.srv.CloseClientConnections()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := f.svc.Shutdown(ctx); err != nil {
		f.t.Errorf("shutdown: %v", err)
	}
	f.srv.Close()
	f.srv = nil
}

// mustStart starts the app with cfg, failing the test if it cannot.
func mustStart(t *testing.T, cfg Config) *Service {
	t.Helper()
	svc, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// stopService shuts svc down within 10 s, failing the test if it cannot.
func stopService(t *testing.T, svc *Service) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := svc.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) request(method, path string, body any, hdr map[string]string) *http.Response {
	f.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = strings.NewReader(string(b))
	}
	req, _ := http.NewRequest(method, f.srv.URL+path, r)
	req.Header.Set("Authorization", "Bearer "+f.token)
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	return resp
}

// call invokes a method over HTTP and decodes the result into out.
func (f *fixture) call(out any, method string, args ...any) *Error {
	f.t.Helper()
	if args == nil {
		args = []any{}
	}
	resp := f.request("POST", "/api/call/"+method, args, nil)
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		var e struct{ Error *Error }
		_ = json.NewDecoder(resp.Body).Decode(&e)
		if e.Error == nil {
			f.t.Fatalf("%s: status %d without an error body", method, resp.StatusCode)
		}
		return e.Error
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			f.t.Fatal(err)
		}
	}
	return nil
}

func TestAPIRefusesMissingTokenForeignOriginAndForeignHost(t *testing.T) {
	f := newFixture(t, nil)
	cases := []struct {
		name string
		hdr  map[string]string
		want int
	}{
		{"no token", map[string]string{"Authorization": ""}, 401},
		{"wrong token", map[string]string{"Authorization": "Bearer nope"}, 401},
		{"foreign origin", map[string]string{"Origin": "https://evil.example"}, 403},
		{"foreign host (DNS rebinding)", map[string]string{"Host": "evil.example"}, 403},
		{"own origin", map[string]string{"Origin": f.srv.URL}, 200},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", f.srv.URL+"/api/call/ListThreads", strings.NewReader(`["",10]`))
			req.Header.Set("Authorization", "Bearer "+f.token)
			for k, v := range tc.hdr {
				if k == "Host" {
					req.Host = v
				} else if v == "" {
					req.Header.Del(k)
				} else {
					req.Header.Set(k, v)
				}
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.want)
			}
		})
	}
	// The page itself loads without a token (the token is in the URL fragment).
	resp, err := http.Get(f.srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("index: %d", resp.StatusCode)
	}
}

func TestCallErrorsAreStructured(t *testing.T) {
	f := newFixture(t, nil)
	cases := []struct {
		method string
		args   []any
		code   string
	}{
		{"NoSuchMethod", nil, CodeNotFound},
		{"GetThread", []any{"missing-thread"}, CodeNotFound},
		{"GetThread", []any{}, CodeNotFound}, // an omitted argument is "" (issue 19 #25)
		{"GetThread", []any{42}, CodeInvalidArgument},
		{"SendInput", []any{"", "   "}, CodeInvalidArgument},
		{"RespondPermission", []any{"t", "c", true, nil}, CodeNotFound},
		{"ResolveInterrupts", []any{"t", []any{}}, CodeConflict},
	}
	for _, tc := range cases {
		if e := f.call(nil, tc.method, tc.args...); e == nil || e.Code != tc.code || e.Message == "" {
			t.Errorf("%s%v: got %+v, want code %s", tc.method, tc.args, e, tc.code)
		}
	}
}

// events reads /api/events frames in the background.
func (f *fixture) events(ctx context.Context) <-chan map[string]any {
	ch := make(chan map[string]any, 1024)
	req, _ := http.NewRequestWithContext(ctx, "GET", f.srv.URL+"/api/events", nil)
	req.Header.Set("Authorization", "Bearer "+f.token)
	resp, err := http.DefaultClient.Do(req) //nolint:bodyclose // the reading goroutine closes it
	if err != nil {
		f.t.Fatal(err)
	}
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			line := sc.Text()
			if !strings.HasPrefix(line, "data: ") {
				continue
			}
			var m map[string]any
			if json.Unmarshal([]byte(line[6:]), &m) == nil {
				ch <- m
			}
		}
	}()
	return ch
}

func TestConversationOverHTTPSurvivesARestart(t *testing.T) {
	f := newFixture(t, nil)
	// The event stream batches deltas queued while it writes: paced
	// chunks arrive as separate deltas even on a loaded machine.
	var steps []fakellm.Step
	for _, w := range fakellm.Words("A streamed answer in several words.", 2) {
		steps = append(steps, w, fakellm.Delay(40*time.Millisecond))
	}
	f.fake.Enqueue(fakellm.Reply(steps...))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs := f.events(ctx)
	sent := f.send("", "Hello")
	var deltas int
	for ev := range evs {
		if ev["name"] != "agui" {
			continue
		}
		e := ev["data"].(map[string]any)["event"].(map[string]any)
		if e["type"] == "TEXT_MESSAGE_CONTENT" {
			deltas++
		}
		if e["type"] == "RUN_FINISHED" {
			break
		}
	}
	if deltas < 3 {
		t.Fatalf("%d deltas: not streamed", deltas)
	}
	cancel()
	// Restart the app on the same data folder: the thread is there.
	f.fake.SetFallback(func(fakellm.Request) fakellm.Response { return fakellm.Reply(fakellm.Text("Greeting")) })
	f.waitIdle(sent.ThreadID)
	f.stop()
	f.start(map[string]string{"OPENAI_BASE_URL": f.fake.URL, "JUNCTURE_MODEL": "fake-model"})
	var v ThreadView
	f.must(&v, "GetThread", sent.ThreadID)
	if len(v.Messages) != 2 || v.Messages[1].Content != "A streamed answer in several words." {
		t.Fatalf("after restart: %+v", v.Messages)
	}
	var page ThreadPage
	if e := f.call(&page, "ListThreads", "", 10); e != nil || len(page.Threads) != 1 || page.Threads[0].Title == "" {
		t.Fatalf("threads %+v err %v", page, e)
	}
}

// must calls method through /api/call (see call), failing the test if
// it returns an error.
func (f *fixture) must(out any, method string, args ...any) {
	f.t.Helper()
	if e := f.call(out, method, args...); e != nil {
		f.t.Fatal(e)
	}
}

// send sends text (and files) to threadID ("" = a new chat) through
// SendInput, failing the test if it is refused.
func (f *fixture) send(threadID, text string, files ...[]AttachmentInput) SendResult {
	f.t.Helper()
	args := []any{threadID, text}
	if len(files) > 0 {
		args = append(args, files[0])
	}
	var sent SendResult
	if e := f.call(&sent, "SendInput", args...); e != nil {
		f.t.Fatal(e)
	}
	return sent
}

// sendIdle is send, then waits until the thread's run ends.
func (f *fixture) sendIdle(threadID, text string, files ...[]AttachmentInput) SendResult {
	f.t.Helper()
	sent := f.send(threadID, text, files...)
	f.waitIdle(sent.ThreadID)
	return sent
}

func (f *fixture) waitIdle(threadID string) {
	f.t.Helper()
	waitFor(f.t, func() bool { running, _ := f.svc.Runtime().Running(threadID); return !running })
	time.Sleep(50 * time.Millisecond) // let the title finish
}

// waitTitled waits until the runtime has named the thread.
func (f *fixture) waitTitled(threadID string) {
	f.t.Helper()
	waitFor(f.t, func() bool {
		var page ThreadPage
		if e := f.call(&page, "ListThreads", "", 100); e != nil {
			return false
		}
		for _, it := range page.Threads {
			if it.ID == threadID {
				return it.Title != ""
			}
		}
		return false
	})
}

func TestNoEndpointExplainsWhatToConfigure(t *testing.T) {
	f := newFixture(t, map[string]string{})
	var st Status
	f.must(&st, "Status")
	if st.Configured || !strings.Contains(st.Problem, "Settings") {
		t.Fatalf("status %+v", st)
	}
	e := f.call(nil, "SendInput", "", "hello")
	if e == nil || e.Code != CodeNotConfigured {
		t.Fatalf("send without endpoint: %+v", e)
	}
	var page ThreadPage
	if e := f.call(&page, "ListThreads", "", 10); e != nil {
		t.Fatalf("history must stay browsable: %v", e)
	}
}

func TestSettingsAreValidatedAndSavedAtOnce(t *testing.T) {
	f := newFixture(t, map[string]string{"JUNCTURE_MODEL": "env-model"})
	bad := Settings{BaseURL: "not a url", Model: "m", LoopGuard: 500, Theme: "purple"}
	e := f.call(nil, "SaveSettings", bad)
	if e == nil || e.Code != CodeInvalidSettings || e.Details["baseUrl"] == "" || e.Details["loopGuard"] == "" || e.Details["theme"] == "" {
		t.Fatalf("got %+v", e)
	}
	var v SettingsView
	f.call(&v, "GetSettings")
	if v.Settings.BaseURL != "" {
		t.Fatalf("an invalid save changed settings: %+v", v)
	}
	good := Settings{BaseURL: f.fake.URL, APIKey: "sk-secret-1234", Model: "saved-model", LoopGuard: 10, Theme: "dark"}
	f.must(&v, "SaveSettings", good)
	if v.Settings.Model != "env-model" || v.Sources["model"] != SourceEnvironment {
		t.Fatalf("the environment must win for this start: %+v", v)
	}
	if v.Settings.APIKey != "••••1234" || v.Sources["baseUrl"] != SourceSaved {
		t.Fatalf("view %+v", v)
	}
	var conn ConnectionResult
	f.call(&conn, "TestConnection", Settings{BaseURL: f.fake.URL})
	if !conn.OK || len(conn.Models) == 0 {
		t.Fatalf("test connection %+v", conn)
	}
	f.call(&conn, "TestConnection", Settings{BaseURL: "http://127.0.0.1:1/v1"})
	if conn.OK || conn.Message == "" {
		t.Fatalf("refused endpoint reported as %+v", conn)
	}
}

func TestEndpointErrorsAppearInTheThread(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.Enqueue(fakellm.HTTPError(401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`))
	sent := f.sendIdle("", "hi")
	var v ThreadView
	f.call(&v, "GetThread", sent.ThreadID)
	last := v.Messages[len(v.Messages)-1]
	if last.Status != "error" || !strings.Contains(last.Error, "Incorrect API key provided") || v.Messages[0].Content != "hi" {
		t.Fatalf("messages %+v", v.Messages)
	}
}

func TestAGUIEndpointStreamsAConformantRun(t *testing.T) {
	f := newFixture(t, nil)
	f.script(fakellm.Reply(fakellm.Words("Hello from the AG-UI endpoint.", 2)...), fakellm.Reply(fakellm.Text("Second.")))
	in := map[string]any{
		"threadId": "th-agui", "runId": "run-client-1", "protocolVersion": "1.0",
		"messages": []any{map[string]any{"id": "u1", "role": "user", "content": "hi"}},
		"tools":    []any{}, "context": []any{}, "forwardedProps": map[string]any{},
	}
	resp := f.request("POST", "/agui", in, map[string]string{"Accept": "text/event-stream"})
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	s := string(body)
	for _, want := range []string{`"type":"RUN_STARTED"`, `"runId":"run-client-1"`, `"TEXT_MESSAGE_CONTENT"`, `"type":"RUN_FINISHED"`} {
		if !strings.Contains(s, want) {
			t.Fatalf("missing %s in\n%s", want, s)
		}
	}
	validateAGUI(t, body)
	// A second request with the client's full history appends only new messages.
	in["runId"] = "run-client-2"
	in["messages"] = []any{
		map[string]any{"id": "u1", "role": "user", "content": "hi"},
		map[string]any{"id": "u2", "role": "user", "content": "and again"},
	}
	resp = f.request("POST", "/agui", in, nil)
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	validateAGUI(t, body)
	f.waitIdle("th-agui")
	var v ThreadView
	f.call(&v, "GetThread", "th-agui")
	var users int
	for _, m := range v.Messages {
		if m.Role == "user" {
			users++
		}
	}
	if users != 2 || len(v.Messages) != 4 {
		t.Fatalf("history %+v", v.Messages)
	}
}

func TestClosingTheAGUIResponseStopsTheRun(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.Enqueue(fakellm.Response{Steps: []fakellm.Step{fakellm.Text("partial "), fakellm.Stall()}})
	in := map[string]any{"threadId": "th-x", "runId": "r1", "messages": []any{map[string]any{"id": "u1", "role": "user", "content": "go"}}}
	ctx, cancel := context.WithCancel(context.Background())
	b, _ := json.Marshal(in)
	req, _ := http.NewRequestWithContext(ctx, "POST", f.srv.URL+"/agui", strings.NewReader(string(b)))
	req.Header.Set("Authorization", "Bearer "+f.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "partial") {
			break
		}
	}
	cancel()
	resp.Body.Close()
	f.waitIdle("th-x")
	var v ThreadView
	f.call(&v, "GetThread", "th-x")
	last := v.Messages[len(v.Messages)-1]
	if last.Status != "interrupted" || !strings.HasPrefix(last.Content, "partial") {
		t.Fatalf("after disconnect: %+v", last)
	}
}

func validateAGUI(t testing.TB, stream []byte) {
	t.Helper()
	aguitest.Validate(t, stream)
}

func TestDeleteAllHistoryRemovesThreadsAndSearchHits(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.SetFallback(func(fakellm.Request) fakellm.Response { return fakellm.Reply(fakellm.Text("zebra crossing answer")) })
	for i := 0; i < 3; i++ {
		var sent SendResult
		if e := f.call(&sent, "SendInput", "", "tell me about zebras"); e != nil {
			t.Fatal(e)
		}
		f.waitIdle(sent.ThreadID)
	}
	var hits []map[string]any
	if f.call(&hits, "SearchHistory", "zebra", 10); len(hits) == 0 {
		t.Fatal("no search hits before deleting")
	}
	f.must(nil, "DeleteAllHistory")
	var page ThreadPage
	f.call(&page, "ListThreads", "", 10)
	f.call(&hits, "SearchHistory", "zebra", 10)
	if len(page.Threads) != 0 || len(hits) != 0 {
		t.Fatalf("after delete-all: %d threads, %d hits", len(page.Threads), len(hits))
	}
}

type fakeDesktop struct {
	path     string
	notified []string
}

func (d *fakeDesktop) SaveFile(name string) (string, error) { return d.path, nil }
func (d *fakeDesktop) Notify(title, body string) error {
	d.notified = append(d.notified, title+": "+body)
	return nil
}

func TestDesktopOnlyMethods(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.Enqueue(fakellm.Reply(fakellm.Text("exported words")))
	var sent SendResult
	f.call(&sent, "SendInput", "", "export me")
	f.waitIdle(sent.ThreadID)
	if e := f.call(nil, "SaveExport", sent.ThreadID, "markdown"); e == nil || e.Code != CodeUnavailable {
		t.Fatalf("browser mode SaveExport: %+v", e)
	}
	d := &fakeDesktop{path: filepath.Join(t.TempDir(), "out.md")}
	f.svc.SetDesktop(d)
	var path string
	if e := f.call(&path, "SaveExport", sent.ThreadID, "markdown"); e != nil || path != d.path {
		t.Fatalf("SaveExport: %q %+v", path, e)
	}
	if b, _ := os.ReadFile(d.path); !strings.Contains(string(b), "exported words") {
		t.Fatalf("exported file: %q", b)
	}
	if e := f.call(nil, "Notify", "Approval needed", "write_file wants to write notes.txt"); e != nil || len(d.notified) != 1 {
		t.Fatalf("Notify: %+v %v", e, d.notified)
	}
}

func TestDetectsALocalServerWhenNothingIsConfigured(t *testing.T) {
	fake := fakellm.Start(t)
	fake.SetModels("llama3.2", "qwen3")
	saved := localServers
	localServers = []config.Provider{{ID: "ollama", Name: "Ollama", URL: "http://127.0.0.1:1/v1"}, {ID: "lmstudio", Name: "LM Studio", URL: fake.URL}}
	defer func() { localServers = saved }()
	svc, err := Start(context.Background(), Config{DataDir: t.TempDir(), Mode: "browser", DetectLocal: true, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Shutdown(context.Background())
	var st Status
	for i := 0; i < 300; i++ {
		if st = svc.App().Status(); st.Configured {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !st.Configured || st.Endpoint != fake.URL || st.Model != "llama3.2" || !strings.Contains(st.Detected, "LM Studio") {
		t.Fatalf("status %+v", st)
	}
	if v := svc.App().GetSettings(); v.Sources["baseUrl"] != SourceDetected {
		t.Fatalf("sources %v", v.Sources)
	}
}

func TestListThreadsSaysWhatWaitsAfterARestart(t *testing.T) {
	f := newFixture(t, nil)
	f.enableWriteTools()
	// The first thread's title request may arrive after the second turn has
	// begun: script answers it by its own rule, not with the write call.
	f.script(fakellm.Reply(fakellm.Text("Hello.")),
		fakellm.Reply(writeCall("call-w", "w.txt", "x")), fakellm.Reply(fakellm.Text("Done.")))
	idle := f.sendIdle("", "hi")
	paused := f.send("", "write w.txt")
	f.waitPending(paused.ThreadID, 1)
	f.waitIdle(paused.ThreadID)
	f.waitTitled(paused.ThreadID) // named in the background; a stop before that leaves it unnamed

	// A restart forgets every live event: the list alone must tell.
	f.stop()
	f.start(map[string]string{"OPENAI_BASE_URL": f.fake.URL, "JUNCTURE_MODEL": "fake-model"})
	var page ThreadPage
	if e := f.call(&page, "ListThreads", "", 10); e != nil || len(page.Threads) != 2 {
		t.Fatalf("threads %+v err %v", page, e)
	}
	got := map[string]ThreadListItem{}
	for _, it := range page.Threads {
		got[it.ID] = it
	}
	if it := got[paused.ThreadID]; it.Waiting != 1 || it.Running || it.Title == "" {
		t.Errorf("paused thread %+v, want waiting 1, not running", it)
	}
	if it := got[idle.ThreadID]; it.Waiting != 0 || it.Running {
		t.Errorf("idle thread %+v, want waiting 0, not running", it)
	}
	// The thread fields stay at the top level of each item.
	resp := f.request("POST", "/api/call/ListThreads", []any{"", 10}, nil)
	defer resp.Body.Close()
	var raw struct {
		Threads []map[string]any `json:"threads"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&raw); err != nil || len(raw.Threads) != 2 {
		t.Fatalf("raw page %+v %v", raw, err)
	}
	for _, k := range []string{"id", "title", "pinned", "createdAt", "updatedAt", "running", "waiting"} {
		if _, ok := raw.Threads[0][k]; !ok {
			t.Errorf("list item lacks %q: %v", k, raw.Threads[0])
		}
	}
}

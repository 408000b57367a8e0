package app

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/app/events"
)

// Every method Wails binds (the exported methods of *App) is in the
// browser transport's table, and nothing else is; each one refuses too
// many arguments with invalid-argument (fewer are zero values:
// TestCallOmittedTrailingArgumentsAreZero).
func TestCallTableCoversTheBindings(t *testing.T) {
	f := newFixture(t, nil)
	table := f.svc.app.callTable()
	typ := reflect.TypeOf(f.svc.app)
	var bound []string
	takes := map[string]int{} // argument count, without the receiver
	for k := 0; k < typ.NumMethod(); k++ {
		m := typ.Method(k)
		bound = append(bound, m.Name)
		takes[m.Name] = m.Type.NumIn() - 1
		if _, ok := table[m.Name]; !ok {
			t.Errorf("bound method %s is not in callTable()", m.Name)
		}
	}
	if len(bound) < 20 {
		t.Fatalf("only %d exported methods found: %v", len(bound), bound)
	}
	for name := range table {
		if !slices.Contains(bound, name) {
			t.Errorf("callTable() lists %s, which is not an exported method of *App", name)
		}
	}
	for _, name := range bound {
		in := takes[name]
		for _, n := range []int{in + 1} {
			args := make([]any, n)
			resp := f.request("POST", "/api/call/"+name, args, nil)
			var body struct{ Error *Error }
			err := json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != http.StatusBadRequest || body.Error == nil || body.Error.Code != CodeInvalidArgument || body.Error.Message == "" {
				t.Errorf("%s with %d argument(s) (takes %d): status %d, error %+v (%v)", name, n, in, resp.StatusCode, body.Error, err)
			}
		}
	}
}

// sseFrame is one frame of /api/events.
type sseFrame struct {
	id   string
	name string
	data map[string]any
}

// streamTicket asks for a single-use stream ticket, as the page does
// before it opens /api/events.
func (f *fixture) streamTicket() string {
	f.t.Helper()
	resp := f.request("POST", "/api/events/ticket", nil, nil)
	defer resp.Body.Close()
	var body struct{ Ticket string }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != http.StatusOK || body.Ticket == "" {
		f.t.Fatalf("asking for a stream ticket: %d %v", resp.StatusCode, err)
	}
	return body.Ticket
}

// eventStream connects to /api/events as the page does, with a stream
// ticket (and lastID as Last-Event-ID, or as ?lastEventId= when query is
// set), and returns once the server has subscribed it.
func (f *fixture) eventStream(ctx context.Context, lastID string, query bool) <-chan sseFrame {
	f.t.Helper()
	url := f.srv.URL + "/api/events?ticket=" + f.streamTicket()
	if query && lastID != "" {
		url += "&lastEventId=" + lastID
	}
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	if !query && lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req) //nolint:bodyclose // the caller's cleanup closes it
	if err != nil {
		f.t.Fatal(err)
	}
	br := bufio.NewReader(resp.Body)
	if line, err := br.ReadString('\n'); err != nil || !strings.HasPrefix(line, ": connected") {
		resp.Body.Close()
		f.t.Fatalf("first line %q %v", line, err)
	}
	ch := make(chan sseFrame, 1024)
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		id := ""
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\n")
			switch {
			case line == "":
				id = ""
			case strings.HasPrefix(line, "id: "):
				id = line[4:]
			case strings.HasPrefix(line, "data: "):
				var m struct {
					Name string         `json:"name"`
					Data map[string]any `json:"data"`
				}
				if json.Unmarshal([]byte(line[6:]), &m) == nil {
					ch <- sseFrame{id: id, name: m.Name, data: m.Data}
				}
			}
		}
	}()
	return ch
}

func next(t *testing.T, ch <-chan sseFrame) sseFrame {
	t.Helper()
	select {
	case fr, ok := <-ch:
		if !ok {
			t.Fatal("the event stream ended")
		}
		return fr
	case <-time.After(5 * time.Second):
		t.Fatal("no event in 5 s")
	}
	return sseFrame{}
}

// A page that reconnects with the id of the last event it saw gets what it
// missed, once, and then the live stream; an id the server cannot replay
// from gets a resync first.
func TestEventsReplayFromLastEventID(t *testing.T) {
	f := newFixture(t, nil)
	expect := func(ch <-chan sseFrame, threadID string) sseFrame {
		t.Helper()
		fr := next(t, ch)
		for fr.name == "mcp" { // the tool servers' status, published when the app starts them: not this test's
			fr = next(t, ch)
		}
		if fr.name != "threads" || fr.data["threadId"] != threadID || fr.id == "" {
			t.Fatalf("frame %+v, want a threads frame with an id for %s", fr, threadID)
		}
		return fr
	}

	ctx1, cancel1 := context.WithCancel(context.Background())
	first := f.eventStream(ctx1, "", false)
	a, b := f.newThread("").ID, f.newThread("").ID
	expect(first, a)
	seen := expect(first, b)
	cancel1()
	for range first { // the stream ends with the request
	}

	// Missed while disconnected.
	c, d, e := f.newThread("").ID, f.newThread("").ID, f.newThread("").ID
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	second := f.eventStream(ctx2, seen.id, false)
	var ids []string
	for _, want := range []string{c, d, e} {
		ids = append(ids, expect(second, want).id)
	}
	// Then live, with nothing replayed twice in between.
	g := f.newThread("").ID
	ids = append(ids, expect(second, g).id)
	for k := 1; k < len(ids); k++ {
		if ids[k] == ids[k-1] || ids[k] == seen.id {
			t.Fatalf("ids repeat: %v after %s", ids, seen.id)
		}
	}
	cancel2()

	// The query form a new EventSource uses works the same.
	ctx3, cancel3 := context.WithCancel(context.Background())
	defer cancel3()
	third := f.eventStream(ctx3, ids[2], true) // after e
	expect(third, g)
	cancel3()

	boot, _, _ := strings.Cut(seen.id, ".")
	for _, tc := range []struct {
		id    string
		query bool
	}{{"not-an-event-id", false}, {boot + ".999999999", false}, {boot + ".999999999", true}} {
		ctx, cancel := context.WithCancel(context.Background())
		ch := f.eventStream(ctx, tc.id, tc.query)
		if fr := next(t, ch); fr.name != "resync" {
			t.Errorf("Last-Event-ID %q (query %v): first frame %+v, want resync", tc.id, tc.query, fr)
		}
		// Live events follow the resync.
		h := f.newThread("").ID
		expect(ch, h)
		cancel()
	}
}

// The runtime names a new thread after its first exchange and announces
// it with a "threads" event of its own (one with an id, unlike the
// run-start and run-end ones appended to run events).
func TestTitleIsAnnouncedWithAThreadsEvent(t *testing.T) {
	f := newFixture(t, nil)
	f.fake.SetFallback(func(r fakellm.Request) fakellm.Response {
		if isTitleRequest(r) {
			return fakellm.Reply(fakellm.Text("Greeting Title"))
		}
		return fakellm.Reply(fakellm.Text("Hello there."))
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs := f.eventStream(ctx, "", false)
	sent := f.send("", "Hello")
	finished := false
	for !finished {
		fr := next(t, evs)
		if fr.name == "agui" && fr.data["threadId"] == sent.ThreadID {
			finished = fr.data["event"].(map[string]any)["type"] == "RUN_FINISHED"
		}
	}
	for {
		fr := next(t, evs)
		if fr.name == "threads" && fr.id != "" && fr.data["threadId"] == sent.ThreadID {
			break
		}
	}
	var page ThreadPage
	if e := f.call(&page, "ListThreads", "", 10); e != nil || len(page.Threads) != 1 || page.Threads[0].Title != "Greeting Title" {
		t.Fatalf("after the threads event: %+v %v", page, e)
	}
}

type recordingEmitter struct {
	mu     sync.Mutex
	events []string
}

func (r *recordingEmitter) Emit(name string, data any) {
	if frames, ok := data.([]events.BatchFrame); ok && name == "batch" {
		for _, f := range frames {
			r.Emit(f.Name, f.Data)
		}
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch d := data.(type) {
	case events.AGUIEvent:
		name += ":" + string(d.Event.EventType())
	case ThreadsEvent:
		name += ":" + d.ThreadID
	}
	r.events = append(r.events, name)
}

func (r *recordingEmitter) snapshot() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

// The desktop window gets the broker's events as named frontend events,
// in order, with the sidebar's "threads" after a run starts and ends.
func TestDesktopEmitterGetsTheRunsEvents(t *testing.T) {
	f := newFixture(t, nil)
	rec := &recordingEmitter{}
	f.svc.SetEmitter(rec)
	f.script(fakellm.Reply(fakellm.Text("Hi.")))
	sent := f.sendIdle("", "hello")
	want := []string{"threads:" + sent.ThreadID, "agui:RUN_STARTED", "threads:" + sent.ThreadID, "agui:RUN_FINISHED", "threads:" + sent.ThreadID}
	waitFor(t, func() bool {
		got := rec.snapshot()
		k := 0
		for _, ev := range got {
			if k < len(want) && ev == want[k] {
				k++
			}
		}
		return k == len(want)
	})
	got := rec.snapshot()
	if i := slices.Index(got, "agui:RUN_FINISHED"); i < 0 || i+1 >= len(got) || got[i+1] != "threads:"+sent.ThreadID {
		t.Fatalf("events %v: RUN_FINISHED is not followed by threads", got)
	}
	if !slices.Contains(got, "agui:TEXT_MESSAGE_CONTENT") {
		t.Fatalf("events %v", got)
	}
}

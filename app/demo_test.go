package app

import (
	"net"
	"strings"
	"sync"
	"testing"
)

// demoEndpoints lists the saved endpoints named "Offline demo".
func (f *fixture) demoEndpoints() []Endpoint {
	var out []Endpoint
	for _, e := range f.endpoints() {
		if e.Name == DemoEndpointName {
			out = append(out, e)
		}
	}
	return out
}

// demoSaysHello sends "hello" in a new chat and checks the answer is the
// demo's greeting (which lists what to try), streamed through the app.
func (f *fixture) demoSaysHello() {
	f.t.Helper()
	th := f.newThread("")
	f.sendAndWait(th.ID, "hello")
	var v ThreadView
	if e := f.call(&v, "GetThread", th.ID); e != nil {
		f.t.Fatal(e)
	}
	last := v.Messages[len(v.Messages)-1]
	if last.Role != "assistant" || !strings.Contains(last.Content, "offline demo model") || !strings.Contains(last.Content, "write me a long essay") {
		f.t.Fatalf("the answer to hello is %s %q", last.Role, last.Content)
	}
}

// Two clicks at once make one endpoint and one listener; the demo answers
// a real streamed chat; it comes back after a restart at the same address,
// and on a new port (the endpoint's URL following) when that one is taken.
func TestStartDemoAnswersAndSurvivesARestart(t *testing.T) {
	f := newFixture(t, map[string]string{}) // nothing configured
	var st Status
	if f.call(&st, "Status"); st.Configured {
		t.Fatalf("configured before the demo: %+v", st)
	}
	var wg sync.WaitGroup
	got := make([]Endpoint, 2)
	errs := make([]*Error, 2)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = f.call(&got[i], "StartDemo")
		}()
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil {
			t.Fatalf("StartDemo: %+v", errs[i])
		}
	}
	a := f.svc.App()
	srv := a.demo.Running()
	eps := f.demoEndpoints()
	if len(eps) != 1 || got[0].ID != eps[0].ID || got[1].ID != eps[0].ID || eps[0].BaseURL != srv.URL || !eps[0].IsDefault || eps[0].APIKey != "" {
		t.Fatalf("two clicks: %+v and %+v, saved %+v (server %s)", got[0], got[1], eps, srv.URL)
	}
	if f.call(&st, "Status"); !st.Configured || st.Endpoint != srv.URL || st.Model != DemoModel {
		t.Fatalf("status after the demo: %+v", st)
	}
	f.demoSaysHello()
	if n := len(srv.Requests()) + len(srv.Authorizations()); n != 0 {
		t.Fatalf("the demo server kept %d requests or headers", n)
	}
	var again Endpoint
	if e := f.call(&again, "StartDemo"); e != nil || again.ID != eps[0].ID || a.demo.Running() != srv {
		t.Fatalf("a third click: %+v %+v", again, e)
	}

	// A restart on the same data folder: the same address, served again.
	url := srv.URL
	f.stop()
	f.start(f.env)
	if eps := f.demoEndpoints(); len(eps) != 1 || eps[0].BaseURL != url || f.svc.App().demo.Running() == nil || f.svc.App().demo.Running().URL != url {
		t.Fatalf("after a restart: %+v, want %s", eps, url)
	}
	f.demoSaysHello()

	// Its port taken by someone else: a new port, and the endpoint follows.
	f.stop()
	ln, err := net.Listen("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/v1"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	f.start(f.env)
	eps = f.demoEndpoints()
	if len(eps) != 1 || eps[0].BaseURL == url || eps[0].BaseURL != f.svc.App().demo.Running().URL {
		t.Fatalf("port taken at restart: %+v (was %s)", eps, url)
	}
	f.demoSaysHello()
}

// A person's own endpoint that happens to be named "Offline demo" is
// never taken for the demo (nor rewritten at the start).
func TestDemoLeavesAPersonsLookAlikeEndpoint(t *testing.T) {
	f := newFixture(t, map[string]string{})
	mine := f.saveEndpoint(Endpoint{Name: DemoEndpointName, BaseURL: "http://127.0.0.1:1/v1", Models: []string{"llama"}})
	f.stop()
	f.start(f.env)
	if f.svc.App().demo.Running() != nil {
		t.Fatal("a demo server started for the person's own endpoint")
	}
	var demo Endpoint
	if e := f.call(&demo, "StartDemo"); e != nil || demo.ID == mine.ID {
		t.Fatalf("StartDemo: %+v %+v", demo, e)
	}
	if e, ok := endpointWithID(f.endpoints(), mine.ID); !ok || e.BaseURL != mine.BaseURL {
		t.Fatalf("the person's endpoint: %+v", e)
	}
}

// Deleting the demo's endpoint stops its server; the button starts both
// again.
func TestDeletingTheDemoStopsItsServer(t *testing.T) {
	f := newFixture(t, map[string]string{})
	var demo Endpoint
	if e := f.call(&demo, "StartDemo"); e != nil {
		t.Fatal(e)
	}
	if e := f.call(nil, "DeleteEndpoint", demo.ID); e != nil {
		t.Fatal(e)
	}
	if f.svc.App().demo.Running() != nil || len(f.demoEndpoints()) != 0 {
		t.Fatalf("after the delete: server %v, endpoints %+v", f.svc.App().demo.Running(), f.demoEndpoints())
	}
	if e := f.call(&demo, "StartDemo"); e != nil || len(f.demoEndpoints()) != 1 {
		t.Fatalf("StartDemo again: %+v", e)
	}
	f.demoSaysHello()
}

// A click while the demo's endpoint is being deleted ends either way with
// a server behind every saved demo endpoint, never a dead URL.
func TestStartDemoRacesItsDelete(t *testing.T) {
	f := newFixture(t, map[string]string{})
	var demo Endpoint
	if e := f.call(&demo, "StartDemo"); e != nil {
		t.Fatal(e)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); f.call(nil, "DeleteEndpoint", demo.ID) }()
	go func() { defer wg.Done(); f.call(nil, "StartDemo") }()
	wg.Wait()
	srv := f.svc.App().demo.Running()
	for _, e := range f.demoEndpoints() {
		if srv == nil || e.BaseURL != srv.URL {
			t.Fatalf("endpoint %+v has no server (%v)", e, srv)
		}
	}
}

// A click on Try the offline demo that lands after Shutdown stopped the
// demo (the window is still up while the app closes) must not start a new
// listener that nothing will ever stop.
func TestStartDemoAfterItsStopStartsNothing(t *testing.T) {
	f := newFixture(t, map[string]string{})
	a := f.svc.App()
	a.demo.Close() // what Shutdown does before closing the database
	var e Endpoint
	err := f.call(&e, "StartDemo")
	if a.demo.Running() != nil {
		url := a.demo.Running().URL
		a.demo.Running().Close()
		t.Fatalf("StartDemo after the stop serves at %s (err %v)", url, err)
	}
}

package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"sync"

	"github.com/juncture-app/juncture/agent/fakellm"
)

// The offline demo: fakellm's scripted model served in this process on a
// loopback port, behind a normal saved endpoint the person can see in the
// model picker and delete. It never gets a key; its tools act on the
// person's own workspace, behind the same approval cards.

// DemoEndpointName is the saved endpoint StartDemo creates.
const DemoEndpointName = "Offline demo"

// DemoModel is the one model the demo server lists.
const DemoModel = "offline-demo"

// demoServer is the running demo model, if any.
type demoServer struct {
	mu  sync.Mutex // serialises StartDemo and the start's restore
	srv *fakellm.Server
	// stopped: the app is shutting down; no demo starts again (a click
	// meanwhile would leave a listener nothing stops).
	stopped bool
}

// isDemoEndpoint tells the demo's endpoint from the person's own: its
// name, its one model and a loopback URL. A person's endpoint that happens
// to be named "Offline demo" (another model, another host) is never
// rewritten.
func isDemoEndpoint(e Endpoint) bool {
	if e.Name != DemoEndpointName || !slices.Equal(e.Models, []string{DemoModel}) {
		return false
	}
	_, ok := demoAddr(e.BaseURL)
	return ok
}

// demoAddr is the host:port of a loopback demo URL.
func demoAddr(base string) (string, bool) {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" {
		return "", false
	}
	ip := net.ParseIP(u.Hostname())
	if ip == nil || !ip.IsLoopback() || u.Port() == "" {
		return "", false
	}
	return u.Host, true
}

// StartDemo starts the offline demo model and makes its endpoint
// ("Offline demo") the default, creating it the first time. Calling it
// again reuses the running server and the saved endpoint.
func (a *App) StartDemo() (Endpoint, error) {
	if err := a.writable("StartDemo"); err != nil {
		return Endpoint{}, err
	}
	ctx, cancel := a.ctx()
	defer cancel()
	a.demo.mu.Lock()
	defer a.demo.mu.Unlock()
	e, ok, err := a.conf.FindSaved(ctx, isDemoEndpoint)
	if err != nil {
		return Endpoint{}, asError(err)
	}
	prefer := ""
	if ok {
		prefer, _ = demoAddr(e.BaseURL)
	} else {
		e = Endpoint{Name: DemoEndpointName, Models: []string{DemoModel}}
	}
	if err := a.serveDemoLocked(prefer); err != nil {
		return Endpoint{}, errorf(CodeUnavailable, fmt.Sprintf("Could not start the offline demo: %v", err))
	}
	e.BaseURL, e.APIKey, e.IsDefault = a.demo.srv.URL, "", true
	saved, err := a.conf.SaveEndpoint(ctx, e)
	return saved, asErrorOrNil(err)
}

// serveDemoLocked starts the demo server unless it runs: at prefer
// (host:port) when that is free, else on a port the OS picks. The caller
// holds a.demo.mu.
func (a *App) serveDemoLocked(prefer string) error {
	if a.demo.srv != nil {
		return nil
	}
	if a.demo.stopped {
		return errors.New("the app is closing")
	}
	var s *fakellm.Server
	if prefer != "" {
		// A taken port is not an error: the demo moves to a new one.
		s, _ = fakellm.New(prefer)
	}
	if s == nil {
		var err error
		if s, err = fakellm.New("127.0.0.1:0"); err != nil {
			return err
		}
	}
	s.SetForget(true) // it runs as long as the app: it keeps no chat
	s.SetModels(DemoModel)
	s.SetFallback(fakellm.Demo())
	a.demo.srv = s
	return nil
}

// restoreDemo starts the demo server again at the app's start when its
// endpoint is saved: at the saved address if free, else on a new port,
// and the endpoint's URL follows.
func (a *App) restoreDemo(ctx context.Context) {
	a.demo.mu.Lock()
	defer a.demo.mu.Unlock()
	e, ok, err := a.conf.FindSaved(ctx, isDemoEndpoint)
	if err != nil || !ok {
		return
	}
	addr, _ := demoAddr(e.BaseURL)
	if err := a.serveDemoLocked(addr); err != nil {
		a.log.Warn("the offline demo could not start", "err", err)
		return
	}
	if a.demo.srv.URL == e.BaseURL {
		return
	}
	e.BaseURL, e.APIKey = a.demo.srv.URL, ""
	if _, err := a.conf.SaveEndpoint(ctx, e); err != nil {
		a.log.Warn("the offline demo's new address could not be saved", "err", err)
	}
	a.log.Info("the offline demo moved", "from", addr, "to", a.demo.srv.URL)
}

// stopDemo stops the demo server (at shutdown, after the turns ended).
func (a *App) stopDemo() {
	a.demo.mu.Lock()
	defer a.demo.mu.Unlock()
	a.demo.stopped = true
	a.stopDemoLocked()
}

// stopDemoLocked is stopDemo for a caller that holds a.demo.mu.
func (a *App) stopDemoLocked() {
	if a.demo.srv != nil {
		a.demo.srv.Close()
		a.demo.srv = nil
	}
}

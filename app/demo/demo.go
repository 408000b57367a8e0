// Package demo is the offline demo: fakellm's scripted model served in
// this process on a loopback port, behind a normal saved endpoint the
// person can see in the model picker and delete. It never gets a key; its
// tools act on the person's own workspace, behind the same approval
// cards. The facade's StartDemo forwards to Server.Start.
package demo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"slices"
	"sync"

	"github.com/juncture-app/juncture/agent/fakellm"
	"github.com/juncture-app/juncture/app/config"
)

// EndpointName is the saved endpoint Start creates.
const EndpointName = "Offline demo"

// Model is the one model the demo server lists.
const Model = "offline-demo"

// Catalog is where the demo's endpoint is saved (config.Catalog).
type Catalog interface {
	FindSaved(ctx context.Context, match func(config.Endpoint) bool) (config.Endpoint, bool, error)
	SaveEndpoint(ctx context.Context, e config.Endpoint) (config.Endpoint, error)
	DeleteEndpoint(ctx context.Context, id string) error
}

// StartError is a demo server that could not start (its port, or the app
// closing); the endpoint was not saved.
type StartError struct{ Err error }

func (e *StartError) Error() string {
	return fmt.Sprintf("could not start the offline demo: %v", e.Err)
}
func (e *StartError) Unwrap() error { return e.Err }

// Server is the running demo model, if any. The zero value has none.
type Server struct {
	mu  sync.Mutex // serialises Start, Restore, Delete and Close
	srv *fakellm.Server
	// stopped: the app is shutting down; no demo starts again (a click
	// meanwhile would leave a listener nothing stops).
	stopped bool
}

// IsEndpoint tells the demo's endpoint from the person's own: its name,
// its one model and a loopback URL. A person's endpoint that happens to
// be named "Offline demo" (another model, another host) is never
// rewritten.
func IsEndpoint(e config.Endpoint) bool {
	if e.Name != EndpointName || !slices.Equal(e.Models, []string{Model}) {
		return false
	}
	_, ok := addr(e.BaseURL)
	return ok
}

// addr is the host:port of a loopback demo URL.
func addr(base string) (string, bool) {
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

// Start starts the demo model and makes its endpoint ("Offline demo") the
// default, creating it the first time. Calling it again reuses the
// running server and the saved endpoint.
func (s *Server) Start(ctx context.Context, cat Catalog) (config.Endpoint, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok, err := cat.FindSaved(ctx, IsEndpoint)
	if err != nil {
		return config.Endpoint{}, err
	}
	prefer := ""
	if ok {
		prefer, _ = addr(e.BaseURL)
	} else {
		e = config.Endpoint{Name: EndpointName, Models: []string{Model}}
	}
	if err := s.serveLocked(prefer); err != nil {
		return config.Endpoint{}, &StartError{Err: err}
	}
	e.BaseURL, e.APIKey, e.IsDefault = s.srv.URL, "", true
	return cat.SaveEndpoint(ctx, e)
}

// serveLocked starts the demo server unless it runs: at prefer
// (host:port) when that is free, else on a port the OS picks. The caller
// holds s.mu.
func (s *Server) serveLocked(prefer string) error {
	if s.srv != nil {
		return nil
	}
	if s.stopped {
		return errors.New("the app is closing")
	}
	var srv *fakellm.Server
	if prefer != "" {
		// A taken port is not an error: the demo moves to a new one.
		srv, _ = fakellm.New(prefer)
	}
	if srv == nil {
		var err error
		if srv, err = fakellm.New("127.0.0.1:0"); err != nil {
			return err
		}
	}
	srv.SetForget(true) // it runs as long as the app: it keeps no chat
	srv.SetModels(Model)
	srv.SetFallback(fakellm.Demo())
	s.srv = srv
	return nil
}

// Restore starts the demo server again at the app's start when its
// endpoint is saved: at the saved address if free, else on a new port,
// and the endpoint's URL follows.
func (s *Server) Restore(ctx context.Context, cat Catalog, log *slog.Logger) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok, err := cat.FindSaved(ctx, IsEndpoint)
	if err != nil || !ok {
		return
	}
	at, _ := addr(e.BaseURL)
	if err := s.serveLocked(at); err != nil {
		log.Warn("the offline demo could not start", "err", err)
		return
	}
	if s.srv.URL == e.BaseURL {
		return
	}
	e.BaseURL, e.APIKey = s.srv.URL, ""
	if _, err := cat.SaveEndpoint(ctx, e); err != nil {
		log.Warn("the offline demo's new address could not be saved", "err", err)
	}
	log.Info("the offline demo moved", "from", at, "to", s.srv.URL)
}

// Delete deletes the saved endpoint e (id) from cat; deleting the demo's
// stops its server (nothing listens for a demo nobody can pick). The lock
// is held across the delete: a Start meanwhile would save a new endpoint
// on the server this is about to stop.
func (s *Server) Delete(ctx context.Context, cat Catalog, e config.Endpoint, id string) error {
	demo := IsEndpoint(e) && e.Source == config.EndpointSaved
	if demo {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	if err := cat.DeleteEndpoint(ctx, id); err != nil {
		return err
	}
	if demo {
		s.stopLocked()
	}
	return nil
}

// Close stops the demo server for good (at shutdown, after the turns
// ended): no Start serves again.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	s.stopLocked()
}

// stopLocked stops the server; the caller holds s.mu.
func (s *Server) stopLocked() {
	if s.srv != nil {
		s.srv.Close()
		s.srv = nil
	}
}

// Running is the running demo server, nil when none runs.
func (s *Server) Running() *fakellm.Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.srv
}

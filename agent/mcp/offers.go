package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// What a server offers beyond tools: prompts, resources and resource
// templates. They are listed when the window first asks (most servers are
// never asked), kept per session, and forgotten when the server says its
// list changed (prompts/list_changed, resources/list_changed) or the
// session ends; the window hears of a change through OnChange and asks
// again. Every list is bounded: a server that pages forever or lists a
// million items costs at most maxListItems entries and maxListPages
// requests.

const (
	// maxListItems caps one list (prompts, resources or templates) of one
	// server; Truncated says when more were left out.
	maxListItems = 1000
	// maxListPages caps the requests one listing makes (a cursor that never
	// ends).
	maxListPages = 50
	// offerTimeout bounds one request the window waits on (a list, a
	// prompt, a completion, a read); the window never waits longer for a
	// server that does not answer.
	offerTimeout = 15 * time.Second
	// maxFieldText caps a name, title or description shown in a menu.
	maxFieldText = 2 << 10
)

// ErrNotOffered is returned when a server does not offer what is asked
// (no prompts, no resources, no completions, no logging).
var ErrNotOffered = errors.New("mcp: the server does not offer this")

// ErrNotReady is returned for a server that is configured but not ready.
var ErrNotReady = errors.New("mcp: the server is not ready")

// offerCache is one supervisor's lists, valid for one session.
type offerCache struct {
	mu        sync.Mutex
	sess      *session
	prompts   *promptList
	resources *resourceList
}

type promptList struct {
	items     []PromptInfo
	truncated bool
}

type resourceList struct {
	resources []ResourceInfo
	templates []TemplateInfo
	truncated bool
}

// forget drops the lists (the server said they changed).
func (c *offerCache) forget(prompts, resources bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if prompts {
		c.prompts = nil
	}
	if resources {
		c.resources = nil
	}
}

// forSession returns the cache emptied when it belonged to another
// session; call with c.mu held.
func (c *offerCache) forSessionLocked(sess *session) {
	if c.sess != sess {
		c.sess, c.prompts, c.resources = sess, nil, nil
	}
}

// listChanged is the handler of prompts/list_changed and
// resources/list_changed: the lists are read again when next asked, and
// the window is told.
func (s *supervisor) listChanged(prompts, resources bool) {
	s.offers.forget(prompts, resources)
	s.m.notify()
}

// readySession returns the ready session of a server, or why there is
// none.
func (m *Manager) readySession(server string) (*supervisor, *session, error) {
	s := m.lookup(server)
	if s == nil {
		return nil, nil, ErrUnknownServer
	}
	sess, st := s.ready()
	if sess == nil {
		return nil, nil, fmt.Errorf("%w (%s)", ErrNotReady, describeStatus(st))
	}
	return s, sess, nil
}

// capabilities are what the server said it offers at initialize.
func (sess *session) capabilities() *sdk.ServerCapabilities {
	if r := sess.cs.InitializeResult(); r != nil && r.Capabilities != nil {
		return r.Capabilities
	}
	return &sdk.ServerCapabilities{}
}

// requestError describes a failed request to a server for the window: the
// server's own message when it refused, else what went wrong, never the
// URL or headers (connectError's rule).
func requestError(what, server string, err error) error {
	var rpc interface{ Error() string }
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s: %s did not answer within %s", what, server, roundDelay(offerTimeout))
	case errors.As(err, &rpc):
		return fmt.Errorf("%s: %s", what, shorten(err.Error(), 300))
	}
	return fmt.Errorf("%s: %w", what, err)
}

// readyServers are the supervisors with a ready session, by name.
func (m *Manager) readyServers() []*supervisor {
	var out []*supervisor
	for _, s := range m.sorted() {
		if sess, _ := s.ready(); sess != nil {
			out = append(out, s)
		}
	}
	return out
}

// eachReady runs f for every ready server at once and waits: one slow
// server does not hold up the others' lists beyond offerTimeout.
func (m *Manager) eachReady(f func(s *supervisor)) {
	var wg sync.WaitGroup
	for _, s := range m.readyServers() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(s)
		}()
	}
	wg.Wait()
}

// clip cuts a menu field.
func clip(s string) string { return shorten(s, maxFieldText) }

package mcp

import (
	"context"
	"fmt"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A supervisor runs one configured server: one goroutine (run) owns its
// process and session from start to stop, restarts it after a crash, and
// publishes what others may read (status, tools, the ready session) in
// st under mu. Nothing else starts, stops or replaces a session; other
// goroutines ask through the signal channels.
type supervisor struct {
	m      *Manager
	name   string
	cfg    ServerConfig
	log    *logTail
	client *sdk.Client // nil for a disabled server
	calls  *callRegistry
	offers offerCache // prompts and resources, listed when asked (offers.go)

	ctx    context.Context
	cancel context.CancelFunc
	// prev is closed once the previous supervisor of this name has
	// stopped: a restarted server must not run beside its old process
	// (both could want the same port or lock file).
	prev <-chan struct{}
	done chan struct{} // closed when run returns (at once when disabled)

	// Requests to run, each coalesced (capacity 1).
	restartCh chan struct{}
	relistCh  chan struct{}
	rootsCh   chan struct{}
	checkCh   chan struct{} // a call's transport failed: is the session still there?

	// roots is the set of root URIs the client reports; owned by run.
	roots []string

	mu sync.Mutex
	st state
}

// state is a server as others see it.
type state struct {
	status    string
	err       string
	title     string
	restarts  int
	nextRetry time.Time
	policy    Policy
	sess      *session    // the ready session; nil unless status is ready
	tools     []toolEntry // while ready
}

func newSupervisor(m *Manager, name string, cfg ServerConfig, log *logTail, restarts int, prev <-chan struct{}) *supervisor {
	ctx, cancel := context.WithCancel(context.Background())
	s := &supervisor{
		m: m, name: name, cfg: cfg, log: log, calls: newCallRegistry(),
		ctx: ctx, cancel: cancel, prev: prev, done: make(chan struct{}),
		restartCh: make(chan struct{}, 1), relistCh: make(chan struct{}, 1), rootsCh: make(chan struct{}, 1), checkCh: make(chan struct{}, 1),
		st: state{status: StatusStarting, restarts: restarts, policy: cfg.Approval},
	}
	if cfg.Disabled {
		s.st.status = StatusDisabled
		close(s.done)
		return s
	}
	s.client = s.newClient()
	return s
}

// stopped is closed once this server's process has ended: for a disabled
// one, which never ran, once the supervisor it replaced has.
func (s *supervisor) stopped() <-chan struct{} {
	if s.cfg.Disabled && s.prev != nil {
		return s.prev
	}
	return s.done
}

// signal asks run to do something; it never blocks.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// run is the supervisor's goroutine: start, serve, and after a failure
// wait (backoff) and start again, until ctx ends.
func (s *supervisor) run() {
	defer s.m.wg.Done()
	defer close(s.done)
	if s.prev != nil {
		select {
		case <-s.prev:
		case <-s.ctx.Done():
			return
		}
	}
	failures := 0
	for attempt := 0; ; attempt++ {
		s.update(func(st *state) {
			if attempt > 0 {
				st.restarts++
			}
			st.status, st.err, st.nextRetry = StatusStarting, "", time.Time{}
		})
		drain(s.restartCh)
		drain(s.checkCh)
		s.syncRoots()
		sess, entries, err := s.start()
		if s.ctx.Err() != nil {
			if sess != nil {
				// Started just as the manager closed: end it, or Close
				// waits for it forever.
				s.stopSession(sess, "it was stopped")
			}
			return
		}
		if err != nil && s.m.auth.blocked(s.name) {
			// Waiting for the person to sign in: no retry on a timer,
			// the sign-in (or Restart) starts it again.
			msg := s.m.auth.waitingText(s.name)
			s.log.Note(notePrefix + msg)
			s.update(func(st *state) { st.status, st.err, st.nextRetry = StatusError, msg, time.Time{} })
			if !s.sleep(24 * time.Hour) {
				return
			}
			continue
		}
		if err != nil {
			failures++
			delay := s.backoff(failures)
			s.log.Note(notePrefix + "start failed: " + err.Error())
			s.setError(err.Error(), delay)
			if !s.sleep(delay) {
				return
			}
			continue
		}
		readyAt := s.m.now()
		s.update(func(st *state) {
			st.status, st.sess, st.tools = StatusReady, sess, entries
			st.title = sess.title
		})
		restart := s.serve(sess)
		s.update(func(st *state) { st.sess, st.tools = nil, nil })
		var why string
		if !restart && s.ctx.Err() == nil {
			why = sess.endReason(reapGrace)
		}
		s.stopSession(sess, stopNoteFor(restart, s.ctx.Err() != nil))
		if s.ctx.Err() != nil {
			return
		}
		if restart {
			failures = 0
			continue
		}
		if s.m.now().Sub(readyAt) >= readyResetsBackoff {
			failures = 0
		}
		failures++
		delay := s.backoff(failures)
		s.log.Note(notePrefix + "stopped unexpectedly (" + why + ")")
		s.setError(fmt.Sprintf("stopped unexpectedly (%s); restarting in %s", why, roundDelay(delay)), delay)
		if !s.sleep(delay) {
			return
		}
	}
}

// readyResetsBackoff: a server that ran this long before crashing is
// restarted after the shortest delay again.
const readyResetsBackoff = 60 * time.Second

// relistGap is the least time between two listings a server asks for
// (tools/list_changed): a server that asks without pause is listed once
// per gap, with the latest tools.
const relistGap = time.Second

func stopNoteFor(restart, stopping bool) string {
	switch {
	case restart:
		return "it was restarted"
	case stopping:
		return "it was stopped"
	}
	return ""
}

// serve waits while sess is ready, re-listing tools and updating roots
// on request. It reports whether a restart was asked for; otherwise the
// session ended or the supervisor is stopping.
func (s *supervisor) serve(sess *session) (restart bool) {
	var last time.Time         // the last listing's start
	var paced <-chan time.Time // a listing asked for within relistGap of the last
	for {
		select {
		case <-s.ctx.Done():
			return false
		case <-s.restartCh:
			return true
		case <-sess.dead:
			return false
		case <-sess.procDone():
			return false
		case <-s.relistCh:
			if wait := relistGap - time.Since(last); wait > 0 {
				if paced == nil {
					paced = time.After(wait)
				}
				continue
			}
			last = time.Now()
			s.relist(sess)
		case <-paced:
			paced = nil
			last = time.Now()
			s.relist(sess)
		case <-s.rootsCh:
			s.syncRoots()
		case <-s.checkCh:
			if s.sessionBroken(sess) {
				return false
			}
		}
	}
}

// sleep waits out a backoff delay. A restart request cuts it short; it
// returns false when the supervisor is stopping.
func (s *supervisor) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return false
		case <-s.restartCh:
			return true
		case <-t.C:
			return true
		case <-s.rootsCh:
			s.syncRoots()
		}
	}
}

func drain(ch chan struct{}) {
	select {
	case <-ch:
	default:
	}
}

// backoff is the delay before the failures-th consecutive restart:
// BackoffBase doubling up to BackoffMax.
func (s *supervisor) backoff(failures int) time.Duration {
	d := s.m.o.BackoffBase
	for i := 1; i < failures && d < s.m.o.BackoffMax; i++ {
		d *= 2
	}
	return min(d, s.m.o.BackoffMax)
}

// roundDelay shows a delay as a person reads it: "2s", "250ms".
func roundDelay(d time.Duration) string {
	if d >= time.Second {
		return d.Round(time.Second).String()
	}
	return d.Round(time.Millisecond).String()
}

func (s *supervisor) setError(msg string, retryIn time.Duration) {
	next := s.m.now().Add(retryIn)
	s.update(func(st *state) { st.status, st.err, st.nextRetry = StatusError, msg, next })
}

// update changes the published state and tells the Manager's listener.
func (s *supervisor) update(f func(*state)) {
	s.mu.Lock()
	f(&s.st)
	s.mu.Unlock()
	s.m.notify()
}

// snapshot returns a copy of the published state.
func (s *supervisor) snapshot() state {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.st
	st.tools = append([]toolEntry(nil), s.st.tools...)
	return st
}

// ready returns the ready session, or nil and what the server is doing
// instead (a copy of the state without its tools: it is on every call's
// path).
func (s *supervisor) ready() (*session, state) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.st
	st.tools = nil
	return s.st.sess, st
}

func (s *supervisor) title() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st.title != "" {
		return s.st.title
	}
	return s.name
}

// start connects, initializes and lists the tools within StartTimeout.
// The session's context outlives the start (the legacy SSE transport
// reads its stream with it), so the timeout cancels it from a timer
// rather than bounding it.
func (s *supervisor) start() (*session, []toolEntry, error) {
	sctx, cancel := context.WithCancel(s.ctx)
	timer := time.AfterFunc(s.m.o.StartTimeout, cancel)
	sess, err := s.connect(sctx, cancel)
	var entries []toolEntry
	if err == nil {
		entries, err = s.listTools(sctx, sess)
	}
	if err == nil {
		s.applyLogLevel(sctx, sess)
	}
	if !timer.Stop() {
		err = fmt.Errorf("did not start within %s", roundDelay(s.m.o.StartTimeout))
	}
	if err != nil {
		if sess != nil {
			s.stopSession(sess, "")
		} else {
			cancel()
		}
		return nil, nil, err
	}
	return sess, entries, nil
}

// relist fetches the tool list again (the server said it changed).
func (s *supervisor) relist(sess *session) {
	ctx, cancel := context.WithTimeout(s.ctx, s.m.o.StartTimeout)
	defer cancel()
	entries, err := s.listTools(ctx, sess)
	if err != nil {
		s.log.Note(notePrefix + "could not list the tools again: " + err.Error())
		return
	}
	s.update(func(st *state) {
		if st.sess == sess {
			st.tools = entries
		}
	})
}

// listTools lists every page of the server's tools and prepares them.
func (s *supervisor) listTools(ctx context.Context, sess *session) ([]toolEntry, error) {
	var list []*sdk.Tool
	for t, err := range sess.cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("listing the tools: %w", err)
		}
		list = append(list, t)
		if len(list) > maxListed {
			break
		}
	}
	list, notes := vetListing(list)
	for _, n := range notes {
		s.log.Note(notePrefix + n)
	}
	if len(notes) > 0 {
		s.m.log.Warn("An MCP server's tool listing has tools that are not offered", "server", s.name, "count", len(notes))
	}
	verdicts := applyPins(ctx, s.m.pins, s.name, list, s.m.now(), s.m.log)
	entries := make([]toolEntry, 0, len(list))
	for _, t := range list {
		e := newToolEntry(s.name, t, verdicts[t.Name])
		if e.schemaErr != "" {
			s.m.log.Warn("An MCP tool's input schema does not compile; the tool is not offered", "server", s.name, "tool", t.Name, "err", e.schemaErr)
			s.log.Note(notePrefix + fmt.Sprintf("tool %q is not offered: %s", t.Name, e.schemaErr))
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// syncRoots brings the client's roots in line with the workspace. The SDK
// tells connected servers (notifications/roots/list_changed).
func (s *supervisor) syncRoots() {
	want := s.m.rootURIs()
	have := make(map[string]bool, len(s.roots))
	for _, u := range s.roots {
		have[u] = true
	}
	keep := make(map[string]bool, len(want))
	var add []*sdk.Root
	for _, r := range want {
		keep[r.URI] = true
		if !have[r.URI] {
			add = append(add, r)
		}
	}
	var remove []string
	for _, u := range s.roots {
		if !keep[u] {
			remove = append(remove, u)
		}
	}
	if len(remove) > 0 {
		s.client.RemoveRoots(remove...)
	}
	if len(add) > 0 {
		s.client.AddRoots(add...)
	}
	s.roots = s.roots[:0]
	for _, r := range want {
		s.roots = append(s.roots, r.URI)
	}
}

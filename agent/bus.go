package agent

import (
	"context"
	"sync"

	"github.com/juncture-app/juncture/agent/agui"
)

// Envelope names.
const (
	EnvelopeAGUI  = "agui"  // Event is set
	EnvelopeQueue = "queue" // Queued is set
)

// Envelope is one thing a subscriber receives.
type Envelope struct {
	Name     string
	ThreadID string
	Event    agui.Event
	Queued   []string
}

// Subscription receives the envelopes of one thread, or of every thread.
// Its queue is unbounded: a slow subscriber never slows the runtime and never
// misses an event (memory grows instead, which the subscriber controls by
// reading).
type Subscription struct {
	bus      *bus
	threadID string // "" = all threads

	mu     sync.Mutex
	q      []Envelope
	wake   chan struct{}
	closed bool
}

// Next blocks for the next envelope. It returns ctx's error, or ErrClosed
// once the subscription (or the runtime) is closed and drained.
func (s *Subscription) Next(ctx context.Context) (Envelope, error) {
	for {
		s.mu.Lock()
		if len(s.q) > 0 {
			e := s.q[0]
			s.q[0] = Envelope{}
			s.q = s.q[1:]
			s.mu.Unlock()
			return e, nil
		}
		if s.closed {
			s.mu.Unlock()
			return Envelope{}, ErrClosed
		}
		wake := s.wake
		s.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return Envelope{}, ctx.Err()
		}
	}
}

// Close ends the subscription; Next then returns ErrClosed.
func (s *Subscription) Close() {
	s.bus.remove(s)
	s.close()
}

func (s *Subscription) close() {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.wake)
	}
	s.mu.Unlock()
}

func (s *Subscription) push(e Envelope) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.q = append(s.q, e)
	select {
	case s.wake <- struct{}{}:
	default:
	}
	s.mu.Unlock()
}

type bus struct {
	mu   sync.RWMutex
	subs map[*Subscription]struct{}
}

func newBus() *bus { return &bus{subs: make(map[*Subscription]struct{})} }

func (b *bus) subscribe(threadID string) *Subscription {
	s := &Subscription{bus: b, threadID: threadID, wake: make(chan struct{}, 1)}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	return s
}

func (b *bus) remove(s *Subscription) {
	b.mu.Lock()
	delete(b.subs, s)
	b.mu.Unlock()
}

func (b *bus) publish(e Envelope) {
	b.mu.RLock()
	for s := range b.subs {
		if s.threadID == "" || s.threadID == e.ThreadID {
			s.push(e)
		}
	}
	b.mu.RUnlock()
}

func (b *bus) closeAll() {
	b.mu.Lock()
	subs := b.subs
	b.subs = make(map[*Subscription]struct{})
	b.mu.Unlock()
	for s := range subs {
		s.close()
	}
}

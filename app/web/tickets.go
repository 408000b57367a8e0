package web

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"time"
)

// Stream tickets: how a page opens the event stream without putting the
// bearer token in a URL. EventSource cannot send headers, and a URL ends
// up in logs, history, proxies and Referer; the long-lived token must not.
// So the page first asks POST /api/events/ticket (with the token in its
// Authorization header) and opens /api/events?ticket=… with the answer.
//
// A ticket is 128 random bits, good for one stream, for ticketTTL. Once
// used (or expired) it is worth nothing, so one that leaks through a log
// opens nothing. Reconnecting takes a fresh ticket: the page closes its
// EventSource on error and reconnects itself (the browser's own retry
// would send the spent ticket again).
const (
	// ticketTTL is how long a ticket waits to be used: the page opens the
	// stream right after it has one.
	ticketTTL = 30 * time.Second
	// maxTickets bounds the tickets waiting to be used, so a token holder
	// that asks for tickets and never uses them cannot grow memory: past
	// it, asking is refused (429) until some expire or are used.
	maxTickets = 64
)

// streamTickets are the tickets issued and not yet used.
type streamTickets struct {
	mu sync.Mutex
	// waiting is each ticket's expiry, keyed by the ticket's SHA-256:
	// a lookup's timing then says nothing about the ticket itself.
	waiting map[[sha256.Size]byte]time.Time
	now     func() time.Time
}

func newStreamTickets() *streamTickets {
	return &streamTickets{waiting: map[[sha256.Size]byte]time.Time{}, now: time.Now}
}

// issue returns a new ticket, or false when maxTickets are waiting (after
// the expired ones are swept).
func (t *streamTickets) issue() (string, bool) {
	var b [16]byte
	_, _ = rand.Read(b[:])
	ticket := hex.EncodeToString(b[:])
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if len(t.waiting) >= maxTickets {
		t.sweep(now)
	}
	if len(t.waiting) >= maxTickets {
		return "", false
	}
	t.waiting[sha256.Sum256([]byte(ticket))] = now.Add(ticketTTL)
	return ticket, true
}

// use spends ticket: true once, if it was issued and has not expired.
func (t *streamTickets) use(ticket string) bool {
	if ticket == "" {
		return false
	}
	key := sha256.Sum256([]byte(ticket))
	t.mu.Lock()
	defer t.mu.Unlock()
	expires, ok := t.waiting[key]
	if !ok {
		return false
	}
	delete(t.waiting, key)
	return t.now().Before(expires)
}

// outstanding is how many tickets wait to be used (expired ones included
// until swept).
func (t *streamTickets) outstanding() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.waiting)
}

// sweep drops the expired tickets; t.mu is held.
func (t *streamTickets) sweep(now time.Time) {
	for key, expires := range t.waiting {
		if !now.Before(expires) {
			delete(t.waiting, key)
		}
	}
}

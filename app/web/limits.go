package web

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/store"
	"github.com/juncture-app/juncture/store/importers"
)

// Browser mode's budgets (docs/contract.md "Limits"; issue 19 #23, #24).
//
// A call's body carries its arguments as JSON. A file sent as a string
// argument grows on the way: a JSON text (conversations.json, a thread
// export) sent as a JSON string gains a backslash before each '"', '\'
// and line break, at most doubling it (a valid JSON text has no other
// control characters); files sent as base64 (attachments) grow by 4/3
// and need no escaping. Each budget is the documented limit so encoded,
// plus room for the rest of the call.
const (
	// callBodyImportConversations: a 64 MiB conversations.json, escaped.
	callBodyImportConversations = 2*importers.MaxBytes + 1<<20 // 129 MiB
	// callBodyImportThread: a 128 MiB thread export, escaped.
	callBodyImportThread = 2*store.MaxImportBytes + 1<<20 // 257 MiB
	// callBodySendInput: 50 MiB of files in base64, and the text.
	callBodySendInput = attach.MaxMessageBytes*4/3 + 4<<20 // ≈ 70.7 MiB
	// callBodyInspectPDF: one file of 20 MiB in base64 (the composer
	// asks about a PDF before sending it).
	callBodyInspectPDF = attach.MaxFileBytes*4/3 + 1<<20 // ≈ 27.7 MiB
	// CallBodyDefault: every other call (settings, an MCP configuration,
	// an edited message).
	CallBodyDefault = 8 << 20
	// AGUIBody: a RunAgentInput, which may carry a message's files.
	AGUIBody = callBodySendInput
)

// callBodyLimit is the most a call of method may send.
func callBodyLimit(method string) int64 {
	switch method {
	case "ImportConversations":
		return callBodyImportConversations
	case "ImportThread":
		return callBodyImportThread
	case "SendInput":
		return callBodySendInput
	case "InspectPDF":
		return callBodyInspectPDF
	}
	return CallBodyDefault
}

// HTTPLimits are the connection budgets of browser mode's server.
type HTTPLimits struct {
	// ReadHeader bounds how long a request's headers take to arrive.
	ReadHeader time.Duration
	// Idle closes a kept-alive connection with no request for this long.
	Idle time.Duration
	// Body bounds how long a call's body takes to arrive, and its answer
	// to be written. The event stream has no such bound (it lasts as
	// long as the page); each of its writes must finish within Body.
	Body time.Duration
	// MaxConns is how many connections are served at once; more wait to
	// be accepted.
	MaxConns int
}

// DefaultHTTPLimits: a page keeps about six connections and an event
// stream; an import of 129 MiB takes seconds on loopback.
var DefaultHTTPLimits = HTTPLimits{
	ReadHeader: 10 * time.Second,
	Idle:       90 * time.Second,
	Body:       2 * time.Minute,
	MaxConns:   128,
}

// HTTPServer returns the http.Server for s with limits (the zero value
// of a field takes DefaultHTTPLimits'). Serve it on a listener wrapped by
// LimitListener(ln, limits.MaxConns). There is no server-wide
// ReadTimeout or WriteTimeout: they would end the long-lived event
// stream; each handler sets its own deadlines instead.
func (s *Server) HTTPServer(limits HTTPLimits) *http.Server {
	s.limits = limits.orDefault()
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: s.limits.ReadHeader,
		IdleTimeout:       s.limits.Idle,
		MaxHeaderBytes:    64 << 10,
	}
}

func (l HTTPLimits) orDefault() HTTPLimits {
	d := DefaultHTTPLimits
	if l.ReadHeader > 0 {
		d.ReadHeader = l.ReadHeader
	}
	if l.Idle > 0 {
		d.Idle = l.Idle
	}
	if l.Body > 0 {
		d.Body = l.Body
	}
	if l.MaxConns > 0 {
		d.MaxConns = l.MaxConns
	}
	return d
}

// readDeadline bounds reading the request's body (a peer that stops
// sending is dropped). The answer's write deadline is set when it is
// written (extendWrite): a call may run longer than its body took.
func (s *Server) readDeadline(w http.ResponseWriter) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.limits.Body))
}

// extendWrite gives the next write its own deadline (a peer that stops
// reading is dropped). A server without deadlines (httptest's
// ResponseRecorder) ignores it.
func (s *Server) extendWrite(w http.ResponseWriter) {
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.limits.Body))
}

// tooLarge answers 413 when err is a body over its limit, saying the
// limit in words.
func tooLarge(w http.ResponseWriter, err error, what string) bool {
	var mbe *http.MaxBytesError
	if !errors.As(err, &mbe) {
		return false
	}
	writeError(w, errorf("too-large", fmt.Sprintf("%s is larger than the %s it may be; nothing was done.", what, mib(mbe.Limit))), http.StatusRequestEntityTooLarge)
	return true
}

// timedOut answers 408 when err is a body that did not arrive in time.
func timedOut(w http.ResponseWriter, err error, limit time.Duration) bool {
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		return false
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(limit))
	writeError(w, errorf("timeout", fmt.Sprintf("The call's body did not arrive within %v; nothing was done.", limit)), http.StatusRequestTimeout)
	return true
}

func mib(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// LimitListener accepts at most n connections at once; the next waits
// until one closes (in the kernel's backlog, costing nothing here).
func LimitListener(ln net.Listener, n int) *Limited {
	return &Limited{Listener: ln, slots: make(chan struct{}, n), done: make(chan struct{})}
}

// Limited is a listener with a bound on open connections.
type Limited struct {
	net.Listener
	slots     chan struct{}
	done      chan struct{}
	closeOnce sync.Once
	open      atomic.Int64
}

// Accept waits for a free slot, then for a connection.
func (l *Limited) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	l.open.Add(1)
	return &limitedConn{Conn: c, release: func() { l.open.Add(-1); <-l.slots }}, nil
}

// Open is how many accepted connections are open.
func (l *Limited) Open() int { return int(l.open.Load()) }

// Close stops accepting (a waiting Accept returns at once).
func (l *Limited) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

package fakellm

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// maxBody bounds a request body; larger requests get HTTP 413.
const maxBody = 64 << 20

// Server is a running fake OpenAI-compatible server.
type Server struct {
	// URL is the base URL of the API, ending in "/v1" (no trailing slash),
	// e.g. "http://127.0.0.1:41234/v1".
	URL string

	srv *http.Server
	lim *limitListener
	// reading holds a token while a request body is read (maxReading at once).
	reading chan struct{}
	done    chan struct{} // closed by Close: ends stalls and delays
	served  chan struct{} // closed when Serve has returned

	mu       sync.Mutex
	closed   bool
	active   int        // handlers running
	idle     *sync.Cond // signalled when active drops to 0
	queue    []Response
	fallback func(Request) Response
	reqs     []Request
	auths    []string      // the Authorization header of every request, any path
	seen     int           // chat completions requests received
	forget   bool          // keep no requests (SetForget)
	arrived  chan struct{} // closed and replaced on every new request
	models   []string
	logger   *log.Logger
}

// TB is the part of testing.TB that Start uses. It is declared here so the
// package does not import "testing": the app serves the offline demo from
// this package, and a production binary must not link the test framework.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// Start starts a server on 127.0.0.1 with a random port and closes it when
// the test ends.
func Start(tb TB) *Server {
	tb.Helper()
	s, err := New("127.0.0.1:0")
	if err != nil {
		tb.Fatalf("fakellm: %v", err)
	}
	tb.Cleanup(s.Close)
	return s
}

// New starts a server listening on addr ("127.0.0.1:0" when empty). Call
// Close when done.
func New(addr string) (*Server, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	s := &Server{
		done:    make(chan struct{}),
		reading: make(chan struct{}, maxReading),
		served:  make(chan struct{}),
		arrived: make(chan struct{}),
		models:  []string{"fake-model"},
	}
	s.idle = sync.NewCond(&s.mu)
	s.lim = newLimitListener(ln, maxConns)
	s.URL = "http://" + dialAddr(ln.Addr()) + "/v1"
	s.srv = &http.Server{
		Handler:           http.HandlerFunc(s.serveHTTP),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       idleTimeout,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	go func() {
		_ = s.srv.Serve(s.lim) // http.ErrServerClosed once Close runs
		close(s.served)
	}()
	return s, nil
}

// dialAddr turns a listening address into one a client can dial: an
// unspecified IP (":8080", "[::]:8080") becomes 127.0.0.1.
func dialAddr(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// Close stops the server: it ends stalled and delayed responses, closes all
// connections and waits for the handlers to return. It is idempotent.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.done)
	s.mu.Unlock()

	_ = s.srv.Close()
	<-s.served

	s.mu.Lock()
	for s.active > 0 {
		s.idle.Wait()
	}
	s.mu.Unlock()
}

// Enqueue appends scripted responses. Each chat completions request
// consumes the next one, first in first out.
func (s *Server) Enqueue(rs ...Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, rs...)
}

// Pending reports how many enqueued responses have not been consumed yet.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// Reset drops the responses not consumed yet (a test that stops a turn
// early leaves some behind).
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = nil
}

// SetFallback sets the function that answers when the queue is empty. With
// nil (the default) such requests get HTTP 500
// "fakellm: no scripted response". f runs on the request's goroutine and
// may be called concurrently.
func (s *Server) SetFallback(f func(req Request) Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fallback = f
}

// SetModels sets the model ids GET /v1/models lists (default "fake-model").
func (s *Server) SetModels(ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]string(nil), ids...)
}

// SetLogger makes the server log one line per request to l (nil: silent).
func (s *Server) SetLogger(l *log.Logger) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.logger = l
}

// SetForget makes the server keep no requests nor headers (Requests and
// Authorizations stay empty): a server that runs as long as the app (the
// offline demo) must not grow with every chat.
func (s *Server) SetForget(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forget = on
}

// Requests returns every chat completions request received so far, in
// order, including those whose client went away.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Authorizations returns the Authorization header of every request
// received so far, on any path ("" for one without), in order: what a key
// leak test checks.
func (s *Server) Authorizations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.auths...)
}

// WaitRequests blocks until at least n chat completions requests have
// arrived, or ctx is done.
func (s *Server) WaitRequests(ctx context.Context, n int) error {
	for {
		s.mu.Lock()
		got, ch := s.seen, s.arrived
		s.mu.Unlock()
		if got >= n {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("fakellm: %d of %d requests arrived: %w", got, n, ctx.Err())
		}
	}
}

func (s *Server) logf(format string, args ...any) {
	s.mu.Lock()
	l := s.logger
	s.mu.Unlock()
	if l != nil {
		l.Printf(format, args...)
	}
}

// enter registers a running handler; it fails once Close has begun.
func (s *Server) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.active++
	return true
}

func (s *Server) leave() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.active--
	if s.active == 0 {
		s.idle.Broadcast()
	}
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.enter() {
		writeJSON(w, http.StatusServiceUnavailable, errorBody("fakellm: server closing", "server_error"))
		return
	}
	defer s.leave()
	s.mu.Lock()
	if !s.forget {
		s.auths = append(s.auths, r.Header.Get("Authorization"))
	}
	s.mu.Unlock()

	switch {
	case r.URL.Path == "/v1/chat/completions" && r.Method == http.MethodPost:
		s.chat(w, r)
	case r.URL.Path == "/v1/models" && r.Method == http.MethodGet:
		s.listModels(w)
	case strings.HasPrefix(r.URL.Path, "/v1/models/") && r.Method == http.MethodGet:
		s.getModel(w, strings.TrimPrefix(r.URL.Path, "/v1/models/"))
	default:
		s.logf("%s %s: 404", r.Method, r.URL.Path)
		writeJSON(w, http.StatusNotFound, errorBody(
			fmt.Sprintf("Invalid URL (%s %s)", r.Method, r.URL.Path), "invalid_request_error"))
	}
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

func (s *Server) listModels(w http.ResponseWriter) {
	s.mu.Lock()
	ids := s.models
	s.mu.Unlock()
	b := []byte(`{"object":"list","data":[`)
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendModel(b, id)
	}
	b = append(b, "]}"...)
	writeJSON(w, http.StatusOK, string(b))
}

func (s *Server) getModel(w http.ResponseWriter, id string) {
	s.mu.Lock()
	ids := s.models
	s.mu.Unlock()
	for _, m := range ids {
		if m == id {
			writeJSON(w, http.StatusOK, string(appendModel(nil, id)))
			return
		}
	}
	writeJSON(w, http.StatusNotFound, errorBody(
		fmt.Sprintf("The model '%s' does not exist", id), "invalid_request_error"))
}

// modelsCreated is a fixed creation time for listed models (2024-01-01).
const modelsCreated = 1704067200

func appendModel(b []byte, id string) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, id)
	b = append(b, `,"object":"model","created":`...)
	b = strconv.AppendInt(b, modelsCreated, 10)
	return append(b, `,"owned_by":"juncture"}`...)
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	select {
	case s.reading <- struct{}{}:
	case <-s.done:
		writeJSON(w, http.StatusServiceUnavailable, errorBody("fakellm: server closing", "server_error"))
		return
	case <-r.Context().Done():
		return
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(bodyTimeout)) // best effort: every server here is net/http's
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	<-s.reading
	if err != nil {
		// The deadline stays: the rest of a body never sent is not waited for.
		w.Header().Set("Connection", "close")
		writeJSON(w, http.StatusRequestEntityTooLarge, errorBody("fakellm: "+err.Error(), "invalid_request_error"))
		return
	}
	_ = rc.SetReadDeadline(time.Time{}) // a stalled answer may outlast bodyTimeout
	req, err := parseRequest(body, r.Header.Clone())
	if err != nil {
		s.logf("POST %s: invalid JSON: %v", r.URL.Path, err)
		writeJSON(w, http.StatusBadRequest, errorBody(
			"We could not parse the JSON body of your request. (fakellm: "+err.Error()+")",
			"invalid_request_error"))
		return
	}

	s.mu.Lock()
	if !s.forget {
		s.reqs = append(s.reqs, req)
	}
	s.seen++
	seq := s.seen
	close(s.arrived)
	s.arrived = make(chan struct{})
	source := "scripted"
	var resp Response
	var fallback func(Request) Response
	switch {
	case len(s.queue) > 0:
		resp = s.queue[0]
		s.queue[0] = Response{}
		s.queue = s.queue[1:]
	case s.fallback != nil:
		source, fallback = "fallback", s.fallback
	default:
		source, resp = "unscripted: 500", noScript
	}
	s.mu.Unlock()

	if fallback != nil {
		resp = fallback(req)
	}
	s.logf("#%d POST %s model=%q stream=%t messages=%d tools=%d last=%s -> %s",
		seq, r.URL.Path, req.Model, req.Stream, len(req.Messages), len(req.Tools),
		describeLast(req), source)

	ctx := r.Context()
	switch {
	case resp.status != 0:
		for i := 0; i+1 < len(resp.header); i += 2 {
			w.Header().Add(resp.header[i], resp.header[i+1])
		}
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", resp.contentType())
		}
		w.WriteHeader(resp.status)
		_, _ = io.WriteString(w, resp.body)
	case resp.headerOnly:
		if req.Stream {
			setSSEHeaders(w.Header())
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(http.StatusOK)
		_ = http.NewResponseController(w).Flush()
		abandon(w, s.wait(ctx, -1))
	case req.Stream:
		s.stream(ctx, w, req, resp.Steps)
	default:
		s.complete(ctx, w, req, resp.Steps)
	}
}

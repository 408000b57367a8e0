// Package web is browser mode's transport: the built frontend, the JSON
// method calls (/api/call), the event stream (/api/events) and the AG-UI
// endpoint (/agui) over loopback HTTP, behind a bearer token, with every
// connection's budgets. The token travels only in the Authorization
// header, never in a URL: the page opens the event stream (EventSource
// sends no headers) with a single-use stream ticket it asks for first
// (POST /api/events/ticket; see streamTickets). It knows the app only through Facade, which it
// defines: the method table (with the app's read-only guard already
// applied), the runtime and the error mapping; the window's event names
// are package events'.
// It also holds the wire's pieces both transports share: Error, the
// object a failed call is, and the Call adapters that decode a method's
// JSON arguments.
package web

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/broker"
	"github.com/juncture-app/juncture/app/events"
)

// Facade is what browser mode needs of the app (app.Service implements
// it).
type Facade interface {
	// Calls is every bound method by name, each behind the app's
	// read-only guard.
	Calls() map[string]Call
	// Runtime is the agent runtime: its broker and its AG-UI runs.
	Runtime() *agent.Runtime
	// AsError maps any error of a call or a run to the window's Error.
	AsError(err error) *Error
	// AppViews serves MCP App views (GET /appview/<name>) without the
	// token: a frame cannot send one; the single-use name is the
	// capability, and each view carries its own CSP and sandbox.
	AppViews() http.Handler
}

// NewToken returns a random bearer token.
func NewToken() string {
	var b [24]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// MaxTokenLength is the longest token the page takes from its address
// (frontend/src/transport/http.ts, usableToken): NewToken's 48 characters
// with room for a JUNCTURE_TOKEN of one's own. A longer #token= (one of a
// megabyte makes every request's headers too large to be served) is
// dropped there like a token no request can carry.
const MaxTokenLength = 512

// CheckToken says why a JUNCTURE_TOKEN cannot be browser mode's token:
// the page drops a token longer than MaxTokenLength or with characters a
// header cannot carry (not visible ASCII, or spaces at its ends), so it
// would never be sent.
func CheckToken(token string) error {
	if len(token) > MaxTokenLength {
		return fmt.Errorf("the token is %d characters long; the page takes at most %d", len(token), MaxTokenLength)
	}
	if token == "" || token[0] == ' ' || token[len(token)-1] == ' ' {
		return errors.New("the token is empty or starts or ends with a space")
	}
	for i := 0; i < len(token); i++ {
		if token[i] < 0x20 || token[i] > 0x7e {
			return fmt.Errorf("the token has a character a request header cannot carry at byte %d (only visible ASCII and inner spaces)", i)
		}
	}
	return nil
}

// Server is browser mode: the built frontend plus the JSON API, the event
// stream and the AG-UI endpoint, all behind a bearer token.
//
// Static files are served without the token (a page cannot send a header
// when it is first opened; the token travels in the URL fragment, which the
// browser never sends). Every API request needs it in its Authorization
// header (the event stream: it or a stream ticket), and requests whose
// Origin is not the server's own are refused, so a web page open in the
// person's browser cannot drive the agent.
type Server struct {
	app    Facade
	calls  map[string]Call
	token  string
	assets fs.FS
	mux    *http.ServeMux
	// KeepAlive is the interval of SSE keepalive comments.
	KeepAlive time.Duration
	// limits are the deadlines handlers set (HTTPServer).
	limits HTTPLimits
	// tickets open the event stream without the token in its URL.
	tickets *streamTickets
}

// NewServer builds the browser-mode handler over the app's facade.
func NewServer(app Facade, assets fs.FS, token string) *Server {
	s := &Server{app: app, calls: app.Calls(), token: token, assets: assets, mux: http.NewServeMux(), KeepAlive: 15 * time.Second, limits: DefaultHTTPLimits, tickets: newStreamTickets()}
	s.mux.HandleFunc("POST /api/call/{method}", s.auth(s.handleCall))
	s.mux.HandleFunc("POST /api/events/ticket", s.auth(s.handleTicket))
	s.mux.HandleFunc("GET /api/events", s.streamAuth(s.handleEvents))
	s.mux.HandleFunc("POST /agui", s.auth(s.handleAGUI))
	s.mux.Handle("GET /appview/", app.AppViews())
	s.mux.Handle("GET /", static(assets))
	return s
}

// ServeHTTP checks Host and Origin, then routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Every answer gets its own write deadline (a kept-alive connection
	// must not inherit the last call's); the event stream extends it.
	s.extendWrite(w)
	if r.ContentLength != 0 {
		// A body bounded before anything answers: net/http drains a body
		// left unread (a refusal, the ticket endpoint) before it writes the
		// answer, with no deadline of its own, so a peer dripping one would
		// hold a connection (one of MaxConns) for ever. Handlers that read
		// a body set this again.
		s.readDeadline(w)
	}
	if !loopbackHost(r.Host) {
		// DNS rebinding: a foreign name resolving to 127.0.0.1.
		writeError(w, errorf("forbidden-host", "This server only answers to localhost addresses."), http.StatusForbidden)
		return
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
		writeError(w, errorf("forbidden-origin", "Requests from other web pages are refused."), http.StatusForbidden)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
	s.mux.ServeHTTP(w, r)
}

func loopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// auth lets through a request with the token in its Authorization
// header. The token is never taken from the URL (?token=): a URL ends up
// in logs, history, proxies and Referer; the event stream takes a ticket
// there instead (streamAuth).
func (s *Server) auth(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.bearer(r) {
			refuse(w)
			return
		}
		next(w, r)
	}
}

// streamAuth lets the event stream through with a stream ticket in its
// URL (?ticket=, spent here: EventSource cannot send headers), or with
// the token in its Authorization header (a client that can send one).
func (s *Server) streamAuth(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if ticket := r.URL.Query().Get("ticket"); ticket != "" {
			if !s.tickets.use(ticket) {
				writeError(w, errorf("unauthorized", "This stream ticket was used or has expired; ask for a new one (POST /api/events/ticket)."), http.StatusUnauthorized)
				return
			}
		} else if !s.bearer(r) {
			refuse(w)
			return
		}
		next(w, r)
	}
}

func (s *Server) bearer(r *http.Request) bool {
	got := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	return subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) == 1
}

func refuse(w http.ResponseWriter) {
	writeError(w, errorf("unauthorized", "A valid bearer token is required (open the address Juncture printed, with #token=…)."), http.StatusUnauthorized)
}

// handleTicket gives a stream ticket (see streamTickets) to a page that
// has the token, or 429 when too many are waiting to be used.
func (s *Server) handleTicket(w http.ResponseWriter, _ *http.Request) {
	ticket, ok := s.tickets.issue()
	if !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(ticketTTL/time.Second)))
		writeError(w, errorf("too-many-tickets", "Too many stream tickets wait to be used; try again shortly."), http.StatusTooManyRequests)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(struct {
		Ticket string `json:"ticket"`
	}{ticket})
}

// handleCall calls an App method with the JSON array of its arguments.
func (s *Server) handleCall(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("method")
	m, ok := s.calls[name]
	if !ok {
		writeError(w, errorf(CodeNotFound, fmt.Sprintf("There is no method %q.", name)), http.StatusNotFound)
		return
	}
	// A body over its budget is refused whole (413, the limit in words),
	// never cut short into JSON that does not parse.
	s.readDeadline(w)
	var raw []json.RawMessage
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, callBodyLimit(name)))
	if tooLarge(w, err, "The call to "+name) || timedOut(w, err, s.limits.Body) {
		return
	}
	if err == nil && len(bytes.TrimSpace(body)) > 0 {
		err = json.Unmarshal(body, &raw)
	}
	if err != nil {
		writeError(w, errorf(CodeInvalidArgument, "The body must be a JSON array of arguments: "+err.Error()), http.StatusBadRequest)
		return
	}
	result, err := m(raw)
	s.extendWrite(w) // the call may have taken longer than the deadline set on arrival
	var ae *argError
	var ce *countError
	switch {
	case errors.As(err, &ce):
		writeError(w, errorf(CodeInvalidArgument, fmt.Sprintf("%s takes at most %d argument(s), got %d.", name, ce.want, ce.got)), http.StatusBadRequest)
		return
	case errors.As(err, &ae):
		writeError(w, errorf(CodeInvalidArgument, fmt.Sprintf("Argument %d of %s: %v", ae.n, name, ae.err)), http.StatusBadRequest)
		return
	case err != nil:
		e := s.app.AsError(err)
		writeError(w, e, httpStatus(e.Code))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(result)
}

// handleEvents streams every event the desktop window would receive. A
// reconnecting page sends the last event id it saw (Last-Event-ID, or
// ?lastEventId= for a new EventSource) and gets what it missed, or a
// "resync" event when that is gone (it reloads what it shows). Whatever
// is queued is framed at once and flushed once.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	last := r.Header.Get("Last-Event-ID")
	if last == "" {
		last = r.URL.Query().Get("lastEventId")
	}
	rt := s.app.Runtime()
	// No deadline on the stream itself (it lasts as long as the page);
	// each write gets one, so a page that stops reading is dropped.
	s.extendWrite(w)
	sse := agui.NewSSEWriter(w)
	sub, complete := rt.Events().SubscribeSince("", last, broker.SubscribeOptions{Coalesce: 1, Resumable: true})
	defer sub.Close()
	if err := sse.Comment("connected"); err != nil {
		return
	}
	if !complete {
		if sse.WriteFrame([]byte("data: "+resyncData+"\n\n")) != nil {
			return
		}
	}
	stream := make(chan []broker.Envelope)
	done := make(chan struct{})
	defer close(done)
	go func() { // owns sub's reading side; ends with the request
		defer close(stream)
		var batch []broker.Envelope
		for {
			var err error
			batch, err = sub.NextBatch(r.Context(), nil)
			if err != nil {
				return
			}
			select {
			case stream <- batch:
			case <-done:
				return
			}
		}
	}()
	tick := time.NewTicker(s.KeepAlive)
	defer tick.Stop()
	var buf []byte
	for {
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
			s.extendWrite(w)
			if sse.Comment("keepalive") != nil {
				return
			}
		case batch, ok := <-stream:
			if !ok {
				if !errors.Is(r.Context().Err(), context.Canceled) {
					// Closed for falling behind (or the app stopped):
					// the page reloads what it shows.
					_ = sse.WriteFrame([]byte("data: " + resyncData + "\n\n"))
				}
				return
			}
			s.extendWrite(w)
			buf = buf[:0]
			for _, env := range batch {
				buf = appendFrame(buf, rt.Events().EventID(env), env)
			}
			if sse.WriteFrame(buf) != nil {
				return
			}
		}
	}
}

// resyncData is the frame that tells the page to reload what it shows
// from the store: what it missed is gone, or could not be written.
const resyncData = `{"name":"resync","data":{}}`

// appendFrame appends one envelope as an SSE frame with its id; a run
// start or end is followed by a "threads" frame (the sidebar follows).
// An AG-UI event's JSON is the broker's, encoded once for every client.
func appendFrame(buf []byte, id string, env broker.Envelope) []byte {
	buf = append(buf, "id: "...)
	buf = append(buf, id...)
	buf = append(buf, "\ndata: "...)
	if env.Name == broker.EnvelopeAGUI {
		// Encoded once here: a delta merged for this subscriber has no
		// shared encoding, and EventJSON encodes it anew on every call.
		raw := env.EventJSON()
		if raw == nil {
			// An event that cannot be encoded (a NaN in a value): the page
			// reloads what it shows from the store instead of choking on a
			// frame that is not JSON.
			return append(buf, resyncData+"\n\n"...)
		}
		threadID, _ := json.Marshal(env.ThreadID)
		buf = append(buf, `{"name":"agui","data":{"threadId":`...)
		buf = append(buf, threadID...)
		buf = append(buf, `,"seq":`...)
		buf = strconv.AppendUint(buf, env.Seq, 10)
		if env.IsDelta() {
			buf = append(buf, `,"offset":`...)
			buf = strconv.AppendInt(buf, int64(env.Offset), 10)
		}
		buf = append(buf, `,"event":`...)
		buf = append(buf, raw...)
		buf = append(buf, "}}\n\n"...)
	} else {
		name, data := events.Frame(env)
		b, err := json.Marshal(struct {
			Name string `json:"name"`
			Data any    `json:"data"`
		}{name, data})
		if err != nil {
			b = []byte(resyncData)
		}
		buf = append(buf, b...)
		buf = append(buf, '\n', '\n')
	}
	if events.ListChanges(env) {
		threadID, _ := json.Marshal(env.ThreadID)
		buf = append(buf, `data: {"name":"threads","data":{"threadId":`...)
		buf = append(buf, threadID...)
		buf = append(buf, "}}\n\n"...)
	}
	return buf
}

// handleAGUI runs one AG-UI run and streams its events: the runtime
// decides what the input means (see agent.Runtime.RunAGUI); this only
// decodes, calls and encodes. Closing the response stops the run, as Stop
// does.
func (s *Server) handleAGUI(w http.ResponseWriter, r *http.Request) {
	var in agui.RunAgentInput
	s.readDeadline(w)
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, AGUIBody))
	if err := dec.Decode(&in); err != nil {
		if !tooLarge(w, err, "The RunAgentInput") && !timedOut(w, err, s.limits.Body) {
			writeError(w, errorf(CodeInvalidArgument, "The body is not a RunAgentInput: "+err.Error()), http.StatusBadRequest)
		}
		return
	}
	if err := in.Validate(); err != nil {
		writeError(w, errorf(CodeInvalidArgument, "Invalid RunAgentInput: "+err.Error()), http.StatusBadRequest)
		return
	}
	sse := agui.NewSSEWriter(w)
	for ev, more := range s.app.Runtime().RunAGUI(r.Context(), in, s.reportError) {
		s.extendWrite(w) // a peer that stops reading is dropped, the run stopped
		if sse.Buffer(ev) != nil {
			return // the runtime stops the run when the loop ends early
		}
		if !more {
			sse.Flush()
		}
	}
	sse.Flush()
}

// reportError is the facade's error mapping for AG-UI RUN_ERROR events.
func (s *Server) reportError(err error) (string, string) {
	e := s.app.AsError(err)
	return e.Message, e.Code
}

// Link is the address Juncture prints for browser mode. The token is
// escaped: a JUNCTURE_TOKEN with "+", "%" or "&" printed raw would be read
// back by the page as another token (a space, a decoded byte, a cut-off
// value), and every request would be refused.
func Link(addr, token string) string {
	return "http://" + addr + "/#token=" + url.QueryEscape(token)
}

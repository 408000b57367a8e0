package app

import (
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
	"reflect"
	"strings"
	"time"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
)

// NewToken returns a random bearer token.
func NewToken() string {
	var b [24]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Server is browser mode: the built frontend plus the JSON API, the event
// stream and the AG-UI endpoint, all behind a bearer token.
//
// Static files are served without the token (a page cannot send a header
// when it is first opened; the token travels in the URL fragment, which the
// browser never sends). Every API request needs it, and requests whose
// Origin is not the server's own are refused, so a web page open in the
// person's browser cannot drive the agent.
type Server struct {
	svc    *Service
	hub    *Hub
	token  string
	assets fs.FS
	mux    *http.ServeMux
	// KeepAlive is the interval of SSE keepalive comments.
	KeepAlive time.Duration
}

// NewServer builds the browser-mode handler and routes svc's events to it.
func NewServer(svc *Service, assets fs.FS, token string) *Server {
	s := &Server{svc: svc, hub: NewHub(), token: token, assets: assets, mux: http.NewServeMux(), KeepAlive: 15 * time.Second}
	svc.SetEmitter(s.hub)
	s.mux.HandleFunc("POST /api/call/{method}", s.auth(s.handleCall))
	s.mux.HandleFunc("GET /api/events", s.auth(s.handleEvents))
	s.mux.HandleFunc("POST /agui", s.auth(s.handleAGUI))
	s.mux.Handle("GET /", http.FileServerFS(assets))
	return s
}

// ServeHTTP checks Host and Origin, then routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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

func (s *Server) auth(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		got := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		if got == "" && r.URL.Path == "/api/events" {
			got = r.URL.Query().Get("token") // EventSource cannot send headers
		}
		if subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) != 1 {
			writeError(w, errorf("unauthorized", "A valid bearer token is required (open the address Juncture printed, with #token=…)."), http.StatusUnauthorized)
			return
		}
		next(w, r)
	}
}

func writeError(w http.ResponseWriter, e *Error, status int) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]*Error{"error": e})
}

var errorType = reflect.TypeFor[error]()

// handleCall calls an App method with the JSON array of its arguments.
func (s *Server) handleCall(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("method")
	m := reflect.ValueOf(s.svc.app).MethodByName(name)
	if !m.IsValid() {
		writeError(w, errorf(CodeNotFound, fmt.Sprintf("There is no method %q.", name)), http.StatusNotFound)
		return
	}
	var raw []json.RawMessage
	body, err := io.ReadAll(io.LimitReader(r.Body, 32<<20))
	if err == nil && len(strings.TrimSpace(string(body))) > 0 {
		err = json.Unmarshal(body, &raw)
	}
	if err != nil {
		writeError(w, errorf(CodeInvalidArgument, "The body must be a JSON array of arguments: "+err.Error()), http.StatusBadRequest)
		return
	}
	mt := m.Type()
	if len(raw) != mt.NumIn() {
		writeError(w, errorf(CodeInvalidArgument, fmt.Sprintf("%s takes %d argument(s), got %d.", name, mt.NumIn(), len(raw))), http.StatusBadRequest)
		return
	}
	args := make([]reflect.Value, len(raw))
	for i, a := range raw {
		p := reflect.New(mt.In(i))
		if err := json.Unmarshal(a, p.Interface()); err != nil {
			writeError(w, errorf(CodeInvalidArgument, fmt.Sprintf("Argument %d of %s: %v", i+1, name, err)), http.StatusBadRequest)
			return
		}
		args[i] = p.Elem()
	}
	var result any
	for _, out := range m.Call(args) {
		if out.Type() == errorType {
			if !out.IsNil() {
				e := asError(out.Interface().(error))
				writeError(w, e, httpStatus(e.Code))
				return
			}
			continue
		}
		result = out.Interface()
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(result)
}

// handleEvents streams every event the desktop window would receive. A
// reconnecting page sends the last event id it saw (Last-Event-ID, or
// ?lastEventId= for a new EventSource) and gets what it missed.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	last := r.Header.Get("Last-Event-ID")
	if last == "" {
		last = r.URL.Query().Get("lastEventId")
	}
	sse := agui.NewSSEWriter(w)
	c := s.hub.join(last)
	defer s.hub.leave(c)
	if err := sse.Comment("connected"); err != nil {
		return
	}
	tick := time.NewTicker(s.KeepAlive)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
			if sse.Comment("keepalive") != nil {
				return
			}
		case <-c.wake:
			for _, b := range c.drain() {
				if sse.WriteFrame(b) != nil {
					return
				}
			}
		}
	}
}

// handleAGUI runs one AG-UI run and streams its events. The stored history
// of the thread is authoritative; input messages with new ids are appended.
// Closing the response stops the run, as Stop does.
func (s *Server) handleAGUI(w http.ResponseWriter, r *http.Request) {
	var in agui.RunAgentInput
	dec := json.NewDecoder(io.LimitReader(r.Body, 16<<20))
	if err := dec.Decode(&in); err != nil {
		writeError(w, errorf(CodeInvalidArgument, "The body is not a RunAgentInput: "+err.Error()), http.StatusBadRequest)
		return
	}
	if err := in.Validate(); err != nil {
		writeError(w, errorf(CodeInvalidArgument, "Invalid RunAgentInput: "+err.Error()), http.StatusBadRequest)
		return
	}
	rt := s.svc.Runtime()
	sse := agui.NewSSEWriter(w)
	pending, _, err := rt.PendingApprovals(r.Context(), in.ThreadID)
	if err != nil {
		e := asError(err)
		_ = sse.Write(agui.NewRunError(e.Message, e.Code, map[string]any{"threadId": in.ThreadID, "runId": in.RunID}))
		return
	}
	if len(in.Resume) == 0 {
		if results := clientResults(r.Context(), rt, in); len(results) > 0 {
			// Tool results for pending client calls complete them.
			sub := rt.Subscribe(in.ThreadID)
			defer sub.Close()
			waiting, err := rt.CompleteClientTools(r.Context(), in.ThreadID, results, in.RunID)
			if err != nil {
				e := asError(err)
				_ = sse.Write(agui.NewRunError(e.Message, e.Code, map[string]any{"threadId": in.ThreadID, "runId": in.RunID}))
				return
			}
			if len(waiting) > 0 {
				// Other client calls of that run still wait: nothing runs.
				_ = sse.Write(agui.NewRunStarted(in.ThreadID, in.RunID, in.ParentRunID))
				_ = sse.Write(agui.NewRunFinished(in.ThreadID, in.RunID, &agui.Outcome{Type: agui.OutcomeSuccess, PendingToolCallIDs: waiting}))
				return
			}
			streamRun(r.Context(), sse, sub, in.RunID, func() { rt.Interrupt(in.ThreadID) })
			return
		}
	}
	if len(in.Resume) > 0 || len(pending) > 0 {
		// A continuation; input without resume while approvals wait is
		// refused the same way (every pending item reported missing).
		sub := rt.Subscribe(in.ThreadID)
		defer sub.Close()
		err := rt.Resume(r.Context(), in.ThreadID, in.ParentRunID, in.Resume, in.RunID)
		var refused *agent.RefusedError
		if err != nil && !errors.As(err, &refused) {
			e := asError(err)
			_ = sse.Write(agui.NewRunError(e.Message, e.Code, map[string]any{"threadId": in.ThreadID, "runId": in.RunID}))
			return
		}
		streamRun(r.Context(), sse, sub, in.RunID, func() { rt.Interrupt(in.ThreadID) })
		return
	}
	sub := rt.Subscribe(in.ThreadID)
	defer sub.Close()
	err = rt.StartExclusive(r.Context(), agent.Input{
		ThreadID: in.ThreadID, RunID: in.RunID, ParentRunID: in.ParentRunID,
		Messages: agent.FromAGUI(in.ThreadID, in.Messages),
	})
	if err != nil {
		e := asError(err)
		_ = sse.Write(agui.NewRunError(e.Message, e.Code, map[string]any{"threadId": in.ThreadID, "runId": in.RunID}))
		return
	}
	streamRun(r.Context(), sse, sub, in.RunID, func() { rt.Interrupt(in.ThreadID) })
}

// streamRun writes one run's events, from its RUN_STARTED to its terminal
// event. If the client goes away first, stop is called.
func streamRun(ctx context.Context, sse *agui.SSEWriter, sub *agent.Subscription, runID string, stop func()) {
	started := false
	for {
		env, err := sub.Next(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				stop()
			}
			return
		}
		if env.Name != agent.EnvelopeAGUI {
			continue
		}
		ev := env.Event
		if rs, ok := ev.(*agui.RunStarted); ok && rs.RunID == runID {
			started = true
		}
		if !started {
			continue
		}
		if err := sse.Write(ev); err != nil {
			stop()
			return
		}
		switch e := ev.(type) {
		case *agui.RunFinished:
			if e.RunID == runID {
				return
			}
		case *agui.RunError:
			return
		}
	}
}

// clientResults picks the tool results of in that answer pending client
// tool calls of the thread.
func clientResults(ctx context.Context, rt *agent.Runtime, in agui.RunAgentInput) []agent.ClientToolResult {
	pending, err := rt.PendingClientTools(ctx, in.ThreadID)
	if err != nil || len(pending) == 0 {
		return nil
	}
	waiting := map[string]bool{}
	for _, c := range pending {
		waiting[c.ToolCallID] = true
	}
	var out []agent.ClientToolResult
	for _, m := range agent.FromAGUI(in.ThreadID, in.Messages) {
		if m.Role == history.RoleTool && waiting[m.ToolCallID] {
			out = append(out, agent.ClientToolResult{ToolCallID: m.ToolCallID, Content: m.Content, IsError: m.IsError})
			delete(waiting, m.ToolCallID)
		}
	}
	return out
}

package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/juncture-app/juncture/agent/tools"
)

// What a server asks of Juncture: progress of a call, questions for the
// person (elicitation), the model's help (sampling), the roots, and log
// lines. All handlers run on the SDK's goroutines; the notification ones
// (progress, logging, tool list changed) run one at a time in arrival
// order, so they do nothing slow.

// newClient makes the supervisor's SDK client, one for every session it
// opens (the roots live in it).
func (s *supervisor) newClient() *sdk.Client {
	opts := &sdk.ClientOptions{
		Logger: s.m.log.With("server", s.name),
		// Setting Capabilities replaces the SDK's default (roots with
		// listChanged), so it is stated again.
		Capabilities: &sdk.ClientCapabilities{
			RootsV2: &sdk.RootCapabilities{ListChanged: true},
			Elicitation: &sdk.ElicitationCapabilities{
				Form: &sdk.FormElicitationCapabilities{},
				URL:  &sdk.URLElicitationCapabilities{},
			},
			Extensions: map[string]any{tasksExtension: map[string]any{}}, // tasks.go
		},
		// Juncture owns the multi round-trip loop: a question is a durable
		// pause, not a wait inside the call (roundtrip.go).
		MultiRoundTrip:              &sdk.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler:          s.elicit,
		ToolListChangedHandler:      func(context.Context, *sdk.ToolListChangedRequest) { signal(s.relistCh) },
		PromptListChangedHandler:    func(context.Context, *sdk.PromptListChangedRequest) { s.listChanged(true, false) },
		ResourceListChangedHandler:  func(context.Context, *sdk.ResourceListChangedRequest) { s.listChanged(false, true) },
		LoggingMessageHandler:       func(_ context.Context, r *sdk.LoggingMessageRequest) { s.log.Note(formatLogging(r.Params)) },
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) { s.progress(r.Params) },
	}
	if s.m.o.Sampler != nil {
		// Without a Sampler the capability is not offered at all: servers
		// hide what needs it instead of failing mid-call.
		opts.CreateMessageHandler = s.sample
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "juncture", Title: "Juncture", Version: s.m.o.Version}, opts)
	if err := registerTaskMethods(c); err != nil {
		// The pinned SDK takes them (TestTaskToolRunsAsTask); only one
		// that made them standard methods would refuse them.
		s.m.log.Warn("mcp: tasks methods not registered", "err", err)
	}
	return c
}

// formatLogging is a logging notification as a log line:
// "[level] logger: data".
func formatLogging(p *sdk.LoggingMessageParams) string {
	if p == nil {
		return ""
	}
	data, ok := p.Data.(string)
	if !ok {
		b, _ := json.Marshal(p.Data)
		data = string(b)
	}
	if p.Logger != "" {
		return fmt.Sprintf("[%s] %s: %s", p.Level, p.Logger, data)
	}
	return fmt.Sprintf("[%s] %s", p.Level, data)
}

// callRegistry is a server's tool calls in flight: where progress goes
// and who answers the server's questions.
type callRegistry struct {
	mu    sync.Mutex
	calls []*inflight // in the order they started
	// slot is held by the one call in flight of a server older than
	// 2026-07-28 (capacity 1).
	slot chan struct{}
}

type inflight struct {
	ctx   context.Context // the call's context: its CallEnv, cancelled by Stop
	token string          // its progress token
}

func newCallRegistry() *callRegistry { return &callRegistry{slot: make(chan struct{}, 1)} }

// oneAtATime waits until no other call of an older server is in flight
// (the call's tool block says it waits) and returns the release. Such a
// server's requests do not say which call they serve, so with one call
// in flight each question has one owner and reaches its own chat. It
// fails only when ctx ends (Stop).
func (r *callRegistry) oneAtATime(ctx context.Context, title string) (release func(), err error) {
	select {
	case r.slot <- struct{}{}:
		return func() { <-r.slot }, nil
	default:
	}
	tools.ReportProgress(ctx, tools.Progress{Message: "Waiting: another call to " + title + " is running (this server takes one call at a time)"})
	select {
	case r.slot <- struct{}{}:
		tools.ReportProgress(ctx, tools.Progress{Message: "Running"})
		return func() { <-r.slot }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

var tokenSeq atomic.Uint64

// callKey marks a call's context, so a request that arrives with it (a
// multi round-trip of the newer protocol) is routed to that very call.
type callKey struct{}

// begin registers a call; done forgets it.
func (r *callRegistry) begin(ctx context.Context) (c *inflight, done func()) {
	c = &inflight{token: "juncture-" + strconv.FormatUint(tokenSeq.Add(1), 10)}
	c.ctx = context.WithValue(ctx, callKey{}, c)
	r.mu.Lock()
	r.calls = append(r.calls, c)
	r.mu.Unlock()
	return c, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		for i, x := range r.calls {
			if x == c {
				r.calls = append(r.calls[:i], r.calls[i+1:]...)
				break
			}
		}
	}
}

// byToken finds the call a progress notification is about.
func (r *callRegistry) byToken(token any) *inflight {
	t, ok := token.(string)
	if !ok {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.calls {
		if c.token == t {
			return c
		}
	}
	return nil
}

// route picks the call a server's request (elicitation, sampling) belongs
// to. Over stdio and HTTP alike the protocol does not say which call a
// request serves, so it is the earliest-started call still running; the
// exception is a request made within a call's own context.
func (r *callRegistry) route(ctx context.Context) *inflight {
	if c, ok := ctx.Value(callKey{}).(*inflight); ok && c.ctx.Err() == nil {
		return c
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.calls {
		if c.ctx.Err() == nil {
			return c
		}
	}
	return nil
}

// progress passes a progress notification to its call's CallEnv (whose
// Progress never blocks).
func (s *supervisor) progress(p *sdk.ProgressNotificationParams) {
	if p == nil {
		return
	}
	if c := s.calls.byToken(p.ProgressToken); c != nil {
		tools.ReportProgress(c.ctx, tools.Progress{Progress: p.Progress, Total: p.Total, Message: cutText(p.Message, maxProgressMessage)})
	}
}

// askContext is the call's context (it carries the CallEnv) ended also
// when the server's request is (the server gave up, the session closed).
func askContext(call, request context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(call)
	stop := context.AfterFunc(request, cancel)
	return ctx, func() { stop(); cancel() }
}

// elicit asks the person on behalf of the server (a form, or a page to
// open). With no call in flight nobody could answer: declined.
func (s *supervisor) elicit(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	c := s.calls.route(ctx)
	if c == nil {
		s.log.Note(notePrefix + "declined an elicitation request: no tool call of this server is running")
		return &sdk.ElicitResult{Action: tools.ReplyDecline}, nil
	}
	actx, cancel := askContext(c.ctx, ctx)
	defer cancel()
	prompt, err := elicitPrompt(s.title(), req.Params)
	if err != nil {
		return nil, err
	}
	reply, err := tools.Ask(actx, prompt)
	if err != nil {
		return &sdk.ElicitResult{Action: tools.ReplyCancel}, nil
	}
	switch reply.Action {
	case tools.ReplyAccept:
		res := &sdk.ElicitResult{Action: tools.ReplyAccept}
		if len(reply.Content) > 0 && string(reply.Content) != "null" {
			if err := json.Unmarshal(reply.Content, &res.Content); err != nil {
				s.log.Note(notePrefix + "an elicitation answer was not a JSON object; sent as cancelled")
				return &sdk.ElicitResult{Action: tools.ReplyCancel}, nil
			}
		}
		return res, nil
	case tools.ReplyDecline:
		return &sdk.ElicitResult{Action: tools.ReplyDecline}, nil
	}
	return &sdk.ElicitResult{Action: tools.ReplyCancel}, nil
}

// samplingRefused is the JSON-RPC error code of a refused sampling
// request (the specification's example uses -1 for "user rejected").
const samplingRefused = -1

// sample lets the server ask the app's model, once the person approved
// the request on a card.
func (s *supervisor) sample(ctx context.Context, req *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
	p := req.Params
	c := s.calls.route(ctx)
	if c == nil {
		s.log.Note(notePrefix + "declined a sampling request: no tool call of this server is running")
		return nil, &jsonrpc.Error{Code: samplingRefused, Message: "the sampling request was declined: no tool call of this server is running to ask the person"}
	}
	actx, cancel := askContext(c.ctx, ctx)
	defer cancel()
	title := s.title()
	sr := SampleRequest{Server: s.name, ThreadID: tools.CallThread(c.ctx), System: p.SystemPrompt, MaxTokens: int(p.MaxTokens)}
	for _, msg := range p.Messages {
		sr.Messages = append(sr.Messages, SampleMessage{Role: string(msg.Role), Text: samplingText(msg.Content)})
	}
	reply, err := tools.Ask(actx, samplingPrompt(title, p.SystemPrompt, p.MaxTokens, p.ModelPreferences, sr.Messages))
	if err != nil {
		return nil, &jsonrpc.Error{Code: samplingRefused, Message: "the sampling request was cancelled"}
	}
	if reply.Action != tools.ReplyAccept {
		msg := "the person declined the sampling request"
		if r := strings.TrimSpace(reply.Reason); r != "" {
			msg += ": " + r
		}
		return nil, &jsonrpc.Error{Code: samplingRefused, Message: msg}
	}
	started := time.Now()
	out, err := s.m.o.Sampler(actx, sr)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the model could not answer: " + shorten(err.Error(), 300)}
	}
	s.log.Note(notePrefix + fmt.Sprintf("answered a sampling request with %s in %s", orDefault(out.Model, "the model"), time.Since(started).Round(time.Millisecond)))
	return &sdk.CreateMessageResult{Role: "assistant", Content: &sdk.TextContent{Text: out.Text}, Model: out.Model, StopReason: out.StopReason}, nil
}

// samplingText is a sampling message as text: the model Juncture asks
// reads text; other blocks are described.
func samplingText(c sdk.Content) string {
	switch b := c.(type) {
	case *sdk.TextContent:
		return b.Text
	case *sdk.ImageContent:
		return fmt.Sprintf("[image: %s, %s]", orDefault(b.MIMEType, "image"), humanSize(len(b.Data)))
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio: %s, %s]", orDefault(b.MIMEType, "audio"), humanSize(len(b.Data)))
	case nil:
		return ""
	}
	return fmt.Sprintf("[%T]", c)
}

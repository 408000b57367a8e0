// Package taskserver is an MCP server for Juncture's tests that runs a
// tool as a task of the io.modelcontextprotocol/tasks extension (MCP
// 2026-07-28), over Streamable HTTP in stateless mode, with a task store
// that belongs to the server, not to a connection: a client that goes
// away (killed, restarted) finds its tasks again. Written with go-sdk
// v1.8.0, which has no tasks support: tools/call is answered with a task
// by a receiving middleware, tasks/get, tasks/update and tasks/cancel are
// custom methods.
//
// Tools:
//
//	research {topic, seconds}  a task that works for seconds (default 2),
//	                           one status message per step, then completes
//	                           with "Report on <topic>."
//	clarify {topic}            a task that needs input: after one step its
//	                           status is input_required with one form
//	                           question ("which"); tasks/update's answer
//	                           {kind} resumes it, and it completes with
//	                           "Report on <kind> <topic>."
//	echo {text}                a plain tool: returns text at once
//	ask {}                     a plain tool (never a task) that needs input
//	                           by multi round-trip (2026-07-28): the first
//	                           call is answered input_required with one form
//	                           question ("who") and requestState AskState;
//	                           the retry returns "action=<action> name=<name>"
//	                           (a retry without AskState is refused)
package taskserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Extension is the tasks extension's identifier.
const Extension = "io.modelcontextprotocol/tasks"

// Options tune the server.
type Options struct {
	Step           time.Duration // one step of research (default 500 ms)
	PollIntervalMs int64         // suggested poll interval (default 200)
}

// Server is a running task server's state, for tests to observe.
type Server struct {
	o       Options
	mu      sync.Mutex
	tasks   map[string]*task
	seq     atomic.Int64
	created chan string // task ids, as created
	cancels chan string // task ids, as tasks/cancel arrives
	gets    atomic.Int64
	results atomic.Int64 // completed results handed out by tasks/get
	asks    atomic.Int64 // calls of the ask tool
}

type task struct {
	id, status, message string
	inputRequests       map[string]any
	answer              chan string
	result              *mcp.CallToolResult
	created, updated    time.Time
	cancel              context.CancelFunc
}

// New makes a server; Handler serves it.
func New(o Options) *Server {
	if o.Step <= 0 {
		o.Step = 500 * time.Millisecond
	}
	if o.PollIntervalMs <= 0 {
		o.PollIntervalMs = 200
	}
	return &Server{o: o, tasks: map[string]*task{}, created: make(chan string, 64), cancels: make(chan string, 64)}
}

// Created reports each task's id as it is created.
func (s *Server) Created() <-chan string { return s.created }

// Cancels reports each task id tasks/cancel names, as it arrives.
func (s *Server) Cancels() <-chan string { return s.cancels }

// Gets is how many tasks/get the server answered.
func (s *Server) Gets() int64 { return s.gets.Load() }

// Results is how many times a completed task's result was handed out.
func (s *Server) Results() int64 { return s.results.Load() }

// Status returns a task's status ("" when unknown).
func (s *Server) Status(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tasks[id]; t != nil {
		return t.status
	}
	return ""
}

// Handler serves MCP over Streamable HTTP (stateless: no session is kept
// between requests; the tasks are the server's).
func (s *Server) Handler() http.Handler {
	srv := s.mcpServer()
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
}

type researchArgs struct {
	Topic   string `json:"topic"`
	Seconds int    `json:"seconds,omitempty"`
	clarify bool
}

func (s *Server) mcpServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "taskserver", Title: "Task server", Version: "1"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{
			Tools:      &mcp.ToolCapabilities{},
			Extensions: map[string]any{Extension: map[string]any{}},
		},
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "research", Description: "Researches a topic for a while (runs as a task)."},
		func(ctx context.Context, _ *mcp.CallToolRequest, a researchArgs) (*mcp.CallToolResult, any, error) {
			// Reached only by a client that did not declare the extension:
			// the work is done within the call.
			return textResult("Report on " + a.Topic + "."), nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "clarify", Description: "Researches a topic after asking which kind is meant (runs as a task)."},
		func(context.Context, *mcp.CallToolRequest, researchArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "clarify runs only as a task"}}}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "Returns its text."},
		func(_ context.Context, _ *mcp.CallToolRequest, a struct {
			Text string `json:"text"`
		}) (*mcp.CallToolResult, any, error) {
			return textResult(a.Text), nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "ask", Description: "Asks who is calling (input_required, never a task)."}, s.ask)
	mcp.AddTool(srv, &mcp.Tool{Name: "wait", Description: "Waits up to a minute within the call (never a task)."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			select {
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			case <-time.After(time.Minute):
				return textResult("waited"), nil, nil
			}
		})
	srv.AddReceivingMiddleware(s.taskMiddleware)
	must(mcp.AddReceivingCustomMethod(srv, "tasks/get", s.get))
	must(mcp.AddReceivingCustomMethod(srv, "tasks/cancel", s.cancelTask))
	must(mcp.AddReceivingCustomMethod(srv, "tasks/update", s.update))
	return srv
}

// AskState is the requestState of the ask tool's input_required result.
const AskState = "taskserver-v1:ask"

// ask answers input_required until the retry brings the answer.
func (s *Server) ask(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	s.asks.Add(1)
	got, ok := req.Params.InputResponses["who"]
	if !ok {
		return &mcp.CallToolResult{RequestState: AskState, InputRequests: mcp.InputRequestMap{"who": &mcp.ElicitParams{
			Mode: "form", Message: "Who is calling?",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
		}}}, nil, nil
	}
	if req.Params.RequestState != AskState {
		return nil, nil, fmt.Errorf("the retry's requestState %q is not the one this server gave", req.Params.RequestState)
	}
	r, ok := got.(*mcp.ElicitResult)
	if !ok {
		return nil, nil, fmt.Errorf("input response \"who\" is a %T", got)
	}
	name, _ := r.Content["name"].(string)
	return textResult(fmt.Sprintf("action=%s name=%s", r.Action, name)), nil, nil
}

// Asks is how many calls of the ask tool reached the server.
func (s *Server) Asks() int64 { return s.asks.Load() }

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// declares reports whether a request's per-request capabilities declare
// the tasks extension.
func declares(meta map[string]any) bool {
	caps, _ := meta[mcp.MetaKeyClientCapabilities].(map[string]any)
	ext, _ := caps["extensions"].(map[string]any)
	_, ok := ext[Extension]
	return ok
}

// taskMiddleware answers a research call from a client that declared the
// extension with a task.
func (s *Server) taskMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		p, ok := req.GetParams().(*mcp.CallToolParamsRaw)
		if !ok || (p.Name != "research" && p.Name != "clarify") || !declares(p.GetMeta()) {
			return next(ctx, method, req)
		}
		var a researchArgs
		if err := json.Unmarshal(p.Arguments, &a); err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		if a.Seconds <= 0 {
			a.Seconds = 2
		}
		a.clarify = p.Name == "clarify"
		return s.start(a), nil
	}
}

// wireTask is a task as the extension describes it (flat in results).
type wireTask struct {
	mcp.ResultBase
	ResultType     string              `json:"resultType,omitempty"`
	TaskID         string              `json:"taskId"`
	Status         string              `json:"status"`
	StatusMessage  string              `json:"statusMessage,omitempty"`
	CreatedAt      string              `json:"createdAt"`
	LastUpdatedAt  string              `json:"lastUpdatedAt"`
	TTLMs          int64               `json:"ttlMs"`
	PollIntervalMs int64               `json:"pollIntervalMs"`
	Result         *mcp.CallToolResult `json:"result,omitempty"`
	InputRequests  map[string]any      `json:"inputRequests,omitempty"`
}

func (s *Server) wire(t *task) *wireTask {
	return &wireTask{TaskID: t.id, Status: t.status, StatusMessage: t.message,
		CreatedAt: t.created.UTC().Format(time.RFC3339), LastUpdatedAt: t.updated.UTC().Format(time.RFC3339),
		TTLMs: int64(time.Hour / time.Millisecond), PollIntervalMs: s.o.PollIntervalMs}
}

func (s *Server) start(a researchArgs) *wireTask {
	ctx, cancel := context.WithCancel(context.Background())
	now := time.Now()
	t := &task{id: "task-" + strconv.FormatInt(s.seq.Add(1), 10), status: "working", message: "Starting", created: now, updated: now, cancel: cancel, answer: make(chan string, 1)}
	s.mu.Lock()
	s.tasks[t.id] = t
	w := s.wire(t)
	s.mu.Unlock()
	w.ResultType = "task"
	go s.work(ctx, t, a)
	s.created <- t.id
	return w
}

// work advances a task one step at a time until it completes or is
// cancelled.
func (s *Server) work(ctx context.Context, t *task, a researchArgs) {
	if a.clarify {
		s.clarify(ctx, t, a)
		return
	}
	steps := max(1, int(time.Duration(a.Seconds)*time.Second/s.o.Step))
	for i := 1; i <= steps; i++ {
		select {
		case <-ctx.Done():
			return
		case <-time.After(s.o.Step):
		}
		s.mu.Lock()
		if t.status != "working" {
			s.mu.Unlock()
			return
		}
		t.message, t.updated = fmt.Sprintf("Step %d of %d", i, steps), time.Now()
		if i == steps {
			t.status, t.message, t.result = "completed", "Done", textResult("Report on "+a.Topic+".")
		}
		s.mu.Unlock()
	}
}

// clarify asks which kind of topic is meant, waits for the answer, and
// completes.
func (s *Server) clarify(ctx context.Context, t *task, a researchArgs) {
	select {
	case <-ctx.Done():
		return
	case <-time.After(s.o.Step):
	}
	s.mu.Lock()
	t.status, t.message, t.updated = "input_required", "Which kind of "+a.Topic+"?", time.Now()
	t.inputRequests = map[string]any{"which": map[string]any{"method": "elicitation/create", "params": map[string]any{
		"mode": "form", "message": "Which kind of " + a.Topic + "?",
		"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"kind": map[string]any{"type": "string"}}, "required": []string{"kind"}},
	}}}
	s.mu.Unlock()
	var kind string
	select {
	case <-ctx.Done():
		return
	case kind = <-t.answer:
	}
	select {
	case <-ctx.Done():
		return
	case <-time.After(s.o.Step):
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.status == "working" {
		t.status, t.message, t.result, t.updated = "completed", "Done", textResult("Report on "+kind+" "+a.Topic+"."), time.Now()
	}
}

type updateParams struct {
	mcp.ParamsBase
	TaskID         string `json:"taskId"`
	InputResponses map[string]struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	} `json:"inputResponses"`
}

func (s *Server) update(_ context.Context, _ *mcp.ServerSession, p *updateParams) (*wireTask, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.lookup(p.TaskID)
	if err != nil {
		return nil, err
	}
	r, ok := p.InputResponses["which"]
	if t.status != "input_required" || !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "nothing asked"}
	}
	kind, _ := r.Content["kind"].(string)
	if r.Action != "accept" {
		kind = "any"
	}
	t.status, t.message, t.inputRequests, t.updated = "working", "Going on with "+kind, nil, time.Now()
	t.answer <- kind
	return s.wire(t), nil
}

type taskParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

func (s *Server) lookup(id string) (*task, error) {
	t := s.tasks[id]
	if t == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "unknown task " + strconv.Quote(id)}
	}
	return t, nil
}

func (s *Server) get(_ context.Context, _ *mcp.ServerSession, p *taskParams) (*wireTask, error) {
	s.gets.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.lookup(p.TaskID)
	if err != nil {
		return nil, err
	}
	w := s.wire(t)
	w.InputRequests = t.inputRequests
	if t.status == "completed" {
		w.Result = t.result
		s.results.Add(1)
	}
	return w, nil
}

func (s *Server) cancelTask(_ context.Context, _ *mcp.ServerSession, p *taskParams) (*wireTask, error) {
	s.cancels <- p.TaskID
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.lookup(p.TaskID)
	if err != nil {
		return nil, err
	}
	if t.status == "working" || t.status == "input_required" {
		t.status, t.message, t.updated = "cancelled", "Cancelled by the client", time.Now()
		t.cancel()
	}
	return s.wire(t), nil
}

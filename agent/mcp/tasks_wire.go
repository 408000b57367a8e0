package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"
	"unsafe"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tasks wire. go-sdk v1.8.0 has no tasks client. The tasks/* methods
// are not MCP's own, so they go through the SDK's custom-method support
// (taskCall; registered on every client by registerTaskMethods). Two
// standard methods cannot: their typed results drop what tasks need (a
// tool's execution.taskSupport in tools/list, a task handle in place of
// a tools/call result), their typed params cannot carry 2025-11-25's
// "task" parameter, and the SDK refuses a custom registration of a
// standard name. Only those two go through rawCall, which sends on the
// session's own JSON-RPC connection and returns the result as it came;
// every other use of the session stays typed.

// The two forms a server may speak.
const (
	// formExtension is the io.modelcontextprotocol/tasks extension of MCP
	// 2026-07-28: the client declares it, the server decides per call to
	// answer tools/call with a task (resultType "task"); tasks/get carries
	// the result, tasks/update the answers to its questions.
	formExtension = "2026-07-28"
	// formExperimental is 2025-11-25's experimental tasks: a tool says
	// execution.taskSupport, the client asks for a task with "task" in the
	// tools/call parameters, tasks/result returns the tool's result.
	formExperimental = "2025-11-25"
)

// tasksExtension is the extension's identifier.
const tasksExtension = "io.modelcontextprotocol/tasks"

// Task statuses.
const (
	taskWorking       = "working"
	taskInputRequired = "input_required"
	taskCompleted     = "completed"
	taskFailed        = "failed"
	taskCancelled     = "cancelled"
)

// maxTaskResponse bounds one tasks/* or tools/call response read here
// (a completed 2026 task carries the tool's result).
const maxTaskResponse = 8 << 20

var errRawUnavailable = errors.New("mcp: the session's connection cannot be reached for tasks")

// taskMethods are the tasks methods Juncture sends (none is a standard
// MCP method, so the SDK takes them as custom methods).
var taskMethods = []string{"tasks/get", "tasks/result", "tasks/update", "tasks/cancel"}

// taskParams are the params of a tasks/* request.
type taskParams struct {
	sdk.ParamsBase
	TaskID         string         `json:"taskId"`
	InputResponses map[string]any `json:"inputResponses,omitempty"`
}

// rawResult keeps a tasks/* result as it came: its two forms are read by
// readTask and wireTask.
type rawResult struct {
	sdk.ResultBase
	raw json.RawMessage
}

func (r *rawResult) UnmarshalJSON(b []byte) error {
	r.raw = append(json.RawMessage(nil), b...)
	return nil
}

// registerTaskMethods lets c's sessions send the tasks methods.
func registerTaskMethods(c *sdk.Client) error {
	for _, method := range taskMethods {
		if err := sdk.AddSendingCustomMethod[*taskParams, *rawResult](c, method); err != nil {
			return fmt.Errorf("registering %s: %w", method, err)
		}
	}
	return nil
}

// taskCall sends a tasks/* request through the SDK (which adds a 2026-07-28
// session's per-request _meta, and tells the server when ctx ends) and
// returns the raw result.
func taskCall(ctx context.Context, cs *sdk.ClientSession, method string, p *taskParams) (json.RawMessage, error) {
	res, err := sdk.CallCustomMethod[*taskParams, *rawResult](ctx, cs, method, p)
	if err != nil {
		return nil, err
	}
	return checkTaskResponse(method, res.raw)
}

// checkTaskResponse holds a tasks answer to maxTaskResponse.
func checkTaskResponse(method string, raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) > maxTaskResponse {
		return nil, fmt.Errorf("the server's answer to %s is %s, more than the %s allowed", method, humanSize(len(raw)), humanSize(maxTaskResponse))
	}
	return raw, nil
}

// rawCall sends method (tools/call or tools/list) with params on cs's
// connection and returns the raw result. It reaches the SDK's unexported
// connection by reflection (the SDK is pinned; TestTaskToolRunsAsTask
// fails loudly if its layout changes). Cancelling ctx abandons the wait;
// unlike the SDK's own calls, it sends no notifications/cancelled.
func rawCall(ctx context.Context, cs *sdk.ClientSession, method string, params map[string]any) (json.RawMessage, error) {
	if cs == nil {
		return nil, errRawUnavailable
	}
	f := reflect.ValueOf(cs).Elem().FieldByName("conn")
	if !f.IsValid() || f.Kind() != reflect.Pointer || f.IsNil() {
		return nil, errRawUnavailable
	}
	conn := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	call := conn.MethodByName("Call")
	if !call.IsValid() || call.Type().NumIn() != 3 || call.Type().NumOut() != 1 {
		return nil, errRawUnavailable
	}
	if params == nil {
		params = map[string]any{}
	}
	if newProtocol(cs) {
		injectMeta(cs, params)
	}
	async := call.Call([]reflect.Value{reflect.ValueOf(ctx), reflect.ValueOf(method), reflect.ValueOf(any(params))})[0]
	await := async.MethodByName("Await")
	if !await.IsValid() {
		return nil, errRawUnavailable
	}
	var raw json.RawMessage
	out := await.Call([]reflect.Value{reflect.ValueOf(ctx), reflect.ValueOf(any(&raw))})
	if err, _ := out[0].Interface().(error); err != nil {
		if ctx.Err() != nil {
			cancelRaw(ctx, conn, async)
		}
		return nil, err
	}
	return checkTaskResponse(method, raw)
}

// cancelRaw does for a raw call what the SDK does for its own when the
// caller's context ends: it retires the call (its answer, if it ever comes,
// is dropped) and tells the server with notifications/cancelled naming the
// request, sent off the caller's path so a slow server cannot hold Stop up.
func cancelRaw(ctx context.Context, conn, async reflect.Value) {
	retire, notify, id := conn.MethodByName("Retire"), conn.MethodByName("Notify"), async.MethodByName("ID")
	if !retire.IsValid() || !notify.IsValid() || !id.IsValid() {
		return
	}
	raw := id.Call(nil)[0].MethodByName("Raw")
	if !raw.IsValid() {
		return
	}
	reqID := raw.Call(nil)[0].Interface()
	retire.Call([]reflect.Value{async, reflect.ValueOf(ctx.Err())})
	go func() {
		nctx, done := context.WithTimeout(context.WithoutCancel(ctx), cancelNoticeTimeout)
		defer done()
		notify.Call([]reflect.Value{reflect.ValueOf(nctx), reflect.ValueOf(notificationCancelled),
			reflect.ValueOf(any(&sdk.CancelledParams{Reason: ctx.Err().Error(), RequestID: reqID}))})
	}()
}

// cancelNoticeTimeout bounds the notifications/cancelled sent after a raw
// call is stopped (the SDK's own bound for its calls).
const cancelNoticeTimeout = 5 * time.Second

const notificationCancelled = "notifications/cancelled"

// newProtocol: the session speaks 2026-07-28 or later, where every request
// carries the protocol version and the client's capabilities.
func newProtocol(cs *sdk.ClientSession) bool {
	r := cs.InitializeResult()
	return r != nil && r.ProtocolVersion >= mrtrVersion
}

// injectMeta adds what the SDK adds to its own requests on a 2026-07-28
// session: the protocol version, who the client is, and its capabilities
// (the tasks extension among them: the server creates a task only for a
// request that declares it).
func injectMeta(cs *sdk.ClientSession, params map[string]any) {
	meta, _ := params["_meta"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	meta[sdk.MetaKeyProtocolVersion] = cs.InitializeResult().ProtocolVersion
	meta[sdk.MetaKeyClientInfo] = map[string]any{"name": "juncture", "title": "Juncture"}
	meta[sdk.MetaKeyClientCapabilities] = map[string]any{
		"elicitation": map[string]any{"form": map[string]any{}, "url": map[string]any{}},
		"extensions":  map[string]any{tasksExtension: map[string]any{}},
	}
	params["_meta"] = meta
}

// wireTask is a task as tasks/get (and a task handle) describes it; the
// 2026 form flattens it into the result, 2025's nests it in "task".
type wireTask struct {
	TaskID         string          `json:"taskId"`
	Status         string          `json:"status"`
	StatusMessage  string          `json:"statusMessage,omitempty"`
	PollIntervalMs *int64          `json:"pollIntervalMs,omitempty"`
	PollInterval   *int64          `json:"pollInterval,omitempty"` // 2025-11-25
	TTLMs          *int64          `json:"ttlMs,omitempty"`
	TTL            *int64          `json:"ttl,omitempty"` // 2025-11-25
	Result         json.RawMessage `json:"result,omitempty"`
	Error          *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
	InputRequests map[string]json.RawMessage `json:"inputRequests,omitempty"`
}

func (t wireTask) pollMs() int64 {
	switch {
	case t.PollIntervalMs != nil:
		return *t.PollIntervalMs
	case t.PollInterval != nil:
		return *t.PollInterval
	}
	return 0
}

// readTask reads a task from a tools/call or tasks/get result: nil when
// the result is not a task (a plain tool result).
func readTask(raw json.RawMessage) (*wireTask, error) {
	var probe struct {
		ResultType string          `json:"resultType"`
		Task       json.RawMessage `json:"task"`
		TaskID     string          `json:"taskId"`
	}
	if err := json.Unmarshal(raw, &probe); err != nil {
		return nil, fmt.Errorf("the answer is not a JSON object: %w", err)
	}
	body := raw
	switch {
	case len(probe.Task) > 0 && string(probe.Task) != "null":
		body = probe.Task
	case probe.ResultType == "task" || probe.TaskID != "":
	default:
		return nil, nil
	}
	var t wireTask
	if err := json.Unmarshal(body, &t); err != nil {
		return nil, fmt.Errorf("the task is not readable: %w", err)
	}
	if t.TaskID == "" {
		return nil, errors.New("the task has no id")
	}
	if len(t.TaskID) > 512 {
		return nil, errors.New("the task's id is longer than 512 bytes")
	}
	if len(probe.Task) > 0 && string(probe.Task) != "null" {
		// 2025-11-25 puts the rest of the result beside "task".
		var rest wireTask
		if json.Unmarshal(raw, &rest) == nil && len(t.Result) == 0 {
			t.Result = rest.Result
		}
	}
	return &t, nil
}

// taskSupport is a session's tools' execution.taskSupport, read once per
// session (tools/list again, raw: the SDK's Tool has no execution). It
// lives in the session, so it goes when the session does.
type taskSupport struct {
	mu    sync.Mutex
	read  bool // tools is the listing's; a call stopped while reading leaves it unread
	tools map[string]string
}

// taskListTimeout bounds the extra tools/list (a server that does not
// answer it costs its first call this long, once per session).
const taskListTimeout = 5 * time.Second

func toolTaskSupport(ctx context.Context, sess *session, tool string) string {
	ts := &sess.taskTools
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if !ts.read {
		ts.tools = readTaskSupport(ctx, sess)
		// A listing cut short by the call's Stop says nothing of the
		// tools: the next call reads it again.
		ts.read = ctx.Err() == nil
	}
	return ts.tools[tool]
}

// readTaskSupport lists the session's tools' task support, within
// taskListTimeout.
func readTaskSupport(ctx context.Context, sess *session) map[string]string {
	ctx, cancel := context.WithTimeout(ctx, taskListTimeout)
	defer cancel()
	support := map[string]string{}
	// Within the budgets of every listing (listPages); a page that
	// fails or does not read ends it with what was read.
	_, _ = listPages(ctx, func(ctx context.Context, cursor string) (int, string, error) {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		raw, err := rawCall(ctx, sess.cs, "tools/list", params)
		if err != nil {
			return 0, "", err
		}
		var res struct {
			Tools []struct {
				Name      string `json:"name"`
				Execution *struct {
					TaskSupport string `json:"taskSupport"`
				} `json:"execution"`
			} `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			return 0, "", err
		}
		for _, t := range res.Tools {
			if t.Execution != nil {
				support[t.Name] = t.Execution.TaskSupport
			}
		}
		return len(res.Tools), res.NextCursor, nil
	})
	return support
}

// taskForm says how a call of tool on cs runs: as a task of the extension
// (the server declared it: it decides per call), as a 2025-11-25 task (the
// tool supports tasks), or "" (a plain call).
func taskForm(ctx context.Context, sess *session, tool string) string {
	if r := sess.cs.InitializeResult(); r != nil && r.Capabilities != nil {
		if _, ok := r.Capabilities.Extensions[tasksExtension]; ok {
			return formExtension
		}
	}
	switch toolTaskSupport(ctx, sess, tool) {
	case "optional", "required":
		return formExperimental
	}
	return ""
}

package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/juncture-app/juncture/agent/tools"
)

// Tasks: calls that take minutes and outlive the app. A call the server
// answers with a task is polled until the task ends; its handle (server,
// task id, form) is kept with the call (tools.RecordTask) before polling
// starts, so after a restart the app resumes it (ResumeTask) and the
// result reaches the model once. Stop cancels the task (tasks/cancel);
// quitting leaves it running at the server.

// Budgets of one task.
const (
	// pollFloor is the shortest wait between two tasks/get, whatever the
	// server suggests; pollCeiling the longest.
	pollFloor   = 500 * time.Millisecond
	pollCeiling = 30 * time.Second
	// maxTaskLifetime ends a task that is still not done this long after
	// it was created (it is cancelled and the call fails).
	maxTaskLifetime = 24 * time.Hour
	// taskUnreachable is how long polling goes on while the server cannot
	// be reached (restarting, offline) before the outcome is unknown.
	taskUnreachable = 2 * time.Minute
	// cancelTimeout bounds the tasks/cancel sent on Stop.
	cancelTimeout = 5 * time.Second
	// taskRequestTimeout bounds one tasks/get (a server that does not
	// answer is unreachable, and polled again).
	taskRequestTimeout = 30 * time.Second
	// maxTaskQuestions bounds the questions one task may ask.
	maxTaskQuestions = 10
	// defaultTaskTTL is the ttl asked for in a 2025-11-25 task request.
	defaultTaskTTL = int64(24 * time.Hour / time.Millisecond)
)

// TaskHandle is what is kept with a call that runs as a task.
type TaskHandle struct {
	Server    string `json:"server"`
	Tool      string `json:"tool"`
	ID        string `json:"id"`
	Form      string `json:"form"`
	CreatedAt int64  `json:"createdAt"` // Unix ms, by Juncture's clock
}

func (h TaskHandle) encode() json.RawMessage {
	b, _ := json.Marshal(struct {
		Task TaskHandle `json:"task"`
	}{h})
	return b
}

// DecodeTaskHandle reads a kept handle.
func DecodeTaskHandle(raw json.RawMessage) (TaskHandle, error) {
	var w struct {
		Task TaskHandle `json:"task"`
	}
	if err := json.Unmarshal(raw, &w); err != nil || w.Task.Server == "" || w.Task.ID == "" {
		return TaskHandle{}, fmt.Errorf("mcp: not a task handle: %s", shorten(string(raw), 120))
	}
	return w.Task, nil
}

// unknownOutcome is the result of a task Juncture cannot follow any more.
func unknownOutcome(h TaskHandle, why string) tools.Result {
	return tools.Result{IsError: true, Content: fmt.Sprintf(
		"The task's outcome is unknown: %s (task %s of the MCP server %q). Its side effects are unknown.", why, h.ID, h.Server)}
}

// detachedResult is what a task call returns when the app quits: nobody
// reads it (the runtime leaves the call running, to be resumed).
var detachedResult = tools.Result{IsError: true, Content: "The app quit while the task ran; it is resumed at the next start."}

// callTask makes a call that may become a task. A plain answer may be a
// round of a 2026-07-28 multi round-trip: callRounds runs the rounds, as
// for any call, with each round sent raw (rawToolCall).
func (m *Manager) callTask(ctx context.Context, s *supervisor, sess *session, tool string, args json.RawMessage, form string) tools.Result {
	c, done := s.calls.begin(ctx)
	defer done()
	params := &sdk.CallToolParams{Name: tool, Arguments: args}
	params.SetProgressToken(c.token)
	var task *wireTask
	res, input, err := m.callRounds(c.ctx, s, params, func(ctx context.Context, p *sdk.CallToolParams) (*sdk.CallToolResult, error) {
		raw, err := rawCall(ctx, sess.cs, "tools/call", rawToolCall(sess, p, form))
		if err != nil {
			return nil, err
		}
		t, err := readTask(raw)
		if err != nil {
			return nil, &errUnreadable{fmt.Sprintf("The MCP server %q sent a task Juncture could not read (%s); side effects unknown.", s.name, err)}
		}
		if t != nil {
			task = t
			return &sdk.CallToolResult{}, nil // not a round: callRounds returns it
		}
		var res sdk.CallToolResult
		if err := json.Unmarshal(raw, &res); err != nil {
			return nil, &errUnreadable{unreadableResult(err)}
		}
		return &res, nil
	})
	var bad *errUnreadable
	switch {
	case input != nil:
		return inputResult(s.name, input)
	case task != nil:
		return m.startTask(ctx, c.ctx, s, tool, form, task)
	case err == nil:
		return ConvertResult(res)
	case errors.As(err, &bad):
		return tools.Result{IsError: true, Content: bad.content}
	}
	if r, ok := roundResult(s.name, err); ok {
		return r
	}
	if ctx.Err() != nil {
		return stoppedResult
	}
	return m.failedCall(s.name, sess, err)
}

// errUnreadable is an answer to a raw tools/call Juncture could not read;
// content is what the model reads.
type errUnreadable struct{ content string }

func (e *errUnreadable) Error() string { return e.content }

// rawToolCall is a round of a call as the raw tools/call sends it: with
// 2025-11-25's "task" parameter, or, on a session older than 2026-07-28,
// the extension declared in the request (the server decides per request).
func rawToolCall(sess *session, p *sdk.CallToolParams, form string) map[string]any {
	meta := map[string]any{}
	for k, v := range p.Meta {
		meta[k] = v
	}
	params := map[string]any{"name": p.Name, "arguments": p.Arguments, "_meta": meta}
	if form == formExperimental {
		params["task"] = map[string]any{"ttl": defaultTaskTTL}
	} else if !newProtocol(sess.cs) {
		injectMeta(sess.cs, params)
	}
	if p.InputResponses != nil {
		params["inputResponses"] = p.InputResponses
	}
	if p.RequestState != "" {
		params["requestState"] = p.RequestState
	}
	return params
}

// startTask keeps the handle of a call the server answered with a task,
// then follows the task (pollCtx: the call's context, which progress
// reports ride on).
func (m *Manager) startTask(ctx, pollCtx context.Context, s *supervisor, tool, form string, t *wireTask) tools.Result {
	h := TaskHandle{Server: s.name, Tool: tool, ID: t.TaskID, Form: form, CreatedAt: m.now().UnixMilli()}
	if err := tools.RecordTask(ctx, h.encode()); err != nil && !errors.Is(err, tools.ErrNoTaskStore) {
		// Not kept: it could not be resumed, so it does not go on.
		m.cancelTask(s, h)
		return tools.Result{IsError: true, Content: "The task was cancelled: Juncture could not keep its handle (" + shorten(err.Error(), 200) + ")."}
	}
	s.log.Note(notePrefix + fmt.Sprintf("tool %q runs as task %s (%s)", tool, t.TaskID, form))
	return m.followTask(pollCtx, s, h, t)
}

// unreadableResult is what the model reads of a tool result that could
// not be read.
func unreadableResult(err error) string {
	return "The tool's result could not be read: " + shorten(err.Error(), 200)
}

// plainResult reads a completed task's tool result.
func plainResult(raw json.RawMessage) tools.Result {
	var res sdk.CallToolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return tools.Result{IsError: true, Content: unreadableResult(err)}
	}
	if res.NeedsInput() {
		// A task asks through its status (input_required), not through
		// its result.
		return tools.Result{IsError: true, Content: "The MCP server's task ended asking for input, which Juncture cannot answer after the task; the call was not completed."}
	}
	return ConvertResult(&res)
}

// ResumeTask follows a task kept with a call after the app restarted:
// it waits for the server to be ready, then polls the task as the call
// did. A server that lost the task gives "the task's outcome is unknown".
func (m *Manager) ResumeTask(ctx context.Context, raw json.RawMessage) tools.Result {
	h, err := DecodeTaskHandle(raw)
	if err != nil {
		return tools.Result{IsError: true, Content: "The task's outcome is unknown: its handle could not be read."}
	}
	s := m.lookup(h.Server)
	if s == nil {
		return unknownOutcome(h, "the server is not configured any more")
	}
	c, done := s.calls.begin(ctx)
	defer done()
	return m.followTask(c.ctx, s, h, nil)
}

// followTask polls a task until it ends, reporting its status as the
// call's progress. t is the task as last seen (nil: not seen yet).
func (m *Manager) followTask(ctx context.Context, s *supervisor, h TaskHandle, t *wireTask) tools.Result {
	wait := pollFloor
	if t != nil {
		wait = pollWait(t)
		reportTask(ctx, t)
	}
	var unreachableSince time.Time
	asked := map[string]bool{}
	for {
		if t != nil {
			switch t.Status {
			case taskCompleted:
				return m.taskResult(ctx, s, h, t)
			case taskFailed:
				msg := t.StatusMessage
				if t.Error != nil && t.Error.Message != "" {
					msg = t.Error.Message
				}
				return tools.Result{IsError: true, Content: fmt.Sprintf("The task failed at the MCP server %q: %s", s.name, orDefault(shorten(msg, 2000), "no reason given"))}
			case taskCancelled:
				return tools.Result{IsError: true, Content: fmt.Sprintf("The task was cancelled by the MCP server %q%s.", s.name, suffix(": ", shorten(t.StatusMessage, 500)))}
			case taskInputRequired:
				if res, ok := m.taskInput(ctx, s, h, t, asked); ok {
					return res
				}
			}
		}
		if time.Since(time.UnixMilli(h.CreatedAt)) > maxTaskLifetime {
			m.cancelTask(s, h)
			return tools.Result{IsError: true, Content: fmt.Sprintf("The task ran longer than %s and was cancelled.", maxTaskLifetime)}
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return m.taskStopped(ctx, s, h)
		case <-timer.C:
		}
		next, err := m.getTask(ctx, s, h)
		var rpcErr *jsonrpc.Error
		switch {
		case err == nil:
			unreachableSince = time.Time{}
			t, wait = next, pollWait(next)
			reportTask(ctx, t)
		case ctx.Err() != nil:
			return m.taskStopped(ctx, s, h)
		case errors.As(err, &rpcErr):
			// The server answers but does not know the task: its task
			// store went with an old session or process.
			return unknownOutcome(h, "the server no longer knows the task ("+shorten(rpcErr.Message, 200)+")")
		default:
			if unreachableSince.IsZero() {
				unreachableSince = time.Now()
			}
			if time.Since(unreachableSince) > taskUnreachable {
				return unknownOutcome(h, "the server could not be reached for "+taskUnreachable.String()+" ("+shorten(err.Error(), 200)+")")
			}
			wait = pollFloor
		}
	}
}

// pollWait is the server's suggested interval within the budgets.
func pollWait(t *wireTask) time.Duration {
	d := time.Duration(t.pollMs()) * time.Millisecond
	return min(max(d, pollFloor), pollCeiling)
}

// reportTask shows the task's status and message in the tool block.
func reportTask(ctx context.Context, t *wireTask) {
	msg := "Task " + strings.ReplaceAll(t.Status, "_", " ")
	if t.StatusMessage != "" {
		msg += ": " + shorten(t.StatusMessage, 300)
	}
	tools.ReportProgress(ctx, tools.Progress{Message: msg})
}

// session returns the server's current session, or an error that keeps
// the poll waiting (the server restarts, connects).
func (s *supervisor) taskSession() (*session, error) {
	sess, st := s.ready()
	if sess == nil {
		return nil, fmt.Errorf("the server is not ready (%s)", describeStatus(st))
	}
	return sess, nil
}

// getTask asks the server for the task's state.
func (m *Manager) getTask(ctx context.Context, s *supervisor, h TaskHandle) (*wireTask, error) {
	sess, err := s.taskSession()
	if err != nil {
		return nil, err
	}
	rctx, cancel := context.WithTimeout(ctx, taskRequestTimeout)
	defer cancel()
	raw, err := taskCall(rctx, sess.cs, "tasks/get", &taskParams{TaskID: h.ID})
	if err != nil {
		return nil, err
	}
	var t wireTask
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "its answer to tasks/get is not readable"}
	}
	if nested, err := readTask(raw); err == nil && nested != nil {
		t = *nested
	}
	if t.TaskID != "" && t.TaskID != h.ID {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "it answered about another task"}
	}
	return &t, nil
}

// taskResult fetches a completed task's result: inline in the 2026 form,
// from tasks/result in 2025's.
func (m *Manager) taskResult(ctx context.Context, s *supervisor, h TaskHandle, t *wireTask) tools.Result {
	raw := t.Result
	if len(raw) == 0 || string(raw) == "null" {
		sess, err := s.taskSession()
		if err == nil {
			raw, err = taskCall(ctx, sess.cs, "tasks/result", &taskParams{TaskID: h.ID})
		}
		if err != nil {
			if ctx.Err() != nil {
				return m.taskStopped(ctx, s, h)
			}
			return unknownOutcome(h, "the task completed but its result could not be fetched ("+shorten(err.Error(), 200)+")")
		}
	}
	return plainResult(raw)
}

// taskInput answers a task that needs input. 2025-11-25: tasks/result
// carries the server's questions (elicitation, sampling) as requests
// related to the task, which reach the person through the session's
// handlers like any mid-call question, and returns the result once the
// task ends. 2026-07-28: the questions are in inputRequests; each new
// form question is asked (tools.Ask: the run pauses on it) and the
// answers go back with tasks/update. ok is false when polling goes on.
func (m *Manager) taskInput(ctx context.Context, s *supervisor, h TaskHandle, t *wireTask, asked map[string]bool) (tools.Result, bool) {
	if h.Form == formExperimental {
		return m.taskResult(ctx, s, h, &wireTask{}), true
	}
	responses := map[string]any{}
	for key, req := range t.InputRequests {
		if asked[key] {
			continue
		}
		if len(asked) >= maxTaskQuestions {
			m.cancelTask(s, h)
			return tools.Result{IsError: true, Content: fmt.Sprintf("The task asked more than %d questions and was cancelled.", maxTaskQuestions)}, true
		}
		asked[key] = true
		resp, err := askInput(ctx, s, req)
		if ctx.Err() != nil {
			// Stopped or quitting while the question waited: the task is
			// cancelled or left to be resumed (and asked again), never
			// answered on the person's behalf.
			return m.taskStopped(ctx, s, h), true
		}
		if err != nil {
			return tools.Result{IsError: true, Content: "The task needs input Juncture cannot give: " + err.Error()}, true
		}
		responses[key] = resp
	}
	if len(responses) == 0 {
		return tools.Result{}, false
	}
	sess, err := s.taskSession()
	if err == nil {
		_, err = taskCall(ctx, sess.cs, "tasks/update", &taskParams{TaskID: h.ID, InputResponses: responses})
	}
	if err != nil && ctx.Err() == nil {
		s.log.Note(notePrefix + "could not give the task its answers: " + shorten(err.Error(), 200))
	}
	return tools.Result{}, false
}

// askInput asks the person one of a task's questions (an elicitation
// request; others are not answered here) and returns the response.
func askInput(ctx context.Context, s *supervisor, raw json.RawMessage) (any, error) {
	var req struct {
		Method string           `json:"method"`
		Params sdk.ElicitParams `json:"params"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, errors.New("a question could not be read")
	}
	if req.Method != "elicitation/create" {
		return nil, fmt.Errorf("the server asks %q, which a task cannot ask here", shorten(req.Method, 60))
	}
	res, err := s.elicit(ctx, &sdk.ElicitRequest{Params: &req.Params})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// taskStopped ends a task call whose context ended: the app quits (the
// task is left running, to be resumed) or the person pressed Stop (the
// task is cancelled at once).
func (m *Manager) taskStopped(ctx context.Context, s *supervisor, h TaskHandle) tools.Result {
	if tools.Closing(ctx) {
		return detachedResult
	}
	m.cancelTask(s, h)
	return stoppedResult
}

// cancelTask sends tasks/cancel, bounded; a failure is only logged.
func (m *Manager) cancelTask(s *supervisor, h TaskHandle) {
	sess, err := s.taskSession()
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), cancelTimeout)
		_, err = taskCall(ctx, sess.cs, "tasks/cancel", &taskParams{TaskID: h.ID})
		cancel()
	}
	if err != nil {
		s.log.Note(notePrefix + fmt.Sprintf("could not cancel task %s: %s", h.ID, shorten(err.Error(), 200)))
		return
	}
	s.log.Note(notePrefix + fmt.Sprintf("cancelled task %s", h.ID))
}

func suffix(sep, s string) string {
	if s == "" {
		return ""
	}
	return sep + s
}

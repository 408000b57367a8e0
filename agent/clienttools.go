package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
)

// ErrNoClientCall is returned when a result names no pending client call.
var ErrNoClientCall = errors.New("agent: no client tool call is waiting with this id")

// ResultClientCancelled is the tool result of a client call the person
// cancelled.
const ResultClientCancelled = history.ResultInterrupted + ": the person cancelled this action."

// ClientToolResult is the outcome of a tool the app window ran. Cancelled
// means the person cancelled it (Content is then ignored).
type ClientToolResult struct {
	ToolCallID string `json:"toolCallId"`
	Content    string `json:"content"`
	IsError    bool   `json:"isError,omitempty"`
	Cancelled  bool   `json:"cancelled,omitempty"`
}

// pendClient hands a client tool call to the window: it is recorded
// pending with the arguments to run (the approved ones when the person
// edited them), and the window is told exactly those. A call already
// recorded is never pended again. It reports whether the call now waits on
// the window (false: it got its result here).
func (tr *turn) pendClient(call history.ToolCall, edited bool) bool {
	rt, tid := tr.rt, tr.run.ThreadID
	prepared, bad := tr.tools.Prepare(call.Name, call.Arguments)
	if bad != nil {
		tr.toolResult(call, *bad, contract.ToolFailed)
		return false
	}
	if prepared.Tool.Name == tools.ToolOpenURL {
		var a struct{ URL string }
		if err := json.Unmarshal(prepared.Args, &a); err != nil || !tools.ValidOpenURL(a.URL) {
			tr.toolResult(call, tools.Result{Content: "open_url needs an absolute http:// or https:// address with a host.", IsError: true}, contract.ToolFailed)
			return false
		}
	}
	args := string(prepared.Args)
	prior, err := rt.st.ClientToolCall(tr.save, tid, call.ID)
	switch {
	case err == nil && prior.State == history.ClientToolPending:
		args = prior.Arguments // still waiting (a replay): keep it
	case err == nil:
		res := tools.Result{Content: prior.Result, IsError: prior.State == history.ClientToolCancelled}
		tr.toolResult(call, res, stateOf(res))
		return false
	case !errors.Is(err, history.ErrNotFound):
		tr.toolResult(call, tools.Result{Content: "Not run: the app could not record the call: " + err.Error(), IsError: true}, contract.ToolFailed)
		return false
	default:
		c := history.ClientToolCall{ToolCallID: call.ID, ThreadID: tid, RunID: tr.run.ID, ToolName: call.Name,
			Arguments: args, State: history.ClientToolPending, CreatedAt: rt.now()}
		if err := rt.st.PutClientToolCall(tr.save, c); err != nil {
			tr.toolResult(call, tools.Result{Content: "Not run: the app could not record the call: " + err.Error(), IsError: true}, contract.ToolFailed)
			return false
		}
	}
	rt.emit(tid, agui.NewCustom(contract.CustomToolState, contract.ToolStateEvent{
		ToolCallID: call.ID, State: contract.ToolPendingClient, ToolName: call.Name, Arguments: args, Edited: edited,
	}))
	return true
}

// clientDecision turns a window's result into the call's decision: the
// model reads the result (after a note when the person had edited the
// arguments), and the record's final state is settled with the batch.
func clientDecision(c history.ClientToolCall, r ClientToolResult, original history.ToolCall) (decision, history.ClientToolCall) {
	call := history.ToolCall{ID: c.ToolCallID, Name: c.ToolName, Arguments: c.Arguments}
	d := decision{call: call, result: r.Content, state: contract.ToolDone, isError: r.IsError}
	c.State = history.ClientToolDone
	switch {
	case r.Cancelled:
		d.result, d.state, d.isError = ResultClientCancelled, contract.ToolInterrupted, true
		c.State = history.ClientToolCancelled
	case r.IsError:
		d.state = contract.ToolFailed
	}
	c.Result = d.result
	if original.ID != "" && !sameJSON(original.Arguments, c.Arguments) {
		d.result = editedNote(c.Arguments) + d.result
	}
	return d, c
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return a == b
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

// PendingClientTools returns the thread's pending client tool calls.
func (rt *Runtime) PendingClientTools(ctx context.Context, threadID string) ([]history.ClientToolCall, error) {
	cs, err := rt.st.PendingClientToolCalls(ctx, threadID)
	if err != nil {
		return nil, fmt.Errorf("loading the window's pending actions: %w", err)
	}
	return cs, nil
}

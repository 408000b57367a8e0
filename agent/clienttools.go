package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
	"github.com/juncture-app/juncture/store"
)

// Errors of client tool results.
var (
	ErrNoClientCall = errors.New("no client tool call is waiting with this id")
)

// ResultClientCancelled is the tool result of a client call the person
// cancelled.
const ResultClientCancelled = history.ResultInterrupted + ": the person cancelled this action."

// ClientToolResult is the outcome of a tool the app window ran. Cancelled
// means the person cancelled it (Content is then ignored).
type ClientToolResult struct {
	ToolCallID string
	Content    string
	IsError    bool
	Cancelled  bool
}

type clientResult struct {
	call history.ToolCall
	res  ClientToolResult
}

// pendClient records a client tool call as pending: the app window runs
// it and reports with CompleteClientTools. A call already recorded is
// never pended again.
func (tr *turn) pendClient(call history.ToolCall, prepared tools.Call) {
	rt, tid := tr.rt, tr.run.ThreadID
	if prepared.Tool.Name == tools.ToolOpenURL {
		var a struct{ URL string }
		if err := json.Unmarshal(prepared.Args, &a); err != nil || !tools.ValidOpenURL(a.URL) {
			tr.toolResult(call, tools.Result{Content: "open_url needs an absolute http:// or https:// address with a host.", IsError: true}, ToolFailed)
			return
		}
	}
	prior, err := rt.opts.Store.ClientToolCall(tr.save, call.ID)
	switch {
	case err == nil && prior.State == history.ClientToolPending:
		// Still waiting (a replay): keep it.
	case err == nil:
		res := tools.Result{Content: prior.Result, IsError: prior.State == history.ClientToolCancelled}
		tr.toolResult(call, res, stateOf(res))
		return
	case !errors.Is(err, store.ErrNotFound):
		tr.toolResult(call, tools.Result{Content: "Not run: the app could not record the call: " + err.Error(), IsError: true}, ToolFailed)
		return
	default:
		c := history.ClientToolCall{ToolCallID: call.ID, ThreadID: tid, RunID: tr.run.ID, ToolName: call.Name,
			Arguments: string(prepared.Args), State: history.ClientToolPending, CreatedAt: rt.now()}
		if err := rt.opts.Store.PutClientToolCall(tr.save, c); err != nil {
			tr.toolResult(call, tools.Result{Content: "Not run: the app could not record the call: " + err.Error(), IsError: true}, ToolFailed)
			return
		}
	}
	rt.emit(tid, agui.NewCustom(CustomToolState, map[string]any{"toolCallId": call.ID, "state": ToolPendingClient}))
}

// clientPending ends the run with the pending client calls of the
// thread, if any (RUN_FINISHED success with pendingToolCallIds).
func (tr *turn) clientPending() ending {
	pending, err := tr.rt.opts.Store.PendingClientToolCalls(tr.save, tr.run.ThreadID)
	if err != nil {
		return tr.fail(fmt.Errorf("loading client tool calls: %w", err), "")
	}
	if len(pending) == 0 {
		return endSuccess
	}
	tr.clientIDs = make([]string, 0, len(pending))
	for _, c := range pending {
		tr.clientIDs = append(tr.clientIDs, c.ToolCallID)
	}
	return endClientPending
}

// cancelClients answers every pending client call of the thread with text.
func (tr *turn) cancelClients(text, state string) []string {
	rt, tid := tr.rt, tr.run.ThreadID
	pending, err := rt.opts.Store.PendingClientToolCalls(tr.save, tid)
	if err != nil {
		rt.log.Error("loading pending client tool calls", "thread", tid, "err", err)
		return nil
	}
	rt.clientMu.Lock()
	delete(rt.staged, tid)
	rt.clientMu.Unlock()
	var runs []string
	for _, c := range pending {
		c.State, c.Result = history.ClientToolCancelled, text
		if err := rt.opts.Store.PutClientToolCall(tr.save, c); err != nil {
			rt.log.Error("cancelling a client tool call", "thread", tid, "err", err)
			continue
		}
		tr.toolResult(history.ToolCall{ID: c.ToolCallID, Name: c.ToolName, Arguments: c.Arguments}, tools.Result{Content: text, IsError: true}, state)
		runs = append(runs, c.RunID)
	}
	return runs
}

// applyClientResults records the results of a continuation's client calls.
func (tr *turn) applyClientResults(rs []clientResult) ending {
	for _, r := range rs {
		c := history.ClientToolCall{ToolCallID: r.call.ID, ThreadID: tr.run.ThreadID, ToolName: r.call.Name, Arguments: r.call.Arguments}
		if prior, err := tr.rt.opts.Store.ClientToolCall(tr.save, r.call.ID); err == nil {
			if prior.State != history.ClientToolPending {
				continue // answered meanwhile (new input cancelled it): one result only
			}
			c = prior
		}
		res, state := tools.Result{Content: r.res.Content, IsError: r.res.IsError}, ToolDone
		c.State = history.ClientToolDone
		switch {
		case r.res.Cancelled:
			res, state, c.State = tools.Result{Content: ResultClientCancelled, IsError: true}, ToolInterrupted, history.ClientToolCancelled
		case r.res.IsError:
			state = ToolFailed
		}
		c.Result = res.Content
		if err := tr.rt.opts.Store.PutClientToolCall(tr.save, c); err != nil {
			return tr.fail(fmt.Errorf("recording a client tool result: %w", err), "")
		}
		tr.toolResult(r.call, res, state)
	}
	return endSuccess
}

// CompleteClientTools reports results of tools the app window ran. Results
// are kept until every pending client call of the same run has one; then
// a continuation run (runID, generated when empty; parentRunId = the run
// that asked) records them as tool messages and continues the model loop.
// It returns the ids still waiting (empty once the continuation started).
// ErrNoClientCall: an id is not pending in this thread; ErrBusy: a turn
// runs.
func (rt *Runtime) CompleteClientTools(ctx context.Context, threadID string, results []ClientToolResult, runID string) ([]string, error) {
	if len(results) == 0 {
		return nil, fmt.Errorf("completing client tools: no results")
	}
	if _, err := rt.opts.Model(); err != nil {
		return nil, err
	}
	rt.clientMu.Lock()
	defer rt.clientMu.Unlock()
	rt.mu.Lock()
	t := rt.handle(threadID)
	busy, closed := t.running, rt.closed
	rt.mu.Unlock()
	switch {
	case closed:
		return nil, ErrClosed
	case busy:
		return nil, ErrBusy
	}
	pending, err := rt.opts.Store.PendingClientToolCalls(ctx, threadID)
	if err != nil {
		return nil, err
	}
	byID := map[string]history.ClientToolCall{}
	for _, c := range pending {
		byID[c.ToolCallID] = c
	}
	runOf := ""
	for _, r := range results {
		c, ok := byID[r.ToolCallID]
		if !ok {
			return nil, fmt.Errorf("%w: %s", ErrNoClientCall, r.ToolCallID)
		}
		if runOf == "" {
			runOf = c.RunID
		}
	}
	staged := rt.staged[threadID]
	if staged == nil {
		staged = map[string]clientResult{}
		rt.staged[threadID] = staged
	}
	for _, r := range results {
		c := byID[r.ToolCallID]
		staged[r.ToolCallID] = clientResult{call: history.ToolCall{ID: c.ToolCallID, Name: c.ToolName, Arguments: c.Arguments}, res: r}
	}
	var waiting []string
	var ready []clientResult
	for _, c := range pending {
		if c.RunID != runOf {
			continue
		}
		r, ok := staged[c.ToolCallID]
		if !ok {
			waiting = append(waiting, c.ToolCallID)
			continue
		}
		ready = append(ready, r)
	}
	if len(waiting) > 0 {
		return waiting, nil
	}
	for _, r := range ready {
		delete(staged, r.call.ID)
	}
	if runID == "" {
		runID = NewID("run")
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.closed {
		return nil, ErrClosed
	}
	in := Input{ThreadID: threadID, RunID: runID, ParentRunID: runOf, kind: kindClientResults, clientResults: ready}
	if t.running {
		t.queue = append(t.queue, in)
		rt.publishQueue(t)
		return []string{}, nil
	}
	rt.launch(t, in)
	return []string{}, nil
}

// PendingClientTools returns the thread's pending client tool calls.
func (rt *Runtime) PendingClientTools(ctx context.Context, threadID string) ([]history.ClientToolCall, error) {
	return rt.opts.Store.PendingClientToolCalls(ctx, threadID)
}

package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
)

// Tool states shown in the UI (docs/contract.md).
const (
	ToolRunning          = "running"
	ToolDone             = "done"
	ToolFailed           = "failed"
	ToolDenied           = "denied"
	ToolInterrupted      = "interrupted"
	ToolInterruptedMidRn = "interrupted-mid-run"
	ToolAwaitingApproval = "awaiting-approval"
	ToolAwaitingAnswer   = "awaiting-answer" // ask_user waits for the person
	ToolPendingClient    = "pending-client"  // the app window runs it
)

// runTools executes the calls of one assistant message in order
// (situation 3 of Stop: a running MustComplete tool finishes, an Abortable
// one is cancelled, calls not started get "Interrupted"). Calls that need
// the person's approval (and that no remembered rule covers) are not run:
// once the others ran, the turn pauses on them (endInterrupt).
func (tr *turn) runTools(msg history.Message, calls []history.ToolCall) ending {
	gated := tr.gate(calls)
	var waiting []gatedCall
	var questions []pendingGeneric
	interruptWaiting := func() {
		for _, w := range waiting {
			tr.toolResult(w.call, tools.Result{Content: history.ResultInterrupted, IsError: true}, ToolInterrupted)
		}
		for _, q := range questions {
			tr.toolResult(*q.call, tools.Result{Content: history.ResultInterrupted, IsError: true}, ToolInterrupted)
		}
	}
	for i, call := range calls {
		if tr.ctx.Err() != nil {
			interruptWaiting()
			for _, rest := range calls[i:] {
				tr.toolResult(rest, tools.Result{Content: history.ResultInterrupted, IsError: true}, ToolInterrupted)
			}
			tr.markInterrupted(msg)
			return endCancelled
		}
		if p, ok := gated[call.ID]; ok {
			waiting = append(waiting, gatedCall{call: call, prepared: p})
			continue
		}
		if call.Name == AskUserTool && !tr.hasTool(AskUserTool) {
			d, err := tr.askDescriptor(call)
			if err != nil {
				tr.toolResult(call, tools.Result{Content: err.Error(), IsError: true}, ToolFailed)
				continue
			}
			c := call
			questions = append(questions, pendingGeneric{desc: d, call: &c})
			continue
		}
		tr.runTool(call, "")
	}
	if tr.ctx.Err() != nil {
		// Every tool finished, but Stop came while they ran: the turn
		// ends here, no model call follows.
		interruptWaiting()
		tr.markInterrupted(msg)
		return endCancelled
	}
	if len(waiting) > 0 || len(questions) > 0 {
		return tr.pause(msg, waiting, questions)
	}
	return endSuccess
}

func (tr *turn) hasTool(name string) bool {
	if tr.tools == nil {
		return false
	}
	_, ok := tr.tools.Lookup(name)
	return ok
}

// runTool runs one call exactly once and records its result; note, when
// not empty, is put before the result the model reads.
func (tr *turn) runTool(call history.ToolCall, note string) {
	rt := tr.rt
	result := func(res tools.Result, state string) {
		res.Content = note + res.Content
		tr.toolResult(call, res, state)
	}
	if tr.tools == nil {
		result(tools.Result{Content: fmt.Sprintf("Unknown tool %q: no tools are available.", call.Name), IsError: true}, ToolFailed)
		return
	}
	prepared, bad := tr.tools.Prepare(call.Name, call.Arguments)
	if bad != nil {
		result(*bad, ToolFailed)
		return
	}
	if prepared.Tool.Client {
		tr.pendClient(call, prepared)
		return
	}
	exec := history.ToolExecution{
		ToolCallID: call.ID, ThreadID: tr.run.ThreadID, RunID: tr.run.ID, ToolName: call.Name,
		Arguments: string(prepared.Args), State: history.ToolStarted, StartedAt: rt.now(),
	}
	prior, err := rt.opts.Store.BeginToolExecution(tr.save, exec)
	if err != nil {
		result(tools.Result{Content: "Not run: the app could not record the execution: " + err.Error(), IsError: true}, ToolFailed)
		return
	}
	if prior != nil {
		// Already executed (a replay or a retry): never run twice.
		res := tools.Result{Content: prior.Result, IsError: prior.IsError}
		if prior.State != history.ToolFinished {
			res = tools.Result{Content: history.ResultAppStoppedMidRun, IsError: true}
		}
		result(res, stateOf(res))
		return
	}
	rt.emit(tr.run.ThreadID, agui.NewCustom(CustomToolState, map[string]any{"toolCallId": call.ID, "state": ToolRunning}))
	res := tr.tools.Execute(tr.ctx, prepared)
	state := stateOf(res)
	if prepared.Tool.OnStop == tools.Abortable && tr.ctx.Err() != nil {
		state = ToolInterruptedMidRn
		if !strings.HasPrefix(res.Content, history.ResultInterruptedMidRun) {
			res = tools.Result{Content: history.ResultInterruptedMidRun + "\n" + res.Content, IsError: true}
		}
	}
	exec.State, exec.Result, exec.IsError, exec.FinishedAt = history.ToolFinished, res.Content, res.IsError, rt.now()
	if err := rt.opts.Store.FinishToolExecution(tr.save, exec); err != nil {
		rt.log.Error("recording a tool result", "tool", call.Name, "err", err)
	}
	result(res, state)
}

func stateOf(r tools.Result) string {
	if r.IsError {
		return ToolFailed
	}
	return ToolDone
}

// toolResult saves the tool message and emits TOOL_CALL_RESULT.
func (tr *turn) toolResult(call history.ToolCall, res tools.Result, state string) {
	rt, tid := tr.rt, tr.run.ThreadID
	m := history.Message{
		ID: NewID("msg"), ThreadID: tid, RunID: tr.run.ID, Role: history.RoleTool,
		ToolCallID: call.ID, ToolName: call.Name, Content: res.Content, IsError: res.IsError,
		Status: history.StatusComplete, CreatedAt: rt.now(),
	}
	if err := rt.opts.Store.PutMessage(tr.save, m); err != nil {
		rt.log.Error("saving a tool result", "tool", call.Name, "err", err)
	}
	rt.emit(tid, agui.NewToolCallResult(m.ID, call.ID, res.Content))
	rt.emit(tid, agui.NewCustom(CustomToolState, map[string]any{"toolCallId": call.ID, "state": state}))
}

// markInterrupted appends the interrupt marker to the assistant message
// whose tools were cut short.
func (tr *turn) markInterrupted(msg history.Message) {
	msg.Content = history.WithMarker(msg.Content)
	msg.Status = history.StatusInterrupted
	if err := tr.rt.opts.Store.PutMessage(context.WithoutCancel(tr.ctx), msg); err != nil {
		tr.rt.log.Error("marking the answer interrupted", "err", err)
	}
	tr.marked = true
}

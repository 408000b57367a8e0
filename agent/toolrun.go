package agent

import (
	"fmt"
	"strings"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
)

// runCalls runs the calls of one assistant message in the model's order
// (situation 3 of Stop: a running MustComplete tool finishes, an
// Abortable one is cancelled, calls not started get "Interrupted").
// ds holds the person's decisions of a continuation, by call id.
//
// Nothing after a call that waits starts: at the first call that needs
// the person (an approval no rule covers, an ask_user question) the run
// pauses on it and on the other questions ahead of the next window
// action; at the first window action (a client tool) the run hands it,
// and the window actions right after it, to the window. Whatever comes
// later runs in the continuation, in order.
func (tr *turn) runCalls(msg history.Message, calls []history.ToolCall, ds map[string]decision) ending {
	gated := tr.gate(calls, ds)
	var handed []string
	for i, call := range calls {
		if tr.ctx.Err() != nil {
			if len(handed) > 0 {
				// Stop came right after calls were handed to the
				// window: finish cancels them too, nothing waits.
				tr.leftWaiting = true
			}
			for _, rest := range calls[i:] {
				if d, ok := ds[rest.ID]; ok && d.midCall {
					// Answered, but Stop came first: the call never gets
					// the answer (issue 20, bug 1).
					tr.stopMidCall(rest)
					continue
				}
				if d, ok := ds[rest.ID]; ok && !d.approved {
					tr.toolResult(rest, tools.Result{Content: d.result, IsError: d.isError}, d.state)
					continue
				}
				tr.toolResult(rest, tools.Result{Content: history.ResultInterrupted, IsError: true}, contract.ToolInterrupted)
			}
			tr.markInterrupted(msg)
			return endCancelled
		}
		d, decided := ds[call.ID]
		if decided && d.midCall {
			// The answer to a question the call asked mid-run: take the
			// call back and wait on it again.
			if end, paused := tr.resumeLive(msg, call, d); paused {
				return end
			}
			continue
		}
		if decided && d.task != nil {
			if end, paused := tr.resumeTask(msg, call, d); paused {
				return end
			}
			continue
		}
		if decided && !d.approved {
			tr.toolResult(call, tools.Result{Content: d.result, IsError: d.isError}, d.state)
			continue
		}
		if decided {
			call = d.call // the arguments the person approved
			tr.noteLedgered(call.ID)
		}
		_, needsApproval := gated[call.ID]
		asks := call.Name == AskUserTool && !tr.hasTool(AskUserTool)
		client := tr.isClient(call.Name)
		if !decided && tr.ruleCheck[call.ID] && (len(handed) == 0 || client) {
			// A rule decides it now, in the transaction that reads it.
			switch tr.decideByRule(call, &gated) {
			case ruleRefused:
				continue
			case ruleAsks:
				needsApproval = true
			}
		}
		switch {
		case len(handed) > 0 && (!client || needsApproval):
			// The window acts first; the rest follows its results.
			return tr.handOff(handed)
		case !decided && asks:
			if _, err := tr.askDescriptor(call); err != nil {
				// An invalid question is answered with its error, in
				// order; the model reads it and may ask again.
				tr.toolResult(call, tools.Result{Content: err.Error(), IsError: true}, contract.ToolFailed)
				continue
			}
			return tr.pauseFrom(msg, calls[i:], gated, ds)
		case !decided && needsApproval:
			return tr.pauseFrom(msg, calls[i:], gated, ds)
		case client:
			if tr.pendClient(call, d.edited) {
				handed = append(handed, call.ID)
			}
		default:
			note := ""
			if d.edited {
				// The model's own call still shows its arguments: say
				// what actually ran.
				note = editedNote(call.Arguments)
			}
			if end, paused := tr.parkOrGoOn(msg, call, tr.runTool(call, note), note); paused {
				return end
			}
		}
	}
	if len(handed) > 0 {
		return tr.handOff(handed)
	}
	if tr.ctx.Err() != nil {
		// Every tool finished, but Stop came while they ran: the turn
		// ends here, no model call follows.
		tr.markInterrupted(msg)
		return endCancelled
	}
	return endSuccess
}

// editedNote is what the model reads before the result of a call whose
// arguments the person edited before approving.
func editedNote(args string) string {
	return editedPrefix + args + ".\n\n"
}

const editedPrefix = "The person edited the arguments before approving; the tool ran with "

// EditedArgsOf returns, by call id, the arguments the person edited and a
// call ran with (read back from its result's note), so a reloaded window
// shows what ran.
func EditedArgsOf(msgs []history.Message) map[string]string {
	out := map[string]string{}
	for _, m := range msgs {
		if m.Role != history.RoleTool || !strings.HasPrefix(m.Content, editedPrefix) {
			continue
		}
		rest := m.Content[len(editedPrefix):]
		if i := strings.Index(rest, ".\n\n"); i > 0 {
			out[m.ToolCallID] = rest[:i]
		}
	}
	return out
}

// handOff ends the run with the window's actions pending.
func (tr *turn) handOff(ids []string) ending {
	tr.clientIDs = ids
	tr.leftWaiting = true
	return endClientPending
}

// pauseFrom pauses the run on rest[0], which waits on the person, and on
// every later approval and question up to the next window action (which
// is asked about, if it needs approval, and ends the batch). Plain calls
// in between run in the continuation, in order.
func (tr *turn) pauseFrom(msg history.Message, rest []history.ToolCall, gated map[string]tools.Call, ds map[string]decision) ending {
	var waiting []gatedCall
	var questions []pendingGeneric
	for _, call := range rest {
		if _, decided := ds[call.ID]; decided {
			continue
		}
		p, needsApproval := gated[call.ID]
		switch {
		case needsApproval:
			waiting = append(waiting, gatedCall{call: call, prepared: p})
		case call.Name == AskUserTool && !tr.hasTool(AskUserTool):
			d, err := tr.askDescriptor(call)
			if err != nil {
				continue // answered with its error when the walk reaches it
			}
			c := call
			questions = append(questions, pendingGeneric{desc: d, call: &c})
		}
		if tr.isClient(call.Name) {
			break
		}
	}
	return tr.pause(msg, waiting, questions)
}

func (tr *turn) isClient(name string) bool {
	if tr.tools == nil {
		return false
	}
	t, ok := tr.tools.Lookup(name)
	return ok && t.Client
}

func (tr *turn) hasTool(name string) bool {
	if tr.tools == nil {
		return false
	}
	_, ok := tr.tools.Lookup(name)
	return ok
}

// runTool runs one call exactly once and records its result; note, when
// not empty, is put before the result the model reads. A call that asks
// the person mid-run returns its question instead (the caller parks it:
// callrun.go).
func (tr *turn) runTool(call history.ToolCall, note string) *ask {
	rt := tr.rt
	result := func(res tools.Result, state contract.ToolState) {
		res.Content = note + res.Content
		tr.toolResult(call, res, state)
	}
	if tr.tools == nil {
		result(tools.Result{Content: fmt.Sprintf("Unknown tool %q: no tools are available.", call.Name), IsError: true}, contract.ToolFailed)
		return nil
	}
	prepared, bad := tr.prepare(call)
	if bad != nil {
		result(*bad, contract.ToolFailed)
		return nil
	}
	exec := history.ToolExecution{
		ToolCallID: call.ID, ThreadID: tr.run.ThreadID, RunID: tr.run.ID, ToolName: call.Name,
		Arguments: string(prepared.Args), State: history.ToolStarted, StartedAt: rt.now(),
	}
	prior, err := rt.st.BeginToolExecution(tr.save, exec)
	if err != nil {
		result(tools.Result{Content: "Not run: the app could not record the execution: " + err.Error(), IsError: true}, contract.ToolFailed)
		return nil
	}
	if prior != nil {
		// Already executed (a replay or a retry): never run twice.
		res := tools.Result{Content: prior.Result, IsError: prior.IsError}
		if prior.State != history.ToolFinished {
			res = tools.Result{Content: history.ResultAppStoppedMidRun, IsError: true}
		}
		result(res, stateOf(res))
		return nil
	}
	running := contract.ToolStateEvent{ToolCallID: call.ID, State: contract.ToolRunning}
	if r, ok := tr.allowedBy[call.ID]; ok {
		running.AllowedBy = &r
	}
	if note != "" {
		// The window shows what runs, not the model's original.
		running.Arguments, running.Edited = string(prepared.Args), true
	}
	rt.emit(tr.run.ThreadID, agui.NewCustom(contract.CustomToolState, running))
	return tr.runLive(tr.startCall(call, prepared, exec, nil), call, note)
}

func stateOf(r tools.Result) contract.ToolState {
	if r.IsError {
		return contract.ToolFailed
	}
	return contract.ToolDone
}

// toolResult saves the tool message (with its state, so a reload shows
// what happened) and emits TOOL_CALL_RESULT.
func (tr *turn) toolResult(call history.ToolCall, res tools.Result, state contract.ToolState) {
	rt, tid := tr.rt, tr.run.ThreadID
	m := history.Message{
		ID: NewID("msg"), ThreadID: tid, RunID: tr.run.ID, Role: history.RoleTool,
		ToolCallID: call.ID, ToolName: call.Name, Content: res.Content, IsError: res.IsError,
		ToolState: string(state), Parts: res.Parts, Status: history.StatusComplete, CreatedAt: rt.now(),
	}
	if err := rt.st.PutMessage(tr.save, m); err != nil {
		rt.log.Error("saving a tool result", "tool", call.Name, "err", err)
	}
	rt.emit(tid, agui.NewToolCallResult(m.ID, call.ID, res.Content))
	rt.emit(tid, agui.NewCustom(contract.CustomToolState, contract.ToolStateEvent{ToolCallID: call.ID, State: state, Parts: res.Parts}))
	tr.recordOutcome(call, state)
}

// markInterrupted appends the interrupt marker to the assistant message
// whose tools were cut short.
func (tr *turn) markInterrupted(msg history.Message) {
	msg.Content = history.WithMarker(msg.Content)
	msg.Status = history.StatusInterrupted
	if err := tr.rt.st.PutMessage(tr.save, msg); err != nil {
		tr.rt.log.Error("marking the answer interrupted", "err", err)
	}
	tr.marked = true
	// The window shows the mark (and Continue) now, not after a reload.
	tr.rt.emit(tr.run.ThreadID, agui.NewCustom(contract.CustomStopped, contract.StoppedEvent{MessageID: msg.ID, DroppedToolCallIDs: []string{}}))
}

// parkOrGoOn pauses the run on a question a running call asked (a, nil
// when it asked none), or, when it cannot be stored, lets the call go on
// (the question was answered "cancel") and waits for its result or its
// next question. A result that asks for input pauses the run on its
// questions (roundtrip.go).
func (tr *turn) parkOrGoOn(msg history.Message, call history.ToolCall, a *ask, note string) (ending, bool) {
	lc := tr.live
	for a != nil {
		if end, paused := tr.pauseMidCall(lc, a); paused {
			return end, true
		}
		a = tr.runLive(lc, call, note)
	}
	if in := tr.takeInput(); in != nil {
		return tr.pauseRoundTrip(call, in)
	}
	return endSuccess, false
}

// resumeLive delivers the person's reply to a parked call and waits on it
// again. A call no longer parked (abandoned meanwhile) gets "Interrupted".
func (tr *turn) resumeLive(msg history.Message, call history.ToolCall, d decision) (ending, bool) {
	lc := tr.rt.unpark(tr.run.ThreadID, call.ID)
	if lc == nil {
		if end, paused, ok := tr.retryRoundTrip(msg, call, d); ok {
			return end, paused
		}
		tr.toolResult(call, tools.Result{Content: history.ResultInterruptedMidRun, IsError: true}, contract.ToolInterruptedMidRun)
		return endSuccess, false
	}
	if lc.pending != nil {
		lc.pending.reply <- d.reply
		lc.pending = nil
	}
	tr.live = lc
	tr.rt.emit(tr.run.ThreadID, agui.NewCustom(contract.CustomToolState, contract.ToolStateEvent{ToolCallID: call.ID, State: contract.ToolRunning}))
	return tr.parkOrGoOn(msg, call, tr.runLive(lc, call, ""), "")
}

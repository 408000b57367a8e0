package agent

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
)

// A call that needs the person and keeps nothing open (MCP 2026-07-28's
// input_required, tools.Result.Input). Unlike a parked call (callrun.go)
// no goroutine waits:
//
//   - the call's result says it needs input: the turn stores one question
//     per request as a generic interrupt bound to the call, with the
//     tool's state (store.PauseRoundTrip: one transaction, the execution
//     moves to awaiting_input), and the run ends with the interrupt;
//   - the continuation takes the round (TakeRoundTrip: exactly one claim)
//     and runs the same call again with tools.Retry in its context; a
//     retry that asks again is a new pause;
//   - Stop or new input while it waits gives the call its result
//     (EndRoundTrip), as for any question; a restart changes nothing:
//     the questions are shown again and answering them retries the call;
//   - a call that asks more rounds in a row than the loop guard's limit
//     ends with an error the model reads.

// ResultInputNotGiven is what the model reads of a call that asked for
// input and was stopped before it could be retried.
const ResultInputNotGiven = "Interrupted: the tool asked for input and was stopped before it got it; it did not finish."

// needsInput is a call whose result asks for input, left for the turn to
// pause on.
type needsInput struct {
	lc    *liveCall
	input *tools.NeedsInput
}

// roundLimit is how many rounds in a row a call may ask: the loop
// guard's limit (the step limit when the guard is off).
func (rt *Runtime) roundLimit() int {
	n := rt.opts.LoopGuard
	if rt.opts.LoopGuardSource != nil {
		n = rt.opts.LoopGuardSource()
	}
	if n <= 0 {
		n = rt.opts.MaxSteps
	}
	return n
}

// takeInput returns and clears the call the turn must pause on.
func (tr *turn) takeInput() *needsInput {
	in := tr.input
	tr.input = nil
	return in
}

// pauseRoundTrip stores the questions of a call that needs input and
// ends the run on them. A call that cannot be paused (Stop came, the
// questions are not usable, the round limit is reached, the store
// failed) gets its result and the run goes on (ok false).
func (tr *turn) pauseRoundTrip(call history.ToolCall, in *needsInput) (ending, bool) {
	rt, tid := tr.rt, tr.run.ThreadID
	fail := func(content string, state contract.ToolState) (ending, bool) {
		res := tools.Result{Content: content, IsError: true}
		in.lc.finish(res)
		tr.toolResult(call, res, state)
		return endSuccess, false
	}
	if tr.ctx.Err() != nil {
		return fail(ResultInputNotGiven, contract.ToolInterrupted)
	}
	rounds := in.lc.rounds + 1
	if limit := rt.roundLimit(); rounds > limit {
		return fail(fmt.Sprintf("Stopped: the tool asked for input %d times in a row (the loop guard's limit is %d); it did not finish.", rounds, limit), contract.ToolFailed)
	}
	keys := slices.Sorted(maps.Keys(in.input.Prompts))
	prompts := make([]tools.Prompt, 0, len(keys))
	for _, k := range keys {
		prompts = append(prompts, in.input.Prompts[k])
	}
	recs, ais, err := tr.questions(call, prompts)
	if err != nil {
		return fail("The tool asked for input Juncture cannot show: "+err.Error(), contract.ToolFailed)
	}
	byID := make(map[string]string, len(recs))
	for i, r := range recs {
		byID[r.ID] = keys[i]
	}
	round := history.RoundTrip{ThreadID: tid, ToolCallID: call.ID, State: in.input.State, Keys: byID, Rounds: rounds}
	if err := rt.st.PauseRoundTrip(tr.save, round, recs); err != nil {
		rt.log.Error("storing a tool's questions", "tool", call.Name, "err", err)
		return fail("Not finished: the app could not store the tool's questions: "+err.Error(), contract.ToolFailed)
	}
	return tr.endOnQuestions(call, ais)
}

// retryRoundTrip runs a call that waited between two round trips again
// with the person's answers. ok is false when the call was not waiting
// (the caller settles it as before).
func (tr *turn) retryRoundTrip(msg history.Message, call history.ToolCall, d decision) (end ending, paused, ok bool) {
	rt, tid := tr.rt, tr.run.ThreadID
	round, err := rt.st.TakeRoundTrip(tr.save, tid, call.ID, tr.run.ID)
	if err != nil {
		if !errors.Is(err, history.ErrNotFound) {
			rt.log.Error("taking a tool's round trip", "tool", call.Name, "err", err)
		}
		return endSuccess, false, false
	}
	exec := history.ToolExecution{ToolCallID: call.ID, ThreadID: tid, RunID: tr.run.ID, ToolName: call.Name,
		Arguments: call.Arguments, State: history.ToolStarted, StartedAt: rt.now()}
	lc := &liveCall{rt: rt, threadID: tid, call: call, exec: exec}
	if tr.tools == nil {
		res := tools.Result{Content: fmt.Sprintf("Not finished: the tool %q is not available any more.", call.Name), IsError: true}
		lc.finish(res)
		tr.toolResult(call, res, contract.ToolFailed)
		return endSuccess, false, true
	}
	prepared, bad := tr.prepare(call)
	if bad != nil {
		lc.finish(*bad)
		tr.toolResult(call, *bad, contract.ToolFailed)
		return endSuccess, false, true
	}
	replies := map[string]tools.Reply{}
	for id, key := range round.Keys {
		if r, answered := d.replies[id]; answered {
			replies[key] = r
		}
	}
	retry := &tools.Retry{State: round.State, Replies: replies, Round: round.Rounds}
	rt.emit(tid, agui.NewCustom(contract.CustomToolState, contract.ToolStateEvent{ToolCallID: call.ID, State: contract.ToolRunning}))
	end, paused = tr.parkOrGoOn(msg, call, tr.runLive(tr.startCall(call, prepared, exec, retry), call, ""), "")
	return end, paused, true
}

// finish records a call's execution as finished with res (the call's
// goroutine leaves a result that asks for input to the turn).
func (lc *liveCall) finish(res tools.Result) {
	e := lc.exec
	e.State, e.Result, e.IsError, e.FinishedAt = history.ToolFinished, res.Content, res.IsError, lc.rt.now()
	if err := lc.rt.st.FinishToolExecution(context.WithoutCancel(lc.rt.baseCx), e); err != nil {
		lc.rt.log.Error("recording a tool result", "tool", lc.call.Name, "err", err)
	}
}

// endRoundTrip gives a call that waits between round trips its result
// without a retry (Stop, new input); a call that does not wait is left
// as it is.
func (rt *Runtime) endRoundTrip(ctx context.Context, threadID string, call history.ToolCall, res string) {
	e := history.ToolExecution{ToolCallID: call.ID, ThreadID: threadID, ToolName: call.Name, Result: res, IsError: true}
	if err := rt.st.EndRoundTrip(ctx, e); err != nil && !errors.Is(err, history.ErrNotFound) {
		rt.log.Error("ending a tool's round trip", "tool", call.Name, "err", err)
	}
}

// stopMidCall gives a call whose question was answered, but whose
// continuation was stopped before it got there, its result: a parked
// call is abandoned (its request answered "cancel", the call cancelled),
// a call between round trips is not retried.
func (tr *turn) stopMidCall(call history.ToolCall) {
	rt, tid := tr.rt, tr.run.ThreadID
	if lc := rt.unpark(tid, call.ID); lc != nil {
		lc.abandon()
		tr.toolResult(call, tools.Result{Content: history.ResultInterruptedMidRun, IsError: true}, contract.ToolInterruptedMidRun)
		return
	}
	rt.endRoundTrip(tr.save, tid, call, ResultInputNotGiven)
	tr.toolResult(call, tools.Result{Content: ResultInputNotGiven, IsError: true}, contract.ToolInterrupted)
}

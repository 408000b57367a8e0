package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/interrupt"
	"github.com/juncture-app/juncture/agent/tools"
)

// Pauses: a run that ends waiting on the person or the window stores what
// it waits on (pause); new input or Stop settles what waits (cancelPending,
// stopPendingRun).

// pendingGeneric is a generic item of a pausing batch: an ask_user
// question (call set) or a middleware question.
type pendingGeneric struct {
	desc interrupt.Descriptor
	call *history.ToolCall
}

// pause stores the approval requests of the waiting calls and the generic
// questions, then announces them: a tool state per call,
// MESSAGES_SNAPSHOT, and (in finish) RUN_FINISHED with the interrupt
// outcome. msg is the answer whose calls wait (zero for a middleware
// question).
func (tr *turn) pause(msg history.Message, waiting []gatedCall, questions []pendingGeneric) ending {
	rt, tid := tr.rt, tr.run.ThreadID
	notRun := func(err error) ending {
		for _, w := range waiting {
			tr.toolResult(w.call, tools.Result{Content: "Not run: the approval request could not be saved: " + err.Error(), IsError: true}, contract.ToolFailed)
		}
		for _, q := range questions {
			if q.call != nil {
				tr.toolResult(*q.call, tools.Result{Content: "Not asked: the question could not be saved: " + err.Error(), IsError: true}, contract.ToolFailed)
			}
		}
		return tr.fail(fmt.Errorf("asking the person: %w", err), "")
	}
	descs, err := tr.approvalDescriptors(waiting)
	if err != nil {
		return notRun(err)
	}
	generics := make([]interrupt.Descriptor, 0, len(questions))
	for _, q := range questions {
		generics = append(generics, q.desc)
	}
	batch, err := interrupt.BuildBatch(tr.run.ID, tr.run.Generation, descs, nil, generics)
	if err != nil {
		return notRun(err)
	}
	records := make([]history.Interrupt, 0, len(batch))
	outcome := make([]agui.Interrupt, 0, len(batch))
	for i, d := range batch {
		raw, err := json.Marshal(d)
		if err != nil {
			return notRun(err)
		}
		ai, err := agui.FromDescriptor(raw)
		if err != nil {
			return notRun(err)
		}
		rec := history.Interrupt{
			ID: d.ID, ThreadID: tid, RunID: tr.run.ID, Generation: tr.run.Generation, Kind: history.KindToolApproval,
			Descriptor: raw, Status: history.InterruptPending, CreatedAt: rt.now(),
		}
		if i < len(waiting) {
			rec.ToolCallID = waiting[i].call.ID
		} else {
			rec.Kind = history.KindGeneric
			if q := questions[i-len(waiting)]; q.call != nil {
				rec.ToolCallID = q.call.ID
			}
		}
		records = append(records, rec)
		outcome = append(outcome, ai)
	}
	if tr.ctx.Err() != nil {
		// Stop came before the requests were saved: nothing waits.
		for _, w := range waiting {
			tr.toolResult(w.call, tools.Result{Content: history.ResultInterrupted, IsError: true}, contract.ToolInterrupted)
		}
		for _, q := range questions {
			if q.call != nil {
				tr.toolResult(*q.call, tools.Result{Content: history.ResultInterrupted, IsError: true}, contract.ToolInterrupted)
			}
		}
		if msg.ID != "" {
			tr.markInterrupted(msg)
		}
		return endCancelled
	}
	if err := rt.st.PutInterrupts(tr.save, records); err != nil {
		return notRun(err)
	}
	tr.leftWaiting = true
	for _, w := range waiting {
		rt.emit(tid, agui.NewCustom(contract.CustomToolState, contract.ToolStateEvent{ToolCallID: w.call.ID, State: contract.ToolAwaitingApproval, ToolName: w.call.Name}))
	}
	for _, q := range questions {
		if q.call != nil {
			rt.emit(tid, agui.NewCustom(contract.CustomToolState, contract.ToolStateEvent{ToolCallID: q.call.ID, State: contract.ToolAwaitingAnswer, ToolName: q.call.Name}))
		}
	}
	msgs, err := rt.st.Messages(tr.save, tid)
	if err != nil {
		rt.log.Error("loading the thread for the snapshot", "thread", tid, "err", err)
	} else {
		rt.emit(tid, agui.NewMessagesSnapshot(agui.FromHistory(msgs)))
	}
	tr.interrupts = outcome
	return endInterrupt
}

// loadRunState carries the thread's interrupt generation (the number of
// approval batches issued before this run; a batch uses its run's value)
// and, for a continuation, the turn's model-call count from its parent.
func (tr *turn) loadRunState(continuation bool) {
	prev, err := tr.rt.st.LatestRun(tr.save, tr.run.ThreadID)
	if err != nil {
		if !errors.Is(err, history.ErrNotFound) {
			tr.rt.log.Error("loading the latest run", "thread", tr.run.ThreadID, "err", err)
		}
		return
	}
	tr.run.Generation = prev.Generation
	if prev.ID != tr.run.ID && prev.Status == history.RunInterrupted {
		tr.run.Generation++
	}
	if continuation && prev.ID == tr.run.ParentRunID {
		tr.modelCalls = prev.Steps
	}
}

// callsByID indexes the tool calls of the stored assistant messages.
func callsByID(msgs []history.Message) (map[string]history.ToolCall, map[string]history.Message) {
	calls, owner := map[string]history.ToolCall{}, map[string]history.Message{}
	for _, m := range msgs {
		if m.Role != history.RoleAssistant {
			continue
		}
		for _, c := range m.ToolCalls {
			calls[c.ID], owner[c.ID] = c, m
		}
	}
	return calls, owner
}

// cancelPending settles every answerable pending item of the thread as
// cancelled (approvals, questions, client tool calls) and gives each call
// still without a result the result text: the waiting ones, and the ones
// of the paused answer that had not run yet. It returns the assistant
// messages those calls belong to, in order. Unbound items belong to
// someone else and stay as they are.
func (tr *turn) cancelPending(text string, state contract.ToolState, via string) []history.Message {
	rt, tid := tr.rt, tr.run.ThreadID
	its, clients, err := rt.waitingItems(tr.save, tid)
	if err != nil {
		rt.log.Error("loading pending items", "thread", tid, "err", err)
		return nil
	}
	if len(its) == 0 && len(clients) == 0 {
		return nil
	}
	s := history.Settlement{ThreadID: tid, Ledger: rt.stoppedLedger(tr.save, tid, tr.run.ID, text, via, its, clients)}
	for _, it := range its {
		s.Interrupts = append(s.Interrupts, history.Resolution{ID: it.ID, Status: history.InterruptCancelled})
	}
	for _, c := range clients {
		c.State, c.Result = history.ClientToolCancelled, text
		s.ClientCalls = append(s.ClientCalls, c)
	}
	if err := rt.st.Settle(tr.save, s); err != nil {
		rt.log.Error("cancelling pending items", "thread", tid, "err", err)
		return nil
	}
	msgs, err := rt.st.Messages(tr.save, tid)
	if err != nil {
		rt.log.Error("loading the thread", "thread", tid, "err", err)
		return nil
	}
	calls, owner := callsByID(msgs)
	answered := answeredCalls(msgs)
	// A call parked on a question it asked mid-run ran partly: it is
	// cancelled now, and its result says its side effects are unknown.
	parked := rt.abandonParked(tid)
	var owners []history.Message
	seen := map[string]bool{}
	give := func(c history.ToolCall) {
		if answered[c.ID] {
			return
		}
		answered[c.ID] = true
		if parked[c.ID] {
			res := history.ResultInterruptedMidRun
			if text != history.ResultInterrupted {
				res += "\n" + text
			}
			tr.toolResult(c, tools.Result{Content: res, IsError: true}, contract.ToolInterruptedMidRun)
		} else {
			tr.toolResult(c, tools.Result{Content: text, IsError: true}, state)
			// A call waiting between round trips ends without its retry.
			rt.endRoundTrip(tr.save, tid, c, text)
		}
		if m := owner[c.ID]; !seen[m.ID] {
			seen[m.ID] = true
			owners = append(owners, m)
		}
	}
	for _, it := range its {
		if c, ok := calls[it.ToolCallID]; ok {
			give(c)
		}
	}
	for _, c := range clients {
		if call, ok := calls[c.ToolCallID]; ok {
			give(call)
		}
	}
	// The calls of the paused answer that never started get the same.
	if _, open := openCallsOf(msgs); len(open) > 0 {
		for _, c := range open {
			give(c)
		}
	}
	return owners
}

// answeredCalls is the set of call ids that have a result, by the latest
// assistant message that made each call (an id may repeat across turns).
func answeredCalls(msgs []history.Message) map[string]bool {
	out := map[string]bool{}
	for _, m := range msgs {
		switch m.Role {
		case history.RoleAssistant:
			for _, c := range m.ToolCalls {
				delete(out, c.ID)
			}
		case history.RoleTool:
			out[m.ToolCallID] = true
		}
	}
	return out
}

// waitingItems returns the thread's answerable pending interrupts and its
// pending client calls.
func (rt *Runtime) waitingItems(ctx context.Context, threadID string) ([]history.Interrupt, []history.ClientToolCall, error) {
	all, err := rt.st.PendingInterrupts(ctx, threadID)
	if err != nil {
		return nil, nil, fmt.Errorf("loading pending interrupts: %w", err)
	}
	var its []history.Interrupt
	for _, it := range all {
		if resumable(it) {
			its = append(its, it)
		}
	}
	clients, err := rt.st.PendingClientToolCalls(ctx, threadID)
	if err != nil {
		return nil, nil, fmt.Errorf("loading pending client tool calls: %w", err)
	}
	return its, clients, nil
}

// hasWaiting reports whether anything of the thread waits on the person
// or the window (unbound items do not count: Stop leaves them).
func (rt *Runtime) hasWaiting(ctx context.Context, threadID string) bool {
	its, clients, err := rt.waitingItems(ctx, threadID)
	if err != nil {
		rt.log.Error("checking what waits", "thread", threadID, "err", err)
		return false
	}
	return len(its) > 0 || len(clients) > 0
}

// stopPendingRun is situation 2 of Stop: each waiting call gets
// "Interrupted", its message gets the marker, and no model call follows.
// Nothing waiting (it was answered or cancelled meanwhile): no run at all.
func (tr *turn) stopPendingRun(via string) ending {
	rt, tid := tr.rt, tr.run.ThreadID
	its, clients, err := rt.waitingItems(tr.save, tid)
	if err != nil || (len(its) == 0 && len(clients) == 0) {
		return endNothing
	}
	if len(its) > 0 {
		tr.run.ParentRunID = its[0].RunID
	} else {
		tr.run.ParentRunID = clients[0].RunID
	}
	rt.emit(tid, agui.NewRunStarted(tid, tr.run.ID, tr.run.ParentRunID))
	tr.loadRunState(false)
	if err := rt.st.PutRun(tr.save, tr.run); err != nil {
		rt.log.Error("saving the run", "thread", tid, "err", err)
	}
	for _, m := range tr.cancelPending(history.ResultInterrupted, contract.ToolInterrupted, via) {
		tr.markInterrupted(m)
	}
	tr.marked = true // nothing else to mark
	return endCancelled
}

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

// Descriptor metadata keys Juncture adds to a tool approval.
const (
	MetaPreview        = "juncture:preview"        // tools.Preview of the call (or {"error": …})
	MetaSuggestedRules = "juncture:suggestedRules" // []history.PermissionRule "Always allow" can offer
)

// Tool results the runtime writes for calls that were never approved.
const (
	ResultRepliedInChat = "Not run: the person replied in chat instead of answering the approval request."
	ResultDenied        = "Not run: the person declined this tool call."
)

// inputKind says what a run does besides a plain turn.
type inputKind int

const (
	kindTurn        inputKind = iota
	kindResume                // a continuation: apply the answers, then the model loop
	kindRefused               // a refused continuation: RUN_STARTED + RUN_ERROR only
	kindStopPending           // Stop while items wait: answer them "Interrupted"
)

// decision is what a continuation does with one answered call.
type decision struct {
	call     history.ToolCall // Arguments are the ones to run (edited when given)
	approved bool
	edited   bool               // the person changed the arguments before approving
	result   string             // not approved: the tool result the model reads
	state    contract.ToolState // not approved: the UI state
	isError  bool               // not approved: the result is an error
	// A middleware question (no call): its definition and answer.
	hookDef   string
	answer    json.RawMessage
	cancelled bool
	// midCall: the answer to a question a running call asked (callrun.go);
	// reply is what the call gets.
	midCall bool
	reply   tools.Reply
	// task: a task call resumed after a restart (tasks.go), its
	// execution record with the kept handle.
	task *history.ToolExecution
	// replies are the answers to the call's questions by interrupt id
	// (a call waiting between round trips may ask several: roundtrip.go).
	replies map[string]tools.Reply
}

type gatedCall struct {
	call     history.ToolCall
	prepared tools.Call
}

// ApprovalTool is how a tool is described to the interrupt model: its
// input schema, and a reject branch that may carry a free-text reason.
func ApprovalTool(t tools.Tool) interrupt.Tool {
	return interrupt.Tool{
		Name: t.Name, InputSchema: t.Schema, NeedsApproval: t.NeedsApproval != nil,
		ApprovalSchema: interrupt.ApprovalSchema{Reject: interrupt.DenialReasonSchema},
	}
}

func (rt *Runtime) workspace() tools.Workspace {
	if rt.opts.Workspace == nil {
		return tools.Workspace{}
	}
	return rt.opts.Workspace()
}

// "This chat" rules (history.ScopeThread) name a thread, which only the
// runtime knows: coversInThread and suggestInThread are tools.Covers and
// tools.Suggest with them added, in one place.

// coversInThread is tools.Covers plus "this chat" rules.
func coversInThread(t tools.Tool, r history.PermissionRule, args json.RawMessage, ws tools.Workspace, threadID string) bool {
	if r.Scope == history.ScopeThread {
		return t.Rules == nil && r.Tool == t.Name && r.Pattern == threadID
	}
	return tools.Covers(t, r, args, ws)
}

// suggestInThread is tools.Suggest plus "this chat", before the whole tool
// (the widest, last), for tools without rules of their own. Never nil.
func suggestInThread(t tools.Tool, args json.RawMessage, ws tools.Workspace, threadID string) []history.PermissionRule {
	rules := tools.Suggest(t, args, ws)
	if t.Rules != nil || len(rules) == 0 {
		return append([]history.PermissionRule{}, rules...)
	}
	thread := history.PermissionRule{Tool: t.Name, Scope: history.ScopeThread, Pattern: threadID}
	return append(rules[:len(rules)-1:len(rules)-1], thread, rules[len(rules)-1])
}

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

// approvalDescriptors builds the approval request of each waiting call,
// with the card's preview and the "Always allow" rules it can offer.
func (tr *turn) approvalDescriptors(waiting []gatedCall) ([]interrupt.Descriptor, error) {
	ws := tr.rt.workspace()
	descs := make([]interrupt.Descriptor, 0, len(waiting))
	for _, w := range waiting {
		d, err := interrupt.NewToolApproval(interrupt.ToolCall{ID: w.call.ID, Name: w.call.Name, Arguments: w.call.Arguments}, ApprovalTool(w.prepared.Tool), "")
		if err != nil {
			return nil, err
		}
		var pv any
		if p, err := tr.tools.Preview(tr.save, w.prepared); err != nil {
			pv = map[string]string{"error": err.Error()}
		} else {
			pv = map[string]string{"kind": p.Kind, "title": p.Title, "body": p.Body, "folder": p.Folder}
		}
		rules := suggestInThread(w.prepared.Tool, w.prepared.Args, ws, tr.run.ThreadID)
		pvJSON, err1 := json.Marshal(pv)
		rulesJSON, err2 := json.Marshal(rules)
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("describing the approval of %s: %w", w.call.Name, err)
		}
		d.Metadata[MetaPreview] = pvJSON
		d.Metadata[MetaSuggestedRules] = rulesJSON
		descs = append(descs, d)
	}
	return descs, nil
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
func (tr *turn) cancelPending(text string, state contract.ToolState) []history.Message {
	rt, tid := tr.rt, tr.run.ThreadID
	its, clients, err := rt.waitingItems(tr.save, tid)
	if err != nil {
		rt.log.Error("loading pending items", "thread", tid, "err", err)
		return nil
	}
	if len(its) == 0 && len(clients) == 0 {
		return nil
	}
	s := history.Settlement{ThreadID: tid, Ledger: rt.stoppedLedger(tid, tr.run.ID, text, its, clients)}
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
			tr.toolResult(c, tools.Result{Content: res, IsError: true}, contract.ToolInterruptedMidRn)
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
func (tr *turn) stopPendingRun() ending {
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
	for _, m := range tr.cancelPending(history.ResultInterrupted, contract.ToolInterrupted) {
		tr.markInterrupted(m)
	}
	tr.marked = true // nothing else to mark
	return endCancelled
}

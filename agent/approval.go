package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/interrupt"
	"github.com/juncture-app/juncture/agent/tools"
	"github.com/juncture-app/juncture/store"
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
	kindTurn          inputKind = iota
	kindResume                  // a continuation: apply decisions, then the model loop
	kindRefused                 // a refused continuation: RUN_STARTED + RUN_ERROR only
	kindStopPending             // Stop while approvals wait: answer them "Interrupted"
	kindClientResults           // client tool results: record them, then the model loop
)

// decision is what a continuation does with one decided call.
type decision struct {
	call     history.ToolCall // Arguments are the ones to run (edited when given)
	approved bool
	edited   bool   // the person changed the arguments before approving
	result   string // not approved: the tool result the model reads
	state    string // not approved: the UI state
	isError  bool   // not approved: the result is an error
	// A middleware question (no call): its definition and answer.
	hookDef   string
	answer    json.RawMessage
	cancelled bool
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

// InterruptToAGUI converts a stored descriptor to the AG-UI Interrupt, its
// metadata values kept byte for byte.
func InterruptToAGUI(raw json.RawMessage) (agui.Interrupt, error) {
	var d interrupt.Descriptor
	if err := json.Unmarshal(raw, &d); err != nil {
		return agui.Interrupt{}, fmt.Errorf("reading a stored interrupt: %w", err)
	}
	out := agui.Interrupt{ID: d.ID, Reason: d.Reason, Message: d.Message, ToolCallID: d.ToolCallID,
		ResponseSchema: d.ResponseSchema, ExpiresAt: d.ExpiresAt}
	if len(d.Metadata) > 0 {
		out.Metadata = make(map[string]any, len(d.Metadata))
		for k, v := range d.Metadata {
			out.Metadata[k] = v
		}
	}
	return out, nil
}

func (rt *Runtime) workspace() tools.Workspace {
	if rt.opts.Workspace == nil {
		return tools.Workspace{}
	}
	return rt.opts.Workspace()
}

// gate returns the calls that wait for the person, by call id: their tool
// needs approval for these arguments and no remembered rule covers them.
// Calls whose arguments are invalid are not gated (they fail when run).
func (tr *turn) gate(calls []history.ToolCall) map[string]tools.Call {
	if tr.tools == nil {
		return nil
	}
	var gated map[string]tools.Call
	var rules []history.PermissionRule
	loaded := false
	for _, call := range calls {
		c, bad := tr.tools.Prepare(call.Name, call.Arguments)
		if bad != nil || c.Tool.NeedsApproval == nil || !c.Tool.NeedsApproval(c.Args) {
			continue
		}
		if !loaded {
			loaded = true
			var err error
			if rules, err = tr.rt.opts.Store.PermissionRules(tr.save); err != nil {
				tr.rt.log.Error("loading permission rules; asking for every call", "err", err)
			}
		}
		ws := tr.rt.workspace()
		covered := false
		for _, r := range rules {
			if tools.MatchRule(r, call.Name, c.Args, ws) {
				covered = true
				break
			}
		}
		if covered {
			continue
		}
		if gated == nil {
			gated = map[string]tools.Call{}
		}
		gated[call.ID] = c
	}
	return gated
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
			tr.toolResult(w.call, tools.Result{Content: "Not run: the approval request could not be saved: " + err.Error(), IsError: true}, ToolFailed)
		}
		for _, q := range questions {
			if q.call != nil {
				tr.toolResult(*q.call, tools.Result{Content: "Not asked: the question could not be saved: " + err.Error(), IsError: true}, ToolFailed)
			}
		}
		return tr.fail(fmt.Errorf("asking the person: %w", err), "")
	}
	ws := rt.workspace()
	descs := make([]interrupt.Descriptor, 0, len(waiting))
	for _, w := range waiting {
		d, err := interrupt.NewToolApproval(interrupt.ToolCall{ID: w.call.ID, Name: w.call.Name, Arguments: w.call.Arguments}, ApprovalTool(w.prepared.Tool), "")
		if err != nil {
			return notRun(err)
		}
		var pv any
		if p, err := tr.tools.Preview(tr.save, w.prepared); err != nil {
			pv = map[string]string{"error": err.Error()}
		} else {
			pv = map[string]string{"kind": p.Kind, "title": p.Title, "body": p.Body, "folder": p.Folder}
		}
		rules := tools.SuggestRules(w.call.Name, w.prepared.Args, ws)
		if rules == nil {
			rules = []history.PermissionRule{}
		}
		pvJSON, err1 := json.Marshal(pv)
		rulesJSON, err2 := json.Marshal(rules)
		if err := errors.Join(err1, err2); err != nil {
			return notRun(err)
		}
		d.Metadata[MetaPreview] = pvJSON
		d.Metadata[MetaSuggestedRules] = rulesJSON
		descs = append(descs, d)
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
		ai, err := InterruptToAGUI(raw)
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
			tr.toolResult(w.call, tools.Result{Content: history.ResultInterrupted, IsError: true}, ToolInterrupted)
		}
		for _, q := range questions {
			if q.call != nil {
				tr.toolResult(*q.call, tools.Result{Content: history.ResultInterrupted, IsError: true}, ToolInterrupted)
			}
		}
		if msg.ID != "" {
			tr.markInterrupted(msg)
		}
		return endCancelled
	}
	if err := rt.opts.Store.PutInterrupts(tr.save, records); err != nil {
		return notRun(err)
	}
	for _, w := range waiting {
		rt.emit(tid, agui.NewCustom(CustomToolState, map[string]any{"toolCallId": w.call.ID, "state": ToolAwaitingApproval}))
	}
	for _, q := range questions {
		if q.call != nil {
			rt.emit(tid, agui.NewCustom(CustomToolState, map[string]any{"toolCallId": q.call.ID, "state": ToolAwaitingAnswer}))
		}
	}
	msgs, err := rt.opts.Store.Messages(tr.save, tid)
	if err != nil {
		rt.log.Error("loading the thread for the snapshot", "thread", tid, "err", err)
	} else {
		rt.emit(tid, agui.NewMessagesSnapshot(ToAGUI(msgs)))
	}
	tr.interrupts = outcome
	return endInterrupt
}

// loadGeneration carries the thread's interrupt generation: the number of
// approval batches issued before this run. A batch uses its run's value.
func (tr *turn) loadGeneration() {
	prev, err := tr.rt.opts.Store.LatestRun(tr.save, tr.run.ThreadID)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			tr.rt.log.Error("loading the latest run", "thread", tr.run.ThreadID, "err", err)
		}
		return
	}
	if prev.ID == tr.run.ID {
		tr.run.Generation = prev.Generation
		return
	}
	tr.run.Generation = prev.Generation
	if prev.Status == history.RunInterrupted {
		tr.run.Generation++
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

// cancelPending cancels every pending item of the thread (approvals,
// questions, client tool calls) and gives each waiting call result text.
// It returns the assistant messages those calls belong to, in order.
func (tr *turn) cancelPending(text, state string) []history.Message {
	rt, tid := tr.rt, tr.run.ThreadID
	clientRuns := tr.cancelClients(text, state)
	pending, err := rt.opts.Store.PendingInterrupts(tr.save, tid)
	if err != nil {
		rt.log.Error("loading pending approvals", "thread", tid, "err", err)
		return nil
	}
	if len(pending) == 0 && len(clientRuns) == 0 {
		return nil
	}
	if len(pending) > 0 {
		res := make([]store.Resolution, 0, len(pending))
		for _, it := range pending {
			res = append(res, store.Resolution{ID: it.ID, Status: history.InterruptCancelled})
		}
		if err := rt.opts.Store.ResolveInterrupts(tr.save, tid, res); err != nil {
			rt.log.Error("cancelling pending approvals", "thread", tid, "err", err)
			return nil
		}
	}
	msgs, err := rt.opts.Store.Messages(tr.save, tid)
	if err != nil {
		rt.log.Error("loading the thread", "thread", tid, "err", err)
	}
	calls, owner := callsByID(msgs)
	var owners []history.Message
	seen := map[string]bool{}
	hook := false
	for _, it := range pending {
		if it.ToolCallID == "" {
			if it.Kind == history.KindGeneric {
				hook = true
			}
			continue
		}
		call, ok := calls[it.ToolCallID]
		if !ok {
			continue // the call is gone from the history: nothing to answer
		}
		tr.toolResult(call, tools.Result{Content: text, IsError: true}, state)
		if m := owner[it.ToolCallID]; !seen[m.ID] {
			seen[m.ID] = true
			owners = append(owners, m)
		}
	}
	if hook {
		// A middleware question between an answer and its tools: the
		// calls that never ran get the same result.
		if m, open := tr.openCalls(); len(open) > 0 {
			for _, c := range open {
				tr.toolResult(c, tools.Result{Content: text, IsError: true}, state)
			}
			if !seen[m.ID] {
				owners = append(owners, m)
			}
		}
	}
	return owners
}

// stopPending starts the short run of Stop while approvals wait and no
// turn runs. It does nothing when nothing is pending.
func (rt *Runtime) stopPending(threadID string) {
	ctx, cancel := context.WithTimeout(rt.baseCx, 10*time.Second)
	defer cancel()
	pending, err := rt.opts.Store.PendingInterrupts(ctx, threadID)
	if err != nil {
		return
	}
	parent := ""
	for _, it := range pending {
		if resumable(it) {
			parent = it.RunID
			break
		}
	}
	if parent == "" {
		clients, err := rt.opts.Store.PendingClientToolCalls(ctx, threadID)
		if err != nil || len(clients) == 0 {
			return
		}
		parent = clients[0].RunID
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	t := rt.handle(threadID)
	if rt.closed || t.running {
		return
	}
	rt.launch(t, Input{ThreadID: threadID, RunID: NewID("run"), ParentRunID: parent, kind: kindStopPending})
}

// stopPendingRun is situation 2 of Stop: each pending call gets
// "Interrupted", its message gets the marker, and no model call follows.
func (tr *turn) stopPendingRun() ending {
	tr.loadGeneration()
	if err := tr.rt.opts.Store.PutRun(tr.save, tr.run); err != nil {
		tr.rt.log.Error("saving the run", "thread", tr.run.ThreadID, "err", err)
	}
	for _, m := range tr.cancelPending(history.ResultInterrupted, ToolInterrupted) {
		tr.markInterrupted(m)
	}
	tr.marked = true // nothing else to mark
	return endCancelled
}

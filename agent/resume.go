package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/interrupt"
	"github.com/juncture-app/juncture/agent/tools"
	"github.com/juncture-app/juncture/store"
)

// ErrNothingPending is returned by Resume when the thread waits on nothing
// and no answers were given.
var ErrNothingPending = errors.New("the thread has no pending approvals")

// RefusedError is returned by Resume when the answers were refused. The run
// RunID was emitted as RUN_STARTED then RUN_ERROR (TanStack error objects
// under metadata.tanstack.interruptErrors); nothing changed and the pending
// items stay answerable.
type RefusedError struct {
	RunID string
	Batch *interrupt.BatchError
	Err   error // set when checking the answers failed (not the person's fault)
}

func (e *RefusedError) Error() string {
	if e.Err != nil {
		return "the answers could not be checked: " + e.Err.Error()
	}
	return "the answers were refused: " + e.Batch.Error()
}

// Unwrap returns the failure behind a refusal, if any.
func (e *RefusedError) Unwrap() error { return e.Err }

// Resume answers the thread's pending approvals (all of them, in one
// batch) and starts the continuation run runID (generated when empty) with
// parentRunID, the interrupted run. Approved calls run exactly once (with
// edited arguments when given), denied ones get the person's reason, and
// the model loop continues as a normal turn. A refused batch gives a
// *RefusedError (its run RUN_STARTED + RUN_ERROR emitted); a busy thread
// ErrBusy, a closed runtime ErrClosed, without any event.
func (rt *Runtime) Resume(ctx context.Context, threadID, parentRunID string, entries []agui.ResumeEntry, runID string) error {
	if threadID == "" {
		return fmt.Errorf("resuming: thread id is empty")
	}
	if _, err := rt.opts.Model(); err != nil {
		return err
	}
	if runID == "" {
		runID = NewID("run")
	}
	rt.mu.Lock()
	if rt.closed {
		rt.mu.Unlock()
		return ErrClosed
	}
	t := rt.handle(threadID)
	if t.running {
		rt.mu.Unlock()
		return ErrBusy
	}
	// Reserve the thread while the answers are checked: input sent
	// meanwhile queues behind the continuation.
	runCtx, stop := context.WithCancel(rt.baseCx)
	t.running, t.runID, t.stop, t.stopped = true, runID, stop, false
	rt.turns.Add(1)
	rt.mu.Unlock()

	in := Input{ThreadID: threadID, RunID: runID, ParentRunID: parentRunID}
	var reg *tools.Registry
	if rt.opts.Tools != nil {
		reg = rt.opts.Tools()
	}
	decisions, refused, err := rt.checkResume(ctx, threadID, parentRunID, entries, reg)
	var out error
	if err != nil {
		refused = &interrupt.BatchError{Errors: []interrupt.Error{interrupt.NewEngineError(
			interrupt.Correlation{ThreadID: threadID, InterruptedRunID: parentRunID}, interrupt.CodeServer, err.Error(), entryIDs(entries))}}
	}
	switch {
	case refused != nil:
		term := refused.Terminal(runID, threadID, rt.opts.Now())
		in.kind = kindRefused
		in.refusal = agui.NewRunError(term.Message, term.Code, map[string]any{
			"tanstack": term.Metadata.Tanstack, "threadId": threadID, "runId": runID,
		})
		out = &RefusedError{RunID: runID, Batch: refused, Err: err}
	default:
		in.kind, in.decisions = kindResume, decisions
	}
	go rt.drive(t, runCtx, stop, in)
	return out
}

// PendingItem is a pending interrupt as the UI lists it. Kind is
// "tool-approval", "generic" or "unbound" (display-only: its binding is
// missing, malformed or of an unknown version; it never blocks input and
// cannot be answered).
type PendingItem struct {
	Kind      string         `json:"kind"`
	Interrupt agui.Interrupt `json:"interrupt"`
}

// resumable reports whether a stored item can be answered (its binding
// reads and correlates with its run).
func resumable(it history.Interrupt) bool {
	return classify(it) != string(interrupt.ClassUnbound)
}

func classify(it history.Interrupt) string {
	var d interrupt.Descriptor
	if err := json.Unmarshal(it.Descriptor, &d); err != nil {
		return string(interrupt.ClassUnbound)
	}
	items := interrupt.ClassifyBatch([]interrupt.Descriptor{d}, it.RunID)
	// Juncture binds every item it stores. One whose binding no longer
	// reads (another version wrote it, or it was damaged) is unbound, even
	// if it carries TanStack's legacy metadata marker: the client-side
	// legacy fallback is for producers that never wrote bindings.
	if len(items) == 0 || !items[0].Resumable || items[0].Legacy {
		return string(interrupt.ClassUnbound)
	}
	return string(items[0].Class)
}

// PendingItems returns every pending interrupt of the thread, unbound ones
// included, with its kind.
func (rt *Runtime) PendingItems(ctx context.Context, threadID string) ([]PendingItem, error) {
	pending, err := rt.opts.Store.PendingInterrupts(ctx, threadID)
	if err != nil {
		return nil, err
	}
	out := make([]PendingItem, 0, len(pending))
	for _, it := range pending {
		ai, err := InterruptToAGUI(it.Descriptor)
		if err != nil {
			ai = agui.Interrupt{ID: it.ID, Reason: "unknown"}
		}
		out = append(out, PendingItem{Kind: classify(it), Interrupt: ai})
	}
	return out, nil
}

// PendingApprovals returns the thread's answerable pending interrupts
// (approvals and questions) as AG-UI interrupts, and the run they
// interrupted. Unbound items are left out (see PendingItems).
func (rt *Runtime) PendingApprovals(ctx context.Context, threadID string) ([]agui.Interrupt, string, error) {
	pending, err := rt.opts.Store.PendingInterrupts(ctx, threadID)
	if err != nil {
		return nil, "", err
	}
	out := make([]agui.Interrupt, 0, len(pending))
	runID := ""
	for _, it := range pending {
		if !resumable(it) {
			continue
		}
		ai, err := InterruptToAGUI(it.Descriptor)
		if err != nil {
			return nil, "", err
		}
		out = append(out, ai)
		runID = it.RunID
	}
	return out, runID, nil
}

func entryIDs(entries []agui.ResumeEntry) []string {
	ids := make([]string, 0, len(entries))
	for _, e := range entries {
		ids = append(ids, e.InterruptID)
	}
	return ids
}

// checkResume validates the answers against the stored pending batch (all
// or nothing) and, when they are accepted, marks the items answered in one
// store call. refused is set when the answers were refused; err when the
// check itself failed.
func (rt *Runtime) checkResume(ctx context.Context, threadID, parentRunID string, entries []agui.ResumeEntry, reg *tools.Registry) (ds []decision, refused *interrupt.BatchError, err error) {
	st := rt.opts.Store
	all, err := st.PendingInterrupts(ctx, threadID)
	if err != nil {
		return nil, nil, err
	}
	var stored []history.Interrupt // unbound items are display-only
	for _, it := range all {
		if resumable(it) {
			stored = append(stored, it)
		}
	}
	if len(stored) == 0 && len(entries) == 0 {
		return nil, nil, ErrNothingPending
	}
	msgs, err := st.Messages(ctx, threadID)
	if err != nil {
		return nil, nil, err
	}
	calls, _ := callsByID(msgs)
	corr := interrupt.Correlation{ThreadID: threadID, InterruptedRunID: parentRunID}
	storedRun := ""
	if len(stored) > 0 {
		corr.Generation, storedRun = stored[0].Generation, stored[0].RunID
	}
	if parentRunID == "" && len(entries) == 0 {
		// Input without answers while items wait: report every missing
		// entry against the stored run.
		corr.InterruptedRunID = storedRun
	} else if parentRunID == "" {
		c := corr
		c.InterruptedRunID = storedRun
		return nil, &interrupt.BatchError{Errors: []interrupt.Error{interrupt.MissingParentRunError(c, entryIDs(entries))}}, nil
	}
	pending := make([]interrupt.Pending, 0, len(stored))
	for _, it := range stored {
		var d interrupt.Descriptor
		if err := json.Unmarshal(it.Descriptor, &d); err != nil {
			return nil, nil, fmt.Errorf("reading stored interrupt %s: %w", it.ID, err)
		}
		b, _ := interrupt.ReadBinding(d)
		p := interrupt.Pending{Descriptor: d, Binding: b}
		if c, ok := calls[it.ToolCallID]; ok {
			p.ToolCall = &interrupt.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments}
		}
		pending = append(pending, p)
	}
	var defs []interrupt.Tool
	if reg != nil {
		for _, name := range reg.Names() {
			t, _ := reg.Lookup(name)
			defs = append(defs, ApprovalTool(t))
		}
	}
	resume := make([]interrupt.ResumeEntry, 0, len(entries))
	byID := map[string]agui.ResumeEntry{}
	for _, e := range entries {
		re := interrupt.ResumeEntry{InterruptID: e.InterruptID, Status: interrupt.ResumeStatus(e.Status), Payload: e.Payload}
		if e.Metadata != nil {
			if re.Metadata, err = json.Marshal(e.Metadata); err != nil {
				return nil, nil, err
			}
		}
		resume = append(resume, re)
		if _, dup := byID[e.InterruptID]; !dup {
			byID[e.InterruptID] = e
		}
	}
	acc, berr := interrupt.ValidateResumeBatch(pending, resume, rt.opts.Now(), interrupt.BatchOptions{Correlation: corr, Tools: defs})
	if berr != nil {
		return nil, berr, nil
	}

	var itemErrs []interrupt.Error
	res := make([]store.Resolution, 0, len(stored))
	for i, it := range stored {
		e := byID[it.ID]
		raw, err := json.Marshal(e)
		if err != nil {
			return nil, nil, err
		}
		r := store.Resolution{ID: it.ID, Status: history.InterruptResolved, Response: raw}
		call, ok := calls[it.ToolCallID]
		if !ok {
			call = history.ToolCall{ID: it.ToolCallID, Name: pending[i].Binding.ToolName, Arguments: "{}"}
		}
		if pending[i].Binding.Kind == interrupt.KindGeneric {
			g := acc.State.GenericInterrupts[it.ID]
			cancelled := e.Status == string(interrupt.StatusCancelled)
			if cancelled {
				r.Status = history.InterruptCancelled
			}
			switch {
			case it.ToolCallID != "" && ok:
				// An ask_user question: the answer is the tool result.
				d := decision{call: call, result: answerText(g.Payload), state: ToolDone}
				if cancelled {
					d = decision{call: call, result: ResultQuestionDismissed, state: ToolInterrupted, isError: true}
				}
				ds = append(ds, d)
			case it.ToolCallID == "":
				ds = append(ds, decision{hookDef: pending[i].Binding.DefinitionID, answer: g.Payload, cancelled: cancelled})
			}
			res = append(res, r)
			continue
		}
		switch {
		case e.Status == string(interrupt.StatusCancelled):
			r.Status = history.InterruptCancelled
			ds = append(ds, decision{call: call, result: history.ResultInterrupted, state: ToolInterrupted, isError: true})
		case acc.State.Approvals[it.ToolCallID].Approved:
			a := acc.State.Approvals[it.ToolCallID]
			if a.EditedArgs != nil {
				if reg == nil {
					itemErrs = append(itemErrs, editError(corr, it.ID, "No tools are available to check the edited arguments."))
					break
				}
				norm, err := reg.Normalize(call.Name, a.EditedArgs)
				if err != nil {
					itemErrs = append(itemErrs, editError(corr, it.ID, err.Error()))
					break
				}
				call.Arguments = string(norm)
			}
			ds = append(ds, decision{call: call, approved: true, edited: a.EditedArgs != nil})
		default:
			text := ResultDenied
			if reason := acc.State.Approvals[it.ToolCallID].Reason(); reason != "" {
				text += " Their reason: " + reason
			}
			ds = append(ds, decision{call: call, result: text, state: ToolDenied, isError: true})
		}
		res = append(res, r)
	}
	if len(itemErrs) > 0 {
		ids := make([]string, 0, len(stored))
		for _, it := range stored {
			ids = append(ids, it.ID)
		}
		itemErrs = append(itemErrs, interrupt.Error{Scope: interrupt.ScopeBatch, ThreadID: corr.ThreadID,
			InterruptedRunID: corr.InterruptedRunID, Generation: corr.Generation, Code: interrupt.CodeItemValidationFailed,
			Message: "One or more interrupt resolutions are invalid.", Source: interrupt.SourceClient, InterruptIDs: ids})
		return nil, &interrupt.BatchError{Errors: itemErrs}, nil
	}
	if err := st.ResolveInterrupts(ctx, threadID, res); err != nil {
		var conflict *store.ConflictError
		if errors.As(err, &conflict) {
			return nil, &interrupt.BatchError{Errors: []interrupt.Error{interrupt.NewEngineError(corr, interrupt.CodeConflict, err.Error(), conflict.IDs)}}, nil
		}
		return nil, nil, err
	}
	return ds, nil, nil
}

func editError(c interrupt.Correlation, id, msg string) interrupt.Error {
	return interrupt.Error{Scope: interrupt.ScopeItem, ThreadID: c.ThreadID, InterruptedRunID: c.InterruptedRunID,
		Generation: c.Generation, InterruptID: id, Code: interrupt.CodeInvalidEditedArgs,
		Message: "Edited arguments are invalid: " + msg, Source: interrupt.SourceClient}
}

// applyDecisions gives every decided call of a continuation its one
// result: approved calls run (exactly once), the others get their text;
// a middleware answer is applied. Stop between calls answers the rest
// "Interrupted" and ends the run. stage is where the model loop goes on
// ("" = the run ends).
func (tr *turn) applyDecisions(ds []decision) (ending, Boundary) {
	msgs, err := tr.rt.opts.Store.Messages(tr.save, tr.run.ThreadID)
	if err != nil {
		return tr.fail(fmt.Errorf("loading the thread: %w", err), ""), ""
	}
	_, owner := callsByID(msgs)
	mark := func() {
		seen := map[string]bool{}
		for _, d := range ds {
			if m, ok := owner[d.call.ID]; ok && !seen[m.ID] {
				seen[m.ID] = true
				tr.markInterrupted(m)
			}
		}
		tr.marked = true
	}
	stage := AfterTools
	for i, d := range ds {
		if d.hookDef != "" {
			if m, ok := tr.rt.middlewareByDef(d.hookDef); ok {
				stage = map[Boundary]Boundary{BeforeModel: BeforeModel, AfterModel: BeforeTools, BeforeTools: BeforeTools, AfterTools: BeforeModel}[m.Boundary]
			}
			end, stop := tr.applyHook(d)
			if stop {
				return end, ""
			}
			continue
		}
		if tr.ctx.Err() != nil {
			for _, rest := range ds[i:] {
				if rest.hookDef != "" {
					continue
				}
				if rest.approved {
					tr.toolResult(rest.call, tools.Result{Content: history.ResultInterrupted, IsError: true}, ToolInterrupted)
				} else {
					tr.toolResult(rest.call, tools.Result{Content: rest.result, IsError: rest.isError}, rest.state)
				}
			}
			mark()
			return endCancelled, ""
		}
		if d.approved {
			note := ""
			if d.edited {
				// The model's own call still shows its arguments: say
				// what actually ran.
				note = "The person edited the arguments before approving; the tool ran with " + d.call.Arguments + ".\n\n"
			}
			tr.runTool(d.call, note)
		} else {
			tr.toolResult(d.call, tools.Result{Content: d.result, IsError: d.isError}, d.state)
		}
	}
	if tr.ctx.Err() != nil {
		mark()
		return endCancelled, ""
	}
	return endSuccess, stage
}

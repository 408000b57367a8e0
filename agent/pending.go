package agent

// Pending items: what a paused thread waits on, as the window lists it
// (PendingItems, PendingApprovals), and the checking of a batch of answers
// against it (validateAnswers).

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/interrupt"
	"github.com/juncture-app/juncture/agent/tools"
)

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
	pending, err := rt.st.PendingInterrupts(ctx, threadID)
	if err != nil {
		return nil, err
	}
	out := make([]PendingItem, 0, len(pending))
	for _, it := range pending {
		ai, err := agui.FromDescriptor(it.Descriptor)
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
	pending, err := rt.st.PendingInterrupts(ctx, threadID)
	if err != nil {
		return nil, "", err
	}
	out := make([]agui.Interrupt, 0, len(pending))
	runID := ""
	for _, it := range pending {
		if !resumable(it) {
			continue
		}
		ai, err := agui.FromDescriptor(it.Descriptor)
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

// validateAnswers checks the answers against the stored pending items
// (all or nothing: every stored item needs its entry) and returns what
// the continuation does and how the items are settled, changing nothing.
// refused is set when the answers were refused; err when the check itself
// failed.
func (rt *Runtime) validateAnswers(ctx context.Context, threadID, parentRunID string, stored []history.Interrupt, entries []agui.ResumeEntry, reg *tools.Registry) (ds []decision, res []history.Resolution, refused *interrupt.BatchError, err error) {
	msgs, err := rt.st.Messages(ctx, threadID)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("loading the thread: %w", err)
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
		return nil, nil, &interrupt.BatchError{Errors: []interrupt.Error{interrupt.MissingParentRunError(c, entryIDs(entries))}}, nil
	}
	pending, err := pendingOf(stored, calls)
	if err != nil {
		return nil, nil, nil, err
	}
	resume, byID, err := resumeEntries(entries)
	if err != nil {
		return nil, nil, nil, err
	}
	acc, berr := interrupt.ValidateResumeBatch(pending, resume, rt.opts.Now(), interrupt.BatchOptions{Correlation: corr, Tools: approvalTools(reg)})
	if berr != nil {
		return nil, nil, berr, nil
	}

	var itemErrs []interrupt.Error
	res = make([]history.Resolution, 0, len(stored))
	for i, it := range stored {
		e := byID[it.ID]
		raw, err := json.Marshal(e)
		if err != nil {
			return nil, nil, nil, err
		}
		r := history.Resolution{ID: it.ID, Status: history.InterruptResolved, Response: raw}
		call, ok := calls[it.ToolCallID]
		if !ok {
			call = history.ToolCall{ID: it.ToolCallID, Name: pending[i].Binding.ToolName, Arguments: "{}"}
		}
		cancelled := e.Status == string(interrupt.StatusCancelled)
		if cancelled {
			r.Status = history.InterruptCancelled
		}
		if pending[i].Binding.Kind == interrupt.KindGeneric && pending[i].Binding.DefinitionID == DefToolPrompt {
			pm := promptMetaOf(pending[i].Descriptor)
			reply := promptReply(pm.Kind, acc.State.GenericInterrupts[it.ID].Payload, cancelled, e.Metadata)
			ds = append(ds, decision{call: call, midCall: true, reply: reply, prompt: pm, replies: map[string]tools.Reply{it.ID: reply}})
			res = append(res, r)
			continue
		}
		if pending[i].Binding.Kind == interrupt.KindGeneric {
			if d, ok := genericDecision(it, pending[i].Binding, acc.State.GenericInterrupts[it.ID].Payload, call, ok, cancelled); ok {
				ds = append(ds, d)
			}
			res = append(res, r)
			continue
		}
		d, itemErr := approvalDecision(corr, it, acc.State.Approvals[it.ToolCallID], call, cancelled, reg)
		if itemErr != nil {
			itemErrs = append(itemErrs, *itemErr)
			continue
		}
		ds = append(ds, d)
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
		return nil, nil, &interrupt.BatchError{Errors: itemErrs}, nil
	}
	return ds, res, nil, nil
}

// genericDecision is what a question's answer does: an ask_user answer
// is its call's result; a middleware answer goes to its middleware. ok is
// false when the item leads nowhere (its call is gone from the history).
func genericDecision(it history.Interrupt, b interrupt.Binding, payload json.RawMessage, call history.ToolCall, hasCall, cancelled bool) (decision, bool) {
	switch {
	case it.ToolCallID != "" && hasCall && cancelled:
		return decision{call: call, result: ResultQuestionDismissed, state: contract.ToolInterrupted, isError: true}, true
	case it.ToolCallID != "" && hasCall:
		// answer: the ledger records it (secrets redacted).
		return decision{call: call, result: answerText(payload), state: contract.ToolDone, answer: payload}, true
	case it.ToolCallID == "":
		return decision{hookDef: b.DefinitionID, answer: payload, cancelled: cancelled}, true
	}
	return decision{}, false
}

// approvalDecision is what an approval's answer does: a cancelled one
// is "Interrupted", an approved one runs (with edited arguments checked
// against the tool's schema), a denied one tells the model the reason.
func approvalDecision(corr interrupt.Correlation, it history.Interrupt, a interrupt.Approval, call history.ToolCall, cancelled bool, reg *tools.Registry) (decision, *interrupt.Error) {
	switch {
	case cancelled:
		return decision{call: call, result: history.ResultInterrupted, state: contract.ToolInterrupted, isError: true}, nil
	case a.Approved:
		if a.EditedArgs != nil {
			if reg == nil {
				e := editError(corr, it.ID, "No tools are available to check the edited arguments.")
				return decision{}, &e
			}
			norm, err := reg.Normalize(call.Name, a.EditedArgs)
			if err != nil {
				e := editError(corr, it.ID, err.Error())
				return decision{}, &e
			}
			call.Arguments = string(norm)
		}
		return decision{call: call, approved: true, edited: a.EditedArgs != nil}, nil
	}
	text := ResultDenied
	if reason := a.Reason(); reason != "" {
		text += " Their reason: " + reason
	}
	return decision{call: call, result: text, state: contract.ToolDenied, isError: true}, nil
}

// pendingOf describes the stored items to the interrupt model, each with
// the call it is about.
func pendingOf(stored []history.Interrupt, calls map[string]history.ToolCall) ([]interrupt.Pending, error) {
	pending := make([]interrupt.Pending, 0, len(stored))
	for _, it := range stored {
		var d interrupt.Descriptor
		if err := json.Unmarshal(it.Descriptor, &d); err != nil {
			return nil, fmt.Errorf("reading stored interrupt %s: %w", it.ID, err)
		}
		b, _ := interrupt.ReadBinding(d)
		p := interrupt.Pending{Descriptor: d, Binding: b}
		if c, ok := calls[it.ToolCallID]; ok {
			p.ToolCall = &interrupt.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments}
		}
		pending = append(pending, p)
	}
	return pending, nil
}

// approvalTools describes the registry's tools to the interrupt model.
func approvalTools(reg *tools.Registry) []interrupt.Tool {
	if reg == nil {
		return nil
	}
	var defs []interrupt.Tool
	for _, name := range reg.Names() {
		t, _ := reg.Lookup(name)
		defs = append(defs, ApprovalTool(t))
	}
	return defs
}

// resumeEntries converts the answers to the interrupt model's entries and
// indexes them by interrupt id (the first of duplicates; validation
// reports the duplicate).
func resumeEntries(entries []agui.ResumeEntry) ([]interrupt.ResumeEntry, map[string]agui.ResumeEntry, error) {
	resume := make([]interrupt.ResumeEntry, 0, len(entries))
	byID := map[string]agui.ResumeEntry{}
	for _, e := range entries {
		re := interrupt.ResumeEntry{InterruptID: e.InterruptID, Status: interrupt.ResumeStatus(e.Status), Payload: e.Payload}
		if e.Metadata != nil {
			var err error
			if re.Metadata, err = json.Marshal(e.Metadata); err != nil {
				return nil, nil, fmt.Errorf("reading the metadata of answer %s: %w", e.InterruptID, err)
			}
		}
		resume = append(resume, re)
		if _, dup := byID[e.InterruptID]; !dup {
			byID[e.InterruptID] = e
		}
	}
	return resume, byID, nil
}

func editError(c interrupt.Correlation, id, msg string) interrupt.Error {
	return interrupt.Error{Scope: interrupt.ScopeItem, ThreadID: c.ThreadID, InterruptedRunID: c.InterruptedRunID,
		Generation: c.Generation, InterruptID: id, Code: interrupt.CodeInvalidEditedArgs,
		Message: "Edited arguments are invalid: " + msg, Source: interrupt.SourceClient}
}

package agent

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/juncture-app/juncture/agent/agui"
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
	pending := make([]interrupt.Pending, 0, len(stored))
	for _, it := range stored {
		var d interrupt.Descriptor
		if err := json.Unmarshal(it.Descriptor, &d); err != nil {
			return nil, nil, nil, fmt.Errorf("reading stored interrupt %s: %w", it.ID, err)
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
				return nil, nil, nil, err
			}
		}
		resume = append(resume, re)
		if _, dup := byID[e.InterruptID]; !dup {
			byID[e.InterruptID] = e
		}
	}
	acc, berr := interrupt.ValidateResumeBatch(pending, resume, rt.opts.Now(), interrupt.BatchOptions{Correlation: corr, Tools: defs})
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
		return nil, nil, &interrupt.BatchError{Errors: itemErrs}, nil
	}
	return ds, res, nil, nil
}

func editError(c interrupt.Correlation, id, msg string) interrupt.Error {
	return interrupt.Error{Scope: interrupt.ScopeItem, ThreadID: c.ThreadID, InterruptedRunID: c.InterruptedRunID,
		Generation: c.Generation, InterruptID: id, Code: interrupt.CodeInvalidEditedArgs,
		Message: "Edited arguments are invalid: " + msg, Source: interrupt.SourceClient}
}

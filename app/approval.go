package app

import (
	"encoding/json"
	"errors"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/interrupt"
)

// stagedAnswers holds RespondPermission answers for one paused run until
// every pending item of that run has one.
type stagedAnswers struct {
	runID   string
	entries map[string]agui.ResumeEntry // by interrupt id
}

// ResolveInterrupts answers every pending interrupt of the thread in one
// batch (all or nothing) and starts the continuation.
func (a *App) ResolveInterrupts(threadID string, resolutions []agui.ResumeEntry) error {
	if a.readOnly != "" {
		return errorf(CodeUnavailable, "This is a read-only copy of a damaged database; answers cannot be saved.")
	}
	ctx, cancel := a.ctx()
	defer cancel()
	_, runID, err := a.rt.PendingApprovals(ctx, threadID)
	if err != nil {
		return asError(err)
	}
	if runID == "" {
		return asError(agent.ErrNothingPending)
	}
	a.approvalMu.Lock()
	delete(a.staged, threadID)
	a.approvalMu.Unlock()
	return asErrorOrNil(a.rt.Resume(ctx, threadID, runID, resolutions, ""))
}

// RespondPermission answers one pending tool approval. Once every pending
// approval of the paused run has an answer the continuation starts. With
// remember (allow only), the "Always allow" rule is stored first.
func (a *App) RespondPermission(threadID, toolCallID string, allow bool, remember *RememberScope) error {
	if a.readOnly != "" {
		return errorf(CodeUnavailable, "This is a read-only copy of a damaged database; answers cannot be saved.")
	}
	ctx, cancel := a.ctx()
	defer cancel()
	pending, err := a.db.PendingInterrupts(ctx, threadID)
	if err != nil {
		return asError(err)
	}
	var item *history.Interrupt
	for i := range pending {
		if pending[i].ToolCallID == toolCallID && pending[i].Kind == history.KindToolApproval {
			item = &pending[i]
			break
		}
	}
	if item == nil {
		return errorf(CodeNotFound, "No approval is waiting for this tool call.")
	}
	if allow && remember != nil {
		var d interrupt.Descriptor
		if err := json.Unmarshal(item.Descriptor, &d); err != nil {
			return asError(err)
		}
		b, _ := interrupt.ReadBinding(d)
		scope := remember.Scope
		if scope == "" {
			scope = history.ScopeTool
		}
		switch scope {
		case history.ScopeTool, history.ScopeCommandPrefix, history.ScopeFolder:
		default:
			return errorf(CodeInvalidArgument, "Unknown rule scope "+scope+".")
		}
		if scope != history.ScopeTool && remember.Pattern == "" {
			return errorf(CodeInvalidArgument, "This rule needs a pattern.")
		}
		rule := history.PermissionRule{ID: agent.NewID("rule"), Tool: b.ToolName, Scope: scope, Pattern: remember.Pattern}
		if rule.Tool == "" {
			return errorf(CodeInternal, "The approval does not name its tool.")
		}
		if err := a.db.AddPermissionRule(ctx, rule); err != nil {
			return asError(err)
		}
	}
	payload := `{"approved":false,"payload":{}}`
	if allow {
		payload = `{"approved":true}`
	}
	e := agui.ResumeEntry{InterruptID: item.ID, Status: "resolved", Payload: json.RawMessage(payload)}

	a.approvalMu.Lock()
	if a.staged == nil {
		a.staged = map[string]*stagedAnswers{}
	}
	st := a.staged[threadID]
	if st == nil || st.runID != item.RunID {
		st = &stagedAnswers{runID: item.RunID, entries: map[string]agui.ResumeEntry{}}
		a.staged[threadID] = st
	}
	st.entries[item.ID] = e
	var batch []agui.ResumeEntry
	for _, it := range pending {
		if it.RunID != item.RunID {
			continue
		}
		answer, ok := st.entries[it.ID]
		if !ok {
			a.approvalMu.Unlock()
			return nil // more answers to come
		}
		batch = append(batch, answer)
	}
	delete(a.staged, threadID)
	a.approvalMu.Unlock()

	if err := a.rt.Resume(ctx, threadID, item.RunID, batch, ""); err != nil {
		var refused *agent.RefusedError
		if !errors.As(err, &refused) {
			// Nothing was decided (busy, shut down): keep the answers.
			a.approvalMu.Lock()
			if a.staged[threadID] == nil {
				a.staged[threadID] = st
			}
			a.approvalMu.Unlock()
		}
		return asError(err)
	}
	return nil
}

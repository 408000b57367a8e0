package app

import (
	"encoding/json"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/app/answers"
)

// The window's ways to answer a paused thread. Answer is the one the
// window uses; the others are conversions onto it, kept for scripts and
// older clients. The runtime owns every rule: what is kept, when the batch
// is complete, when remembered rules are written, when the run goes on.

// Answer answers part or all of what the thread waits on. Partial answers
// are kept (a restart keeps them); once every item has one the
// continuation starts and Continued is true.
func (a *App) Answer(threadID string, batch AnswerBatch) (AnswerResult, error) {
	return a.answer(threadID, batch.Runtime())
}

// ResolveInterrupts answers every pending interrupt of the thread in one
// batch (all or nothing: nothing is kept from a refused one) and starts
// the continuation.
func (a *App) ResolveInterrupts(threadID string, resolutions []agui.ResumeEntry) error {
	batch := AnswerBatch{}
	for _, r := range resolutions {
		batch.Answers = append(batch.Answers, ItemAnswer{InterruptID: r.InterruptID, Status: r.Status, Payload: r.Payload})
	}
	in := batch.Runtime()
	in.Complete = true
	_, err := a.answer(threadID, in)
	return err
}

// answer hands answers to the runtime. A complete batch is for the paused
// run the thread's items belong to.
func (a *App) answer(threadID string, in agent.Answers) (AnswerResult, error) {
	if err := a.writable("Answer"); err != nil {
		return AnswerResult{}, err
	}
	ctx, cancel := a.ctx()
	defer cancel()
	if in.Complete {
		_, runID, err := a.rt.PendingApprovals(ctx, threadID)
		if err != nil {
			return AnswerResult{}, asError(err)
		}
		if runID == "" {
			return AnswerResult{}, asError(agent.ErrNothingPending)
		}
		in.ParentRunID = runID
	}
	in.Transport = a.transport() // the ledger says how the answer came
	out, err := a.rt.Answer(ctx, threadID, in)
	if err != nil {
		return AnswerResult{}, asError(err)
	}
	if out.Waiting == nil {
		out.Waiting = []string{}
	}
	return AnswerResult{Continued: out.Continued, RunID: out.RunID, Waiting: out.Waiting}, nil
}

// RespondPermission answers one pending tool approval (with remember, an
// "Always allow" rule is recorded when the batch is accepted). The answer
// is kept until every item of the paused run has one; when the batch also
// holds questions or window actions it keeps waiting for them, and the
// error says so rather than reporting a success that changed nothing.
func (a *App) RespondPermission(threadID, toolCallID string, allow bool, remember *RememberScope) error {
	ctx, cancel := a.ctx()
	defer cancel()
	pending, err := a.db.PendingInterrupts(ctx, threadID)
	if err != nil {
		return asError(err)
	}
	item := answers.Approval(pending, toolCallID)
	if item == nil {
		return errorf(CodeNotFound, "No approval is waiting for this tool call.")
	}
	payload := `{"approved":false,"payload":{}}`
	if allow {
		payload = `{"approved":true}`
	}
	res, err := a.Answer(threadID, AnswerBatch{Answers: []ItemAnswer{{
		InterruptID: item.ID, Status: "resolved", Payload: json.RawMessage(payload), Remember: remember,
	}}})
	if err != nil {
		return err
	}
	if !res.Continued && answers.WaitsOnOthers(pending, res.Waiting) {
		return &Error{Code: CodePending, Message: "Your answer is kept. The run goes on once the other waiting items are answered too.",
			Details: map[string]string{"waiting": answers.JoinIDs(res.Waiting)}}
	}
	return nil
}

// ToolOutput is a client tool's result.
type ToolOutput struct {
	Content string `json:"content"`
	IsError bool   `json:"isError,omitempty"`
}

// CompleteClientTool reports the result of a tool the window ran (nil =
// the person cancelled it): Answer with one client result.
func (a *App) CompleteClientTool(threadID, toolCallID string, result *ToolOutput) error {
	r := ClientToolAnswer{ToolCallID: toolCallID, Cancelled: result == nil}
	if result != nil {
		r.Content, r.IsError = result.Content, result.IsError
	}
	_, err := a.Answer(threadID, AnswerBatch{ClientResults: []ClientToolAnswer{r}})
	return err
}

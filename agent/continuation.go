package agent

import (
	"encoding/json"

	"github.com/juncture-app/juncture/agent/contract"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
)

// A continuation: what it does with each answered item (decision), and
// how it applies them before the model loop goes on (resume).

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
	prompt  PromptMeta // what the running call asked, for the ledger
	// task: a task call resumed after a restart (tasks.go), its
	// execution record with the kept handle.
	task *history.ToolExecution
	// replies are the answers to the call's questions by interrupt id
	// (a call waiting between round trips may ask several: roundtrip.go).
	replies map[string]tools.Reply
}

// resume applies a continuation's answers: middleware answers first, then
// the paused answer's calls in order, with the decisions. stage is where
// the model loop goes on ("" = the run ends).
func (tr *turn) resume(in Input) (ending, Boundary) {
	stage := AfterTools
	for _, d := range in.hooks {
		if m, ok := tr.rt.middlewareByDef(d.hookDef); ok {
			stage = map[Boundary]Boundary{BeforeModel: BeforeModel, AfterModel: BeforeTools, BeforeTools: BeforeTools, AfterTools: BeforeModel}[m.Boundary]
		}
		if end, stop := tr.applyHook(d); stop {
			return end, ""
		}
	}
	if len(in.decisions) == 0 {
		if tr.ctx.Err() != nil {
			return endCancelled, ""
		}
		return endSuccess, stage
	}
	msg, open := tr.openCalls()
	if end := tr.runCalls(msg, open, in.decisions); end != endSuccess {
		return end, ""
	}
	if onlyViewCalls(in.decisions) && len(in.hooks) == 0 {
		// A view waits for these results, not the model.
		return endSuccess, ""
	}
	return endSuccess, AfterTools
}

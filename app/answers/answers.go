// Package answers is the window's vocabulary for answering a paused thread.
//
// A batch answers its approvals and questions and gives the results of
// actions the window ran; AnswerResult says what it did; Runtime is the
// batch as the runtime takes it (agent.Answers). For the older
// one-approval call: the approval a tool call waits on and whether
// anything else still waits.
package answers

import (
	"encoding/json"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
)

// AnswerBatch is what the person answered on a paused thread: approvals
// and questions (by interrupt id) and the results of actions the window
// ran (by tool call id). It may answer part of the paused batch: partial
// answers are kept (durably) until every item has one, then the
// continuation starts.
type AnswerBatch struct {
	Answers       []ItemAnswer       `json:"answers"`
	ClientResults []ClientToolAnswer `json:"clientResults"`
}

// ItemAnswer answers one pending interrupt (an AG-UI resume entry) and, for
// an approval, may ask to always allow such calls: the rule is recorded
// only when the whole batch is accepted.
type ItemAnswer struct {
	InterruptID string          `json:"interruptId"`
	Status      string          `json:"status"` // "resolved" or "cancelled"
	Payload     json.RawMessage `json:"payload,omitempty"`
	// Metadata is the resume entry's metadata: {"action":"decline"} on a
	// cancelled MCP request says the person declined it (plain cancel:
	// dismissed).
	Metadata map[string]any `json:"metadata,omitempty"`
	Remember *RememberScope `json:"remember,omitempty"`
}

// ClientToolAnswer is the outcome of an action the window ran.
type ClientToolAnswer struct {
	ToolCallID string `json:"toolCallId"`
	Content    string `json:"content"`
	IsError    bool   `json:"isError,omitempty"`
	Cancelled  bool   `json:"cancelled,omitempty"` // the person cancelled it
}

// AnswerResult says what an answer did. Continued: the batch was complete
// and the continuation run RunID started. Otherwise Waiting lists the items
// (interrupt ids and client tool call ids) that still need an answer.
type AnswerResult struct {
	Continued bool     `json:"continued"`
	RunID     string   `json:"runId,omitempty"`
	Waiting   []string `json:"waiting"`
}

// RememberScope is an "Always allow" choice (or, with Deny on a declined
// approval, a "Never" one): its scope, how long it lasts, and the
// argument and glob of the argument scopes. It is agent.Remember under the
// name the window knows, so a field added there reaches the window.
type RememberScope agent.Remember

// Runtime is the batch as the runtime takes it.
func (b AnswerBatch) Runtime() agent.Answers {
	var in agent.Answers
	for _, ia := range b.Answers {
		ans := agent.InterruptAnswer{ResumeEntry: agui.ResumeEntry{InterruptID: ia.InterruptID, Status: ia.Status, Payload: ia.Payload, Metadata: ia.Metadata}}
		if ia.Remember != nil {
			rem := agent.Remember(*ia.Remember) // a copy: the batch stays the window's
			ans.Remember = &rem
		}
		in.Interrupts = append(in.Interrupts, ans)
	}
	for _, r := range b.ClientResults {
		in.ClientResults = append(in.ClientResults, agent.ClientToolResult(r))
	}
	return in
}

// Approval is the tool approval pending for a tool call (nil when none).
func Approval(pending []history.Interrupt, toolCallID string) *history.Interrupt {
	for i := range pending {
		if pending[i].ToolCallID == toolCallID && pending[i].Kind == history.KindToolApproval {
			return &pending[i]
		}
	}
	return nil
}

// WaitsOnOthers reports whether something other than tool approvals
// still waits (a question or a window action, by the items pending when
// the answer was given): an approval alone can never complete such
// a batch.
func WaitsOnOthers(pending []history.Interrupt, waiting []string) bool {
	approvals := map[string]bool{}
	for _, it := range pending {
		if it.Kind == history.KindToolApproval {
			approvals[it.ID] = true
		}
	}
	for _, id := range waiting {
		if !approvals[id] {
			return true
		}
	}
	return false
}

// JoinIDs is ids as a JSON list (an error's details).
func JoinIDs(ids []string) string {
	b, _ := json.Marshal(ids)
	return string(b)
}

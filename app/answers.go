package app

import (
	"encoding/json"
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

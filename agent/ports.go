package agent

import (
	"context"
	"encoding/json"

	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/model"
)

// The runtime's seams. It defines what it needs from the outside, with its
// own types (agent/history), so any store, model provider or test double
// plugs in without the runtime knowing it: store.DB implements the store
// ports, openai.Client (agent/model/openai) implements Model, and the
// tests script a Model at this interface as well as over HTTP.

// Model is the language model a turn streams from: model.Model, the
// provider-neutral seam (see agent/model for why an alias).
type Model = model.Model

// ModelSource returns the model a thread runs with (its own endpoint and
// model, or the person's defaults), or ErrNotConfigured. It is called
// before every model call, so a change applies from the next model call.
// threadID is "" when no thread is concerned (a check that a model is
// configured at all).
type ModelSource func(ctx context.Context, threadID string) (Model, error)

// MessageStore keeps the threads' messages. Writes of one message are
// atomic; PutMessage supersedes any pending Checkpoint of the same message.
type MessageStore interface {
	CreateThread(ctx context.Context, t history.Thread) error
	Messages(ctx context.Context, threadID string) ([]history.Message, error)
	PutMessage(ctx context.Context, m history.Message) error
	// Checkpoint records a streaming snapshot without blocking; it is
	// written within a bounded delay (or superseded by PutMessage).
	Checkpoint(m history.Message)
}

// AttachmentStore keeps attached files with the person's message.
type AttachmentStore interface {
	PutMessageWithAttachments(ctx context.Context, m history.Message, blobs []history.Attachment) error
	Attachment(ctx context.Context, hash string) (history.Attachment, error)
}

// RunStore keeps the run records.
type RunStore interface {
	PutRun(ctx context.Context, r history.Run) error
	// LatestRun returns the thread's most recent run (history.ErrNotFound
	// when it has none): the interrupt generation and the turn's step
	// count are carried from it.
	LatestRun(ctx context.Context, threadID string) (history.Run, error)
}

// ExecutionLog is the exactly-once record of tool executions, keyed by
// thread and tool call id.
type ExecutionLog interface {
	// BeginToolExecution records that a tool call is about to run. If the
	// call already has a record it returns it and records nothing.
	BeginToolExecution(ctx context.Context, e history.ToolExecution) (prior *history.ToolExecution, err error)
	FinishToolExecution(ctx context.Context, e history.ToolExecution) error
}

// PauseStore keeps what a paused run waits on: interrupts (approvals and
// questions), client tool calls, the partial answers given so far, and the
// settling of a complete batch.
type PauseStore interface {
	// PutInterrupts stores pause items (upsert by id) in one transaction.
	PutInterrupts(ctx context.Context, its []history.Interrupt) error
	// PendingInterrupts returns the thread's pending items in stored order.
	PendingInterrupts(ctx context.Context, threadID string) ([]history.Interrupt, error)
	// PutClientToolCall stores a window-executed call (upsert by thread
	// and tool call id).
	PutClientToolCall(ctx context.Context, c history.ClientToolCall) error
	// PendingClientToolCalls returns the thread's pending client calls.
	PendingClientToolCalls(ctx context.Context, threadID string) ([]history.ClientToolCall, error)
	// ClientToolCall returns one client call (history.ErrNotFound if none).
	ClientToolCall(ctx context.Context, threadID, toolCallID string) (history.ClientToolCall, error)
	// StageAnswers keeps partial answers of pending items (upsert by item
	// id); a *history.ConflictError names items no longer pending.
	StageAnswers(ctx context.Context, threadID string, answers []history.StagedAnswer) error
	// StagedAnswers returns the thread's kept partial answers.
	StagedAnswers(ctx context.Context, threadID string) ([]history.StagedAnswer, error)
	// Settle applies an accepted batch all or nothing (see
	// history.Settlement); a *history.ConflictError when an item is no
	// longer pending: the first resolver wins.
	Settle(ctx context.Context, s history.Settlement) error
}

// RuleStore reads the remembered rules (they are written only through
// Settle, by the batch that was accepted, and by the person's settings).
type RuleStore interface {
	PermissionRules(ctx context.Context) ([]history.PermissionRule, error)
	// DecideByRule decides a call by the rules in force at q.Now, in one
	// transaction with reading them: rules past their end never decide
	// (they are recorded as expired), a deny rule that matches wins over
	// an allow rule, and the decision is appended to the ledger. ok is
	// false when no rule decides.
	DecideByRule(ctx context.Context, q history.RuleQuery, match func(history.PermissionRule) bool) (rule history.PermissionRule, ok bool, err error)
}

// Ledger appends decisions to the decision ledger (in order, one
// transaction).
type Ledger interface {
	AppendLedger(ctx context.Context, entries ...history.LedgerEntry) error
}

// BranchStore is the tree behind the active path (store.DB implements it).
type BranchStore interface {
	// AllMessages returns every message of the thread on every branch.
	AllMessages(ctx context.Context, threadID string) ([]history.Message, error)
	// ToolCallIDs returns every tool call id of the thread, on every
	// branch (read before each model call: ids only, no message decoded).
	ToolCallIDs(ctx context.Context, threadID string) (map[string]bool, error)
	// PathTo returns the path from a first message to messageID.
	PathTo(ctx context.Context, threadID, messageID string) ([]history.Message, error)
	// SetActiveLeaf ends the active path at messageID ("" for empty).
	SetActiveLeaf(ctx context.Context, threadID, messageID string) error
	// SelectBranch makes the path through messageID active, down to the
	// message of that branch last active, and returns that leaf.
	SelectBranch(ctx context.Context, threadID, messageID string) (string, error)
}

// RoundTripStore keeps the calls that wait between two round trips
// (store/roundtrips.go).
type RoundTripStore interface {
	PauseRoundTrip(ctx context.Context, rt history.RoundTrip, its []history.Interrupt) error
	TakeRoundTrip(ctx context.Context, threadID, toolCallID, runID string) (history.RoundTrip, error)
	EndRoundTrip(ctx context.Context, e history.ToolExecution) error
}

// TaskStore keeps task handles with running calls, so a task call can be
// resumed after a restart (tasks.go).
type TaskStore interface {
	RecordToolTask(ctx context.Context, threadID, toolCallID string, handle json.RawMessage) error
}

// Store is every store port the runtime uses; one database usually
// implements them all. Each part of the runtime uses only its own port.
type Store interface {
	MessageStore
	AttachmentStore
	BranchStore
	RunStore
	ExecutionLog
	PauseStore
	RuleStore
	Ledger
	RoundTripStore
	TaskStore
}

// ThreadTitles names untitled threads after their first exchange
// (optional: without it threads keep the title the person gives).
type ThreadTitles interface {
	Thread(ctx context.Context, id string) (history.Thread, error)
	RenameThread(ctx context.Context, id, title string) error
}

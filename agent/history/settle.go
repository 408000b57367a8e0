package history

import (
	"encoding/json"
	"errors"
	"strings"
)

// ErrNotFound is returned (wrapped) by the runtime's stores when the
// thread, message, run or record asked for does not exist.
var ErrNotFound = errors.New("history: not found")

// ConflictError is returned by a store's Settle when some of the listed
// items are not pending in the thread (already answered, cancelled, of
// another thread, unknown, or listed twice). Nothing was changed: the
// first resolver won and this one was too late.
type ConflictError struct {
	IDs []string
}

func (e *ConflictError) Error() string {
	return "history: items not pending: " + strings.Join(e.IDs, ", ")
}

// Resolution answers one pending interrupt.
type Resolution struct {
	ID       string
	Status   InterruptStatus // InterruptResolved or InterruptCancelled
	Response json.RawMessage // the resume entry; may be empty
}

// Settlement is everything one accepted answer batch changes, written in
// one transaction, all or nothing: the interrupts it answers, the client
// tool calls it completes (each with its final State and Result), and the
// "Always allow" rules the person chose while answering. Every listed
// interrupt and client call must still be pending in ThreadID, or nothing
// changes and a *ConflictError names the late ones. Staged answers of the
// settled items are deleted in the same transaction.
type Settlement struct {
	ThreadID    string
	Interrupts  []Resolution
	ClientCalls []ClientToolCall
	// Rules are added (an identical tool/scope/pattern rule is kept once).
	Rules []PermissionRule
	// Ledger is what the batch decided, appended to the decision ledger
	// in the same transaction; Transport is how the answer arrived.
	Ledger    []LedgerEntry
	Transport string
}

// StagedAnswer is a partial answer to a paused batch, kept until the
// batch is complete so a half-answered batch survives a restart. ItemID
// is an interrupt id or a client tool call id; Payload is the runtime's
// own JSON for that answer.
type StagedAnswer struct {
	ThreadID  string          `json:"threadId"`
	ItemID    string          `json:"itemId"`
	Payload   json.RawMessage `json:"payload"`
	CreatedAt int64           `json:"createdAt"`
}

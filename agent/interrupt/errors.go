package interrupt

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// ErrorCode is a TanStack interrupt error code (§12.4).
type ErrorCode string

// Item codes.
const (
	CodeInvalidPayload        ErrorCode = "invalid-payload"
	CodeInvalidEditedArgs     ErrorCode = "invalid-edited-args"
	CodeInvalidToolOutput     ErrorCode = "invalid-tool-output"
	CodeInvalidResponseSchema ErrorCode = "invalid-response-schema"
	CodeUnknownInterrupt      ErrorCode = "unknown-interrupt"
	CodeExpired               ErrorCode = "expired"
	CodeStale                 ErrorCode = "stale"
	CodeConflict              ErrorCode = "conflict"
	CodeLegacyUnsupported     ErrorCode = "legacy-unsupported" // declared, never produced
)

// Batch codes (besides invalid-response-schema, expired, stale, conflict).
const (
	CodeIncompleteBatch          ErrorCode = "incomplete-batch"
	CodeItemValidationFailed     ErrorCode = "item-validation-failed"
	CodeUnsupportedBulkOperation ErrorCode = "unsupported-bulk-operation"
	CodeAsyncResolver            ErrorCode = "async-resolver"
	CodeInactiveTransaction      ErrorCode = "inactive-transaction"
	CodeMixedProvenance          ErrorCode = "mixed-provenance" // declared, never produced
	CodeTransport                ErrorCode = "transport"
	CodeServer                   ErrorCode = "server"
	CodeProtocol                 ErrorCode = "protocol"
	CodeLegacySubmitFailed       ErrorCode = "legacy-submit-failed" // declared, never produced
)

// Source says who must fix an error.
type Source string

// Sources.
const (
	SourceClient    Source = "client"
	SourceServer    Source = "server"
	SourceTransport Source = "transport"
)

// Scope of an error.
type Scope string

// Scopes.
const (
	ScopeItem  Scope = "item"
	ScopeBatch Scope = "batch"
)

// Error is one TanStack interrupt error object (§12.4). MarshalJSON writes
// the validator's key order: item = scope, threadId, interruptedRunId,
// generation, interruptId, code, message, source, retryable, path?;
// batch = scope, threadId, interruptedRunId, generation, code, message,
// source, retryable, interruptIds. Engine-level batch errors (see
// NewEngineError) put interruptIds right after generation.
type Error struct {
	Scope            Scope
	ThreadID         string
	InterruptedRunID string
	Generation       int
	InterruptID      string   // item errors
	InterruptIDs     []string // batch errors (written as [] when empty)
	Code             ErrorCode
	Message          string
	Source           Source
	Retryable        bool
	Path             []any // item schema issues only: strings and ints
	engineOrder      bool
}

// MarshalJSON implements json.Marshaler.
func (e Error) MarshalJSON() ([]byte, error) {
	w := objWriter{}
	w.str("scope", string(e.Scope))
	w.str("threadId", e.ThreadID)
	w.str("interruptedRunId", e.InterruptedRunID)
	w.raw("generation", []byte(strconv.Itoa(e.Generation)))
	ids := func() {
		list := e.InterruptIDs
		if list == nil {
			list = []string{}
		}
		b, _ := json.Marshal(list)
		w.raw("interruptIds", b)
	}
	if e.Scope == ScopeItem {
		w.str("interruptId", e.InterruptID)
	} else if e.engineOrder {
		ids()
	}
	w.str("code", string(e.Code))
	w.str("message", e.Message)
	w.str("source", string(e.Source))
	w.raw("retryable", strconv.AppendBool(nil, e.Retryable))
	if e.Scope == ScopeItem && e.Path != nil {
		b, err := json.Marshal(e.Path)
		if err != nil {
			return nil, err
		}
		w.raw("path", b)
	}
	if e.Scope == ScopeBatch && !e.engineOrder {
		ids()
	}
	return w.done(), nil
}

// NewEngineError builds an engine-level batch error (source server, not
// retryable), e.g. for a generic continuation that cannot be rebuilt.
func NewEngineError(c Correlation, code ErrorCode, message string, interruptIDs []string) Error {
	return Error{Scope: ScopeBatch, ThreadID: c.ThreadID, InterruptedRunID: c.InterruptedRunID,
		Generation: c.Generation, InterruptIDs: interruptIDs, Code: code, Message: message,
		Source: SourceServer, engineOrder: true}
}

// MissingParentRunError is the error of a continuation without
// parentRunId (§12.1 step 2). Per D7, c.InterruptedRunID should be the
// thread's actual interrupted run when the server knows it.
func MissingParentRunError(c Correlation, resumeIDs []string) Error {
	return NewEngineError(c, CodeStale, "Interrupt continuation requires parentRunId to identify the interrupted run.", resumeIDs)
}

// BatchError is a refused resume batch: every error, in reference order.
type BatchError struct {
	Errors []Error
}

// Error joins the messages with a single space, like RUN_ERROR.message.
func (e *BatchError) Error() string {
	msgs := make([]string, len(e.Errors))
	for i, x := range e.Errors {
		msgs[i] = x.Message
	}
	return strings.Join(msgs, " ")
}

// Code is the code of the first error.
func (e *BatchError) Code() ErrorCode {
	if len(e.Errors) == 0 {
		return CodeServer
	}
	return e.Errors[0].Code
}

// RunError is the failure terminal of §13 as data: the single RUN_ERROR
// event of a refused continuation.
type RunError struct {
	Type      string           `json:"type"` // "RUN_ERROR"
	Timestamp int64            `json:"timestamp,omitempty"`
	Message   string           `json:"message"`
	Code      string           `json:"code,omitempty"`
	Metadata  RunErrorMetadata `json:"metadata"`
}

// RunErrorMetadata is RUN_ERROR.metadata.
type RunErrorMetadata struct {
	Tanstack RunErrorCorrelation `json:"tanstack"`
}

// RunErrorCorrelation is RUN_ERROR.metadata.tanstack. RunID is the
// continuation's request runId, which the client correlates on.
type RunErrorCorrelation struct {
	RunID           string  `json:"runId"`
	ThreadID        string  `json:"threadId"`
	InterruptErrors []Error `json:"interruptErrors,omitempty"`
}

// Terminal renders the failure terminal for a refused continuation: message
// = the error messages joined by one space, code = the first error's code.
func (e *BatchError) Terminal(runID, threadID string, now time.Time) RunError {
	return RunError{
		Type:      "RUN_ERROR",
		Timestamp: now.UnixMilli(),
		Message:   e.Error(),
		Code:      string(e.Code()),
		Metadata:  RunErrorMetadata{Tanstack: RunErrorCorrelation{RunID: runID, ThreadID: threadID, InterruptErrors: e.Errors}},
	}
}

// ServerFailureTerminal is the failure terminal without structured errors
// (e.g. the pending batch could not be persisted): code "server".
func ServerFailureTerminal(runID, threadID, message string, now time.Time) RunError {
	return RunError{
		Type: "RUN_ERROR", Timestamp: now.UnixMilli(), Message: message, Code: string(CodeServer),
		Metadata: RunErrorMetadata{Tanstack: RunErrorCorrelation{RunID: runID, ThreadID: threadID}},
	}
}

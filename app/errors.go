package app

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/app/config"
	"github.com/juncture-app/juncture/store"
)

// Error codes the frontend can rely on.
const (
	CodeNotImplemented  = "not-implemented"
	CodeNotConfigured   = "not-configured"
	CodeNotFound        = "not-found"
	CodeInvalidArgument = "invalid-argument"
	CodeInvalidSettings = "invalid-settings"
	CodeConflict        = "conflict"
	CodeInternal        = "internal"
	CodeUnavailable     = "unavailable"
	// CodePending: the answer was kept, but the run waits for other items
	// (a question, a window action) that this call cannot answer.
	CodePending = "pending"
	// CodeDiskFull: the disk (or the database's size cap) is full; what
	// the call would have written was not saved.
	CodeDiskFull = "disk-full"
)

// msgDiskFull is what the window shows for a refused write.
const msgDiskFull = "Disk full: not saved. Free some space on the disk, then try again."

// Error is what a bound method returns on failure. Its Error() text is its
// JSON form, so the Wails transport (which passes error strings) and the
// HTTP transport (which sends {"error": …}) carry the same object.
type Error struct {
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Details map[string]string `json:"details,omitempty"`
}

func (e *Error) Error() string {
	b, _ := json.Marshal(e)
	return string(b)
}

func errorf(code, msg string) *Error { return &Error{Code: code, Message: msg} }

// asError maps any error to an *Error with a user-facing code.
func asError(err error) *Error {
	var e *Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e):
		return e
	case errors.Is(err, agent.ErrNotConfigured):
		return errorf(CodeNotConfigured, "No model endpoint is configured yet. Open Settings and choose an endpoint (OpenAI, Ollama, LM Studio, OpenRouter or a custom URL) and a model.")
	case errors.Is(err, agent.ErrEmptyInput):
		return errorf(CodeInvalidArgument, err.Error())
	case errors.Is(err, agent.ErrClosed):
		return errorf(CodeUnavailable, err.Error())
	case errors.Is(err, agent.ErrBusy):
		return errorf(CodeConflict, err.Error())
	case errors.Is(err, store.ErrNotFound):
		return errorf(CodeNotFound, err.Error())
	case errors.Is(err, store.ErrDiskFull):
		return errorf(CodeDiskFull, msgDiskFull)
	case errors.Is(err, agent.ErrNoClientCall):
		return errorf(CodeNotFound, "No client tool call is waiting with this id.")
	case errors.Is(err, agent.ErrTooLate):
		return errorf(CodeConflict, "Too late: this no longer waits for an answer (it was answered, you sent a message, or Stop came first).")
	case errors.Is(err, agent.ErrBadRule):
		return errorf(CodeInvalidArgument, err.Error())
	}
	var cfgErr *config.Error
	if errors.As(err, &cfgErr) {
		return configError(cfgErr)
	}
	var refused *agent.RefusedError
	if errors.As(err, &refused) {
		if refused.Err != nil {
			return errorf(CodeInternal, refused.Error())
		}
		return &Error{Code: CodeInvalidArgument, Message: refused.Error(), Details: map[string]string{"code": string(refused.Batch.Code()), "runId": refused.RunID}}
	}
	if errors.Is(err, agent.ErrNothingPending) {
		return errorf(CodeConflict, "Nothing in this thread is waiting for an answer.")
	}
	var conflict *store.ConflictError
	if errors.As(err, &conflict) {
		return errorf(CodeConflict, err.Error())
	}
	return errorf(CodeInternal, err.Error())
}

// configError maps a refused configuration change.
func configError(e *config.Error) *Error {
	switch e.Kind {
	case config.Invalid:
		return &Error{Code: CodeInvalidSettings, Message: e.Message, Details: e.Fields}
	case config.NotFound:
		return errorf(CodeNotFound, e.Message)
	default:
		return errorf(CodeInvalidArgument, e.Message)
	}
}

// httpStatus is the HTTP status for an error code.
func httpStatus(code string) int {
	switch code {
	case CodeNotImplemented:
		return http.StatusNotImplemented
	case CodeNotFound:
		return http.StatusNotFound
	case CodeInvalidArgument, CodeInvalidSettings:
		return http.StatusBadRequest
	case CodeNotConfigured, CodeConflict, CodePending:
		return http.StatusConflict
	case CodeUnavailable:
		return http.StatusServiceUnavailable
	case CodeDiskFull:
		return http.StatusInsufficientStorage
	default:
		return http.StatusInternalServerError
	}
}

package app

import (
	"errors"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/app/config"
	"github.com/juncture-app/juncture/app/web"
	"github.com/juncture-app/juncture/store"
)

// Error codes the frontend can rely on (the wire's, package web).
const (
	CodeNotImplemented  = web.CodeNotImplemented
	CodeNotConfigured   = web.CodeNotConfigured
	CodeNotFound        = web.CodeNotFound
	CodeInvalidArgument = web.CodeInvalidArgument
	CodeInvalidSettings = web.CodeInvalidSettings
	CodeConflict        = web.CodeConflict
	CodeInternal        = web.CodeInternal
	CodeUnavailable     = web.CodeUnavailable
	CodePending         = web.CodePending
	CodeDiskFull        = web.CodeDiskFull
)

// msgDiskFull is what the window shows for a refused write.
const msgDiskFull = "Disk full: not saved. Free some space on the disk, then try again."

// Error is what a bound method returns on failure: the wire's object,
// the same through both transports (web.Error).
type Error = web.Error

// AsError maps any error to the window's Error (web.Facade).
func (s *Service) AsError(err error) *Error { return asError(err) }

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
	case errors.Is(err, store.ErrSearchTooBroad):
		return errorf(CodeInvalidArgument, "This search is too broad to finish quickly: add a rarer word, or use fewer words.")
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

func asErrorOrNil(err error) error {
	if err == nil {
		return nil
	}
	return asError(err)
}

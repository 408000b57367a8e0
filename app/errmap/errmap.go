// Package errmap is the window's error for each error the app's packages
// return: the one place a runtime, store, configuration, MCP, branch or
// attachment error becomes the wire's *web.Error, with its code and the
// words the window shows.
//
// Guarantees:
//   - Given an error, every function returns a *web.Error with one of
//     web's codes (Attachment only for a refused file, else false), never
//     another error type, so both transports carry the same object;
//     Map(nil) and OrNil(nil) are nil.
//   - Map passes an error already mapped (a *web.Error in the chain)
//     through unchanged, and so do Branch and MCPEdit, which fall back to
//     it.
//   - An error nothing here knows keeps its own text: CodeInternal from
//     Map, CodeUnavailable from MCPOffer. None is dropped or turned into
//     a success.
//
// It knows no app: the facade calls it with what its packages returned.
package errmap

import (
	"errors"
	"fmt"
	"strings"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/app/config"
	"github.com/juncture-app/juncture/app/web"
	"github.com/juncture-app/juncture/store"
)

// msgDiskFull is what the window shows for a refused write.
const msgDiskFull = "Disk full: not saved. Free some space on the disk, then try again."

func errorf(code, msg string) *web.Error { return &web.Error{Code: code, Message: msg} }

// Map maps any error to a *web.Error with a user-facing code.
func Map(err error) *web.Error {
	var e *web.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e):
		return e
	case errors.Is(err, agent.ErrNotConfigured):
		return errorf(web.CodeNotConfigured, "No model endpoint is configured yet. Open Settings and choose an endpoint (OpenAI, Ollama, LM Studio, OpenRouter or a custom URL) and a model.")
	case errors.Is(err, agent.ErrEmptyInput):
		return errorf(web.CodeInvalidArgument, err.Error())
	case errors.Is(err, agent.ErrClosed):
		return errorf(web.CodeUnavailable, err.Error())
	case errors.Is(err, agent.ErrBusy):
		return errorf(web.CodeConflict, err.Error())
	case errors.Is(err, store.ErrNotFound):
		return errorf(web.CodeNotFound, err.Error())
	case errors.Is(err, store.ErrSearchTooBroad):
		return errorf(web.CodeInvalidArgument, "This search is too broad to finish quickly: add a rarer word, or use fewer words.")
	case errors.Is(err, store.ErrDiskFull):
		return errorf(web.CodeDiskFull, msgDiskFull)
	case errors.Is(err, agent.ErrNoClientCall):
		return errorf(web.CodeNotFound, "No client tool call is waiting with this id.")
	case errors.Is(err, agent.ErrTooLate):
		return errorf(web.CodeConflict, "Too late: this no longer waits for an answer (it was answered, you sent a message, or Stop came first).")
	case errors.Is(err, agent.ErrBadRule):
		return errorf(web.CodeInvalidArgument, err.Error())
	}
	var cfgErr *config.Error
	if errors.As(err, &cfgErr) {
		return configError(cfgErr)
	}
	var refused *agent.RefusedError
	if errors.As(err, &refused) {
		if refused.Err != nil {
			return errorf(web.CodeInternal, refused.Error())
		}
		return &web.Error{Code: web.CodeInvalidArgument, Message: refused.Error(), Details: map[string]string{"code": string(refused.Batch.Code()), "runId": refused.RunID}}
	}
	if errors.Is(err, agent.ErrNothingPending) {
		return errorf(web.CodeConflict, "Nothing in this thread is waiting for an answer.")
	}
	var conflict *store.ConflictError
	if errors.As(err, &conflict) {
		return errorf(web.CodeConflict, err.Error())
	}
	return errorf(web.CodeInternal, err.Error())
}

// OrNil is Map as an error: nil stays a nil interface, never a typed nil.
func OrNil(err error) error {
	if err == nil {
		return nil
	}
	return Map(err)
}

// configError maps a refused configuration change.
func configError(e *config.Error) *web.Error {
	switch e.Kind {
	case config.Invalid:
		return &web.Error{Code: web.CodeInvalidSettings, Message: e.Message, Details: e.Fields}
	case config.NotFound:
		return errorf(web.CodeNotFound, e.Message)
	default:
		return errorf(web.CodeInvalidArgument, e.Message)
	}
}

// Branch says in words why a branch operation (edit, regenerate, select
// a version) was refused.
func Branch(err error) *web.Error {
	switch {
	case errors.Is(err, agent.ErrBusy):
		return errorf(web.CodeConflict, "agent: the thread is already running a turn. Stop it first, then try again.")
	case errors.Is(err, agent.ErrBranchWaits):
		return errorf(web.CodeConflict, "Something on this version waits for you (an approval, a question or a client tool). Answer or dismiss it before switching to another version.")
	case errors.Is(err, agent.ErrNotEditable), errors.Is(err, agent.ErrNotRegenerable):
		return errorf(web.CodeInvalidArgument, err.Error())
	case errors.Is(err, store.ErrNotFound):
		return errorf(web.CodeNotFound, "This message is not in this conversation any more (it may have been deleted or imported elsewhere).")
	}
	return Map(err)
}

// Attachment maps a refused file to the error the composer shows; false
// when err is no *attach.Error (nil included).
func Attachment(err error) (*web.Error, bool) {
	var ae *attach.Error
	if !errors.As(err, &ae) {
		return nil, false
	}
	code := "attachment-refused"
	if ae.ImagesNotAccepted {
		code = "images-not-accepted"
	}
	return &web.Error{Code: web.CodeInvalidArgument, Message: ae.Error(), Details: map[string]string{"code": code, "name": ae.Name}}, true
}

// UnknownServer is the refusal for an MCP server name the configuration
// does not hold.
func UnknownServer(name string) *web.Error {
	return errorf(web.CodeNotFound, fmt.Sprintf("No server called %q is configured.", name))
}

// MCPEdit maps a refused edit of the MCP configuration file: an edit's
// refusal by its kind, a file that does not parse with its line and
// column, anything else as Map.
func MCPEdit(err error) error {
	var ee *mcp.EditError
	if errors.As(err, &ee) {
		switch {
		case errors.Is(err, mcp.ErrUnknownServer):
			return errorf(web.CodeNotFound, ee.Message)
		case errors.Is(err, mcp.ErrNoServerName):
			return errorf(web.CodeInvalidArgument, ee.Message)
		case errors.Is(err, mcp.ErrReadOnly):
			return errorf(web.CodeUnavailable, ee.Message) // as the app's own read-only refusal
		default:
			return errorf(web.CodeConflict, ee.Message)
		}
	}
	var ce *mcp.ConfigError
	if errors.As(err, &ce) {
		return &web.Error{Code: web.CodeInvalidArgument, Message: ce.Error(),
			Details: map[string]string{"line": fmt.Sprint(ce.Line), "column": fmt.Sprint(ce.Column)}}
	}
	return Map(err)
}

// MCPOffer maps the MCP manager's errors about one server (its prompts,
// resources, completions, log level, App views) to the window's codes;
// anything else is CodeUnavailable.
func MCPOffer(server string, err error) error {
	switch {
	case errors.Is(err, mcp.ErrUnknownServer):
		return UnknownServer(server)
	case errors.Is(err, mcp.ErrNotReady):
		return errorf(web.CodeUnavailable, fmt.Sprintf("The server %q is not ready yet.", server))
	case errors.Is(err, mcp.ErrNotOffered):
		return errorf(web.CodeInvalidArgument, strings.TrimPrefix(err.Error(), "mcp: "))
	}
	return errorf(web.CodeUnavailable, err.Error())
}

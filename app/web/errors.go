package web

import (
	"encoding/json"
	"net/http"
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

func writeError(w http.ResponseWriter, e *Error, status int) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]*Error{"error": e})
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

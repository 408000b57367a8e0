package store

import (
	"errors"
	"fmt"

	"github.com/juncture-app/juncture/agent/history"
)

// ErrNotFound is returned (wrapped) when the thread, message, run or record
// asked for does not exist. It is history.ErrNotFound, so the runtime, which
// does not import store, recognises it with errors.Is.
var ErrNotFound = history.ErrNotFound

// ErrReadOnly is returned (wrapped) by every change made through a database
// opened with OpenReadOnlyCopy.
var ErrReadOnly = errors.New("database is open read-only")

// ErrInvalidImport is wrapped by every ImportJSON error about the document
// itself (as opposed to a failure of the database).
var ErrInvalidImport = errors.New("invalid Juncture thread export")

// ErrSearchTooBroad is returned (wrapped) by SearchHistory when a search
// ran past its budget (DefaultSearchBudget): its words are too common
// together to finish quickly.
var ErrSearchTooBroad = errors.New("the search is too broad to finish quickly")

// ErrBadCursor is returned (wrapped) by ListThreads for a cursor it did not
// produce.
var ErrBadCursor = errors.New("invalid thread list cursor")

// NewerSchemaError refuses a database written by a newer Juncture. The file
// is left exactly as it was.
type NewerSchemaError struct {
	Path      string
	Found     int // the database's schema version
	Supported int // the newest schema version this build understands
}

func (e *NewerSchemaError) Error() string {
	return fmt.Sprintf("the history database %s was written by a newer version of Juncture "+
		"(schema version %d; this version understands up to %d). "+
		"Please use a newer Juncture to open it; the file has not been changed.",
		e.Path, e.Found, e.Supported)
}

// CorruptError reports a database that failed its integrity check at open.
// Nothing was written to it; OpenReadOnlyCopy can still open a copy of it so
// the person can browse what survives.
type CorruptError struct {
	Path   string
	Detail string // what SQLite reported
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("the history database %s is damaged (%s); it has not been changed. "+
		"A read-only copy can still be opened to browse it.", e.Path, e.Detail)
}

// ConflictError is returned by Settle, ResolveInterrupts and StageAnswers
// when some of the listed items are not pending in the thread (already
// answered, cancelled, of another thread, unknown, or listed twice).
// Nothing was changed. It is history.ConflictError, the runtime's own type.
type ConflictError = history.ConflictError

package errmap_test

import (
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/juncture-app/juncture/agent"
	"github.com/juncture-app/juncture/agent/attach"
	"github.com/juncture-app/juncture/agent/interrupt"
	"github.com/juncture-app/juncture/agent/mcp"
	"github.com/juncture-app/juncture/app/config"
	"github.com/juncture-app/juncture/app/errmap"
	"github.com/juncture-app/juncture/app/web"
	"github.com/juncture-app/juncture/store"
)

// want is a mapped error: its code, a piece of its message ("" = any) and
// its details (nil = none).
type want struct {
	code, msg string
	details   map[string]string
}

func check(t *testing.T, name string, got error, w want) {
	t.Helper()
	var e *web.Error
	if !errors.As(got, &e) || e == nil {
		t.Fatalf("%s: got %T %v, want a *web.Error", name, got, got)
	}
	if e.Code != w.code || !strings.Contains(e.Message, w.msg) || !maps.Equal(e.Details, w.details) {
		t.Errorf("%s: got %+v, want code %q, a message with %q, details %v", name, e, w.code, w.msg, w.details)
	}
}

// Every error the app's packages return gets its code and words, also
// when wrapped; what nothing knows is internal with its own text.
func TestMapGivesEachErrorItsCode(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("doing it: %w", err) }
	batch := &interrupt.BatchError{Errors: []interrupt.Error{{Code: interrupt.CodeInvalidPayload, Message: "bad payload"}}}
	cases := []struct {
		name string
		err  error
		want want
	}{
		{"not configured", wrap(agent.ErrNotConfigured), want{web.CodeNotConfigured, "No model endpoint is configured yet", nil}},
		{"empty input", wrap(agent.ErrEmptyInput), want{web.CodeInvalidArgument, "doing it", nil}},
		{"closed", agent.ErrClosed, want{web.CodeUnavailable, agent.ErrClosed.Error(), nil}},
		{"busy", agent.ErrBusy, want{web.CodeConflict, agent.ErrBusy.Error(), nil}},
		{"not found", wrap(store.ErrNotFound), want{web.CodeNotFound, store.ErrNotFound.Error(), nil}},
		{"search too broad", store.ErrSearchTooBroad, want{web.CodeInvalidArgument, "This search is too broad", nil}},
		{"disk full", wrap(store.ErrDiskFull), want{web.CodeDiskFull, "Disk full: not saved.", nil}},
		{"no client call", agent.ErrNoClientCall, want{web.CodeNotFound, "No client tool call is waiting", nil}},
		{"too late", agent.ErrTooLate, want{web.CodeConflict, "Too late", nil}},
		{"bad rule", wrap(agent.ErrBadRule), want{web.CodeInvalidArgument, agent.ErrBadRule.Error(), nil}},
		{"invalid settings", &config.Error{Kind: config.Invalid, Message: "fix it", Fields: map[string]string{"model": "empty"}},
			want{web.CodeInvalidSettings, "fix it", map[string]string{"model": "empty"}}},
		{"config not found", wrap(&config.Error{Kind: config.NotFound, Message: "gone"}), want{web.CodeNotFound, "gone", nil}},
		{"config refused", &config.Error{Kind: config.Refused, Message: "no"}, want{web.CodeInvalidArgument, "no", nil}},
		{"answers refused", &agent.RefusedError{RunID: "run-1", Batch: batch},
			want{web.CodeInvalidArgument, "bad payload", map[string]string{"code": string(interrupt.CodeInvalidPayload), "runId": "run-1"}}},
		{"answers not checked", &agent.RefusedError{RunID: "run-1", Err: errors.New("disk")}, want{web.CodeInternal, "could not be checked: disk", nil}},
		{"nothing pending", agent.ErrNothingPending, want{web.CodeConflict, "Nothing in this thread is waiting", nil}},
		{"conflict", wrap(&store.ConflictError{IDs: []string{"i-1"}}), want{web.CodeConflict, "i-1", nil}},
		{"unknown", errors.New("something else"), want{web.CodeInternal, "something else", nil}},
	}
	for _, c := range cases {
		check(t, c.name, errmap.Map(c.err), c.want)
		check(t, c.name+" (OrNil)", errmap.OrNil(c.err), c.want)
	}
}

// An error already mapped passes through as it is; nil stays nil, and a
// nil interface (never a typed nil) from OrNil.
func TestMapPassesMappedErrorsAndNil(t *testing.T) {
	e := &web.Error{Code: web.CodePending, Message: "kept", Details: map[string]string{"waiting": "a"}}
	if got := errmap.Map(fmt.Errorf("wrapped: %w", e)); got != e {
		t.Errorf("Map(wrapped *web.Error) = %+v, want the same error", got)
	}
	if got := errmap.Branch(e); got != e {
		t.Errorf("Branch(*web.Error) = %+v, want the same error", got)
	}
	var edited *web.Error
	if !errors.As(errmap.MCPEdit(e), &edited) || edited != e {
		t.Errorf("MCPEdit(*web.Error) = %+v, want the same error", edited)
	}
	if got := errmap.Map(nil); got != nil {
		t.Errorf("Map(nil) = %+v", got)
	}
	if err := errmap.OrNil(nil); err != nil {
		t.Errorf("OrNil(nil) = %#v, want a nil interface", err)
	}
}

func TestBranchSaysWhyInWords(t *testing.T) {
	check(t, "busy", errmap.Branch(agent.ErrBusy), want{web.CodeConflict, "already running a turn. Stop it first", nil})
	check(t, "waits", errmap.Branch(agent.ErrBranchWaits), want{web.CodeConflict, "Something on this version waits for you", nil})
	check(t, "not editable", errmap.Branch(agent.ErrNotEditable), want{web.CodeInvalidArgument, agent.ErrNotEditable.Error(), nil})
	check(t, "not regenerable", errmap.Branch(agent.ErrNotRegenerable), want{web.CodeInvalidArgument, agent.ErrNotRegenerable.Error(), nil})
	check(t, "not found", errmap.Branch(store.ErrNotFound), want{web.CodeNotFound, "This message is not in this conversation any more", nil})
	check(t, "other", errmap.Branch(store.ErrDiskFull), want{web.CodeDiskFull, "Disk full", nil}) // falls back to Map
}

func TestAttachmentNamesTheFileAndWhy(t *testing.T) {
	e, ok := errmap.Attachment(fmt.Errorf("sending: %w", &attach.Error{Name: "a.png", Reason: "too large"}))
	if !ok {
		t.Fatal("a refused file is not mapped")
	}
	check(t, "refused", e, want{web.CodeInvalidArgument, "a.png: too large", map[string]string{"code": "attachment-refused", "name": "a.png"}})
	e, ok = errmap.Attachment(&attach.Error{Name: "b.png", Reason: "no images", ImagesNotAccepted: true})
	if !ok {
		t.Fatal("an image the model does not accept is not mapped")
	}
	check(t, "images", e, want{web.CodeInvalidArgument, "b.png", map[string]string{"code": "images-not-accepted", "name": "b.png"}})
	for _, err := range []error{nil, errors.New("other"), agent.ErrBusy} {
		if e, ok := errmap.Attachment(err); ok || e != nil {
			t.Errorf("Attachment(%v) = %v, %v; want nil, false", err, e, ok)
		}
	}
}

func TestMCPEditAndOffer(t *testing.T) {
	check(t, "edit: unknown", errmap.MCPEdit(&mcp.EditError{Err: mcp.ErrUnknownServer, Message: "no such"}), want{web.CodeNotFound, "no such", nil})
	check(t, "edit: no name", errmap.MCPEdit(&mcp.EditError{Err: mcp.ErrNoServerName, Message: "name it"}), want{web.CodeInvalidArgument, "name it", nil})
	check(t, "edit: read-only", errmap.MCPEdit(&mcp.EditError{Err: mcp.ErrReadOnly, Message: "read-only copy"}), want{web.CodeUnavailable, "read-only copy", nil})
	check(t, "edit: other", errmap.MCPEdit(&mcp.EditError{Err: errors.New("x"), Message: "taken"}), want{web.CodeConflict, "taken", nil})
	check(t, "edit: parse", errmap.MCPEdit(&mcp.ConfigError{Line: 3, Column: 7, Message: "unexpected }"}),
		want{web.CodeInvalidArgument, "unexpected }", map[string]string{"line": "3", "column": "7"}})
	check(t, "edit: else", errmap.MCPEdit(store.ErrNotFound), want{web.CodeNotFound, store.ErrNotFound.Error(), nil})

	check(t, "offer: unknown", errmap.MCPOffer("files", mcp.ErrUnknownServer), want{web.CodeNotFound, `No server called "files" is configured.`, nil})
	check(t, "offer: not ready", errmap.MCPOffer("files", fmt.Errorf("x: %w", mcp.ErrNotReady)), want{web.CodeUnavailable, `The server "files" is not ready yet.`, nil})
	off := errmap.MCPOffer("files", mcp.ErrNotOffered)
	check(t, "offer: not offered", off, want{web.CodeInvalidArgument, "the server does not offer this", nil})
	var offered *web.Error
	if errors.As(off, &offered) && strings.HasPrefix(offered.Message, "mcp: ") {
		t.Errorf("not offered keeps the package prefix: %q", offered.Message)
	}
	check(t, "offer: else", errmap.MCPOffer("files", errors.New("pipe closed")), want{web.CodeUnavailable, "pipe closed", nil})
	check(t, "unknown server", errmap.UnknownServer("x"), want{web.CodeNotFound, `No server called "x" is configured.`, nil})
}

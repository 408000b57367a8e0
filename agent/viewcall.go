package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/juncture-app/juncture/agent/agui"
	"github.com/juncture-app/juncture/agent/history"
	"github.com/juncture-app/juncture/agent/tools"
)

// A call an MCP App view asks for (the view's tools/call). It is not a
// bypass: the runtime stores it as a call of its own (an assistant
// message no model wrote, holding one call whose id starts with
// ViewCallPrefix) and runs it through runCalls like a model's call, so the
// gate, "Always allow" and deny rules, the approval card, Stop,
// exactly-once execution and the ledger all apply unchanged. The only
// difference: no model call follows, neither in this run nor in the
// continuation after the person's answer (the view, not the model, waits
// for the result).

// ViewCallPrefix starts the id of every call a view asked for. The
// streamer renames a model's call id that starts with it (stream.go), so
// the prefix always means "from a view".
const ViewCallPrefix = "view-"

// ViewCallReason is the ledger's reason on a view's calls.
const ViewCallReason = "asked by an MCP App view"

// maxViewArgs bounds a view's arguments (a hostile view may send more).
const maxViewArgs = 256 << 10

// Errors of CallFromView.
var (
	ErrViewCallRefused = errors.New("agent: the view's call was refused")
)

// IsViewCall reports whether a call id is a view's.
func IsViewCall(id string) bool { return strings.HasPrefix(id, ViewCallPrefix) }

// CallFromView starts a run for a view's call of tool (the registry's
// name) with args (a JSON object) in threadID. parentCallID is the call
// whose result holds the view; it must be in the thread, and both it and
// tool must be tools of server (a view calls its own server only, never
// a built-in nor a window tool). The thread must
// be idle with nothing waiting (ErrBusy, ErrViewCallRefused). It returns
// the new call's id; the window follows the call in the thread and gives
// the view its result.
func (rt *Runtime) CallFromView(ctx context.Context, threadID, parentCallID, server, tool string, args json.RawMessage) (string, error) {
	if len(args) > maxViewArgs {
		return "", fmt.Errorf("%w: its arguments are over %d KiB", ErrViewCallRefused, maxViewArgs>>10)
	}
	var obj map[string]any
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if json.Unmarshal(args, &obj) != nil || obj == nil {
		return "", fmt.Errorf("%w: its arguments are not a JSON object", ErrViewCallRefused)
	}
	reg := rt.toolsNow(ctx, threadID)
	if reg == nil {
		return "", fmt.Errorf("%w: no tools", ErrViewCallRefused)
	}
	if t, ok := reg.Lookup(tool); !ok || server == "" || t.Source != server || t.Client || t.Run == nil {
		return "", fmt.Errorf("%w: %s has no tool %q a view may call", ErrViewCallRefused, server, tool)
	}
	msgs, err := rt.st.Messages(ctx, threadID)
	if err != nil {
		return "", fmt.Errorf("loading the thread: %w", err)
	}
	calls, _ := callsByID(msgs)
	parent, ok := calls[parentCallID]
	if !ok || parentCallID == "" {
		return "", fmt.Errorf("%w: the view's call %q is not in this thread", ErrViewCallRefused, parentCallID)
	}
	if pt, ok := reg.Lookup(parent.Name); !ok || pt.Source != server {
		return "", fmt.Errorf("%w: the view's call was not a tool of %s", ErrViewCallRefused, server)
	}
	pending, err := rt.st.PendingInterrupts(ctx, threadID)
	if err != nil {
		return "", fmt.Errorf("reading what waits: %w", err)
	}
	if len(pending) > 0 {
		return "", fmt.Errorf("%w: answer what waits in this chat first", ErrViewCallRefused)
	}
	if err := rt.waitSettled(ctx, threadID); err != nil {
		return "", err
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if err := rt.busy(threadID); err != nil {
		return "", err
	}
	call := history.ToolCall{ID: NewID(strings.TrimSuffix(ViewCallPrefix, "-")), Name: tool, Arguments: string(args)}
	in := Input{ThreadID: threadID, RunID: NewID("run"), kind: kindViewCall, viewCall: &call}
	rt.launch(rt.handle(threadID), in)
	return call.ID, nil
}

// viewCall stores the view's call as an assistant message of its own and
// runs it like a model's call.
func (tr *turn) viewCall(call history.ToolCall) ending {
	rt, tid := tr.rt, tr.run.ThreadID
	m := history.Message{ID: NewID("msg"), ThreadID: tid, RunID: tr.run.ID, Role: history.RoleAssistant,
		ToolCalls: []history.ToolCall{call}, Status: history.StatusComplete, CreatedAt: rt.now()}
	if err := rt.st.PutMessage(tr.save, m); err != nil {
		return tr.fail(fmt.Errorf("saving the view's call: %w", err), "")
	}
	stored, err := rt.st.Messages(tr.save, tid)
	if err != nil {
		return tr.fail(fmt.Errorf("loading the thread: %w", err), "")
	}
	rt.emit(tid, agui.NewMessagesSnapshot(agui.FromHistory(stored)))
	tr.lastAnswer = &m
	return tr.runCalls(m, []history.ToolCall{call}, nil)
}

// prepare prepares a call of the run's registry: a view's call may reach
// a ViewOnly tool, a model's may not.
func (tr *turn) prepare(call history.ToolCall) (tools.Call, *tools.Result) {
	if IsViewCall(call.ID) {
		return tr.tools.PrepareFromView(call.Name, call.Arguments)
	}
	return tr.tools.Prepare(call.Name, call.Arguments)
}

// onlyViewCalls: every decided call of a continuation is a view's (no
// model call follows them).
func onlyViewCalls(ds map[string]decision) bool {
	for id := range ds {
		if !IsViewCall(id) {
			return false
		}
	}
	return len(ds) > 0
}

package tools

import (
	"context"
	"encoding/json"
	"errors"
)

// Calls that run as tasks. A tool whose work outlives a request (an MCP
// task) records a handle for it while it runs; the runtime keeps the
// handle with the call, so the call can be resumed after the app
// restarts instead of being lost.

// TaskRecorder is the optional part of a CallEnv that keeps a running
// call's task handle.
type TaskRecorder interface {
	RecordTask(ctx context.Context, handle json.RawMessage) error
}

// ErrNoTaskStore: nothing keeps task handles here (no CallEnv, or one
// without a TaskRecorder); the call runs as a plain call would.
var ErrNoTaskStore = errors.New("tools: task handles cannot be kept here")

// RecordTask keeps a running call's task handle (a JSON object) with the
// call before the call goes on.
func RecordTask(ctx context.Context, handle json.RawMessage) error {
	r, ok := ctx.Value(callEnvKey{}).(TaskRecorder)
	if !ok || r == nil {
		return ErrNoTaskStore
	}
	return r.RecordTask(ctx, handle)
}

// Closing reports, once a task call's context ended, whether the app
// quits (the task must be left running at its source, to be resumed at
// the next start) rather than the person stopping the call (the task is
// cancelled). The CallEnv tells, through an optional DetachTask method.
func Closing(ctx context.Context) bool {
	d, ok := ctx.Value(callEnvKey{}).(interface{ DetachTask() bool })
	return ok && d != nil && d.DetachTask()
}
